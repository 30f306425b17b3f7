import { GameView, Page, PlayerView } from '@game-wallet/contracts';
import { GameFixture, TestPlatform, consoleToken, createGame, createPlayer, http, profileJwt } from '@game-wallet/testing';

/**
 * Input no caller may use to stop a gateway or reach a 500: free-form JSON past its bounds, EIP-712 types outside the
 * grammar, EVM numbers out of range, text PostgreSQL cannot store. Each answers 400 `VALIDATION_FAILED` naming the
 * field, stores nothing, and every app keeps serving.
 */
describe('hostile input is refused with 400 and stops nothing', () => {
  let platform: TestPlatform;
  let operator: string;
  let game: GameFixture;
  let player: PlayerView;
  let jwt: string;
  const missingWallet = '0190a0a0-0000-7000-8000-000000000000';

  beforeAll(async () => {
    // Many signing requests for one wallet in quick succession: the per-wallet signing limit has its own suite (rate-limit).
    platform = await TestPlatform.start('hostile', { env: { RATE_LIMIT_SIGN_PER_WALLET_RPS: '1000' } });
    operator = await consoleToken(platform);
    game = await createGame(platform, operator, 'Hostile input game');
    player = await createPlayer(platform, game.key, 'hostile-player');
    jwt = await profileJwt(platform, player.profileId, game.key);
  });

  afterAll(async () => {
    await platform.stop();
  });

  /** JSON text sent as it is: a value 5,000 levels deep cannot be made with JSON.stringify. */
  const postText = async (url: string, text: string, credential: Record<string, string>) => {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...credential }, body: text });
    return { status: response.status, body: (await response.json()) as { code: string; message: string } };
  };
  const deep = (levels: number): string => `${'['.repeat(levels)}${']'.repeat(levels)}`;
  const typedData = { domain: { chainId: 1 }, types: { A: [{ name: 'a', type: 'string' }] }, primaryType: 'A', message: { a: 'x' } };
  const signTypedData = (body: unknown, credential: { apiKey?: string; bearer?: string } = { apiKey: game.key }) =>
    http<{ code: string; message: string }>('POST', `${platform.baseUrl}/v1/wallet/${player.walletId}/sign-typed-data`, { ...credential, body });
  const answer = (response: { status: number; body: { code?: string; message?: string } }) => `${response.status} ${response.body.code}: ${response.body.message}`;

  const everyAppServes = async (): Promise<void> => {
    for (const name of ['gateway', 'identity', 'wallet', 'core']) {
      expect([name, platform.process(name).running]).toEqual([name, true]);
    }
    expect((await http('GET', `${platform.baseUrl}/v1/health`)).status).toBe(200);
    expect((await http('GET', `${platform.baseUrl}/v1/wallet/${player.walletId}`, { bearer: jwt })).status).toBe(200);
  };

  it.each([
    ['message', (nested: string) => `{"domain":{"chainId":1},"types":{"A":[{"name":"a","type":"string"}]},"primaryType":"A","message":{"a":${nested}}}`],
    ['domain', (nested: string) => `{"domain":{"x":${nested}},"types":{"A":[{"name":"a","type":"string"}]},"primaryType":"A","message":{"a":"x"}}`],
  ])('refuses typed data whose %s nests 5,000 levels deep (a profile JWT, a wallet that does not exist) with 400, and the gateway keeps serving', async (field, body) => {
    const response = await postText(`${platform.baseUrl}/v1/wallet/${missingWallet}/sign-typed-data`, body(deep(5000)), { authorization: `Bearer ${jwt}` });
    expect([response.status, response.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(response.body.message).toMatch(new RegExp(`^${field}: must not nest objects and arrays`));
    expect(Object.keys(response.body).sort()).toEqual(['code', 'message']);
    await everyAppServes();
  });

  it.each([
    ['message', { message: { a: JSON.parse(deep(32)) as unknown } }, 'message: must not nest objects and arrays more than 32 levels deep'],
    ['domain', { domain: { chainId: 1, x: JSON.parse(deep(32)) as unknown } }, 'domain: must not nest objects and arrays more than 32 levels deep'],
    ['message', { message: { a: new Array(1025).fill(1) } }, 'message.a: must have at most 1024 items'],
  ])('holds typed data %s to the free-form bounds (32 levels, 1,024 entries): 400 naming the field', async (_, change, message) => {
    expect(answer(await signTypedData({ ...typedData, ...change }))).toBe(`400 VALIDATION_FAILED: ${message}`);
  });

  it.each([
    ['a field type of "[]" × 32,650 then "x"', { types: { A: [{ name: 'a', type: `${'[]'.repeat(32_650)}x` }] } }, /^types\.A\.0\.type: must be an EIP-712 type/],
    ['nine array dimensions', { types: { A: [{ name: 'a', type: `uint8${'[]'.repeat(9)}` }] } }, /^types\.A\.0\.type: must be an EIP-712 type/],
    ['a type name that is not an identifier', { types: { 'A-1': [{ name: 'a', type: 'string' }] }, primaryType: 'A-1' }, /^types\.A-1: a type name must be an identifier/],
    ['a field name of 257 characters', { types: { A: [{ name: `a${'b'.repeat(256)}`, type: 'string' }] } }, /^types\.A\.0\.name: must be an identifier/],
    ['65 types', { types: Object.fromEntries(Array.from({ length: 65 }, (_, index) => [`T${index}`, [{ name: 'a', type: 'string' }]])), primaryType: 'T0' }, /^types: must define at most 64 types$/],
    ['129 fields in a type', { types: { A: Array.from({ length: 129 }, (_, index) => ({ name: `f${index}`, type: 'string' })) } }, /^types\.A: must have at most 128 fields$/],
    ['an undefined primary type', { primaryType: 'Letter' }, /^primaryType: Letter is not among the types$/],
    ['toString as the primary type', { primaryType: 'toString' }, /^primaryType: toString is not among the types$/],
    ['constructor as the primary type', { primaryType: 'constructor' }, /^primaryType: constructor is not among the types$/],
  ])('refuses EIP-712 types with %s: 400 VALIDATION_FAILED naming the field', async (_, change, message) => {
    const response = await signTypedData({ ...typedData, ...change });
    expect([response.status, response.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(response.body.message).toMatch(message);
  });

  it.each([
    ['value', { value: '9'.repeat(78) }, 'transaction.value: must be at most 2^256-1 (uint256)'],
    ['maxFeePerGas', { maxFeePerGas: '9'.repeat(78) }, 'transaction.maxFeePerGas: must be at most 2^256-1 (uint256)'],
    ['gasPrice', { gasPrice: `0x1${'0'.repeat(64)}` }, 'transaction.gasPrice: must be a whole number, decimal or 0x hex'],
    ['gasLimit', { gasLimit: '9'.repeat(78) }, 'transaction.gasLimit: must be at most 2^64-1 (uint64)'],
    ['nonce', { nonce: '9'.repeat(78) }, 'transaction.nonce: must be at most 2^53-1'],
    ['chainId', { chainId: '9'.repeat(78) }, 'transaction.chainId: must be a chain id from 1 to 2^64-1 (replay protection needs one)'],
  ])('refuses an out-of-range %s with 400 naming the field, not 500', async (_, change, message) => {
    const response = await http<{ code: string; message: string }>('POST', `${platform.baseUrl}/v1/wallet/${player.walletId}/sign-transaction`, {
      apiKey: game.key,
      body: { chain: 'evm', transaction: { chainId: 1, gasLimit: 21000, maxFeePerGas: '1', maxPriorityFeePerGas: '1', ...change } },
    });
    expect(answer(response)).toBe(`400 VALIDATION_FAILED: ${message}`);
  });

  it('refuses an EIP-1559 priority fee above the max fee with 400, not 500', async () => {
    const response = await http<{ code: string; message: string }>('POST', `${platform.baseUrl}/v1/wallet/${player.walletId}/sign-transaction`, {
      apiKey: game.key,
      body: { chain: 'evm', transaction: { chainId: 1, gasLimit: 21000, maxFeePerGas: '0', maxPriorityFeePerGas: '1000000' } },
    });
    expect(answer(response)).toBe('400 VALIDATION_FAILED: transaction.maxPriorityFeePerGas: must not be more than maxFeePerGas');
  });

  it('signs at the top of each range: value and fees 2^256-1, gas and chain id 2^64-1, nonce 2^53-1', async () => {
    const response = await http<{ signedTransaction: string }>('POST', `${platform.baseUrl}/v1/wallet/${player.walletId}/sign-transaction`, {
      apiKey: game.key,
      body: {
        chain: 'evm',
        transaction: { chainId: (2n ** 64n - 1n).toString(), nonce: Number.MAX_SAFE_INTEGER, value: (2n ** 256n - 1n).toString(), gasLimit: `0x${'f'.repeat(16)}`, maxFeePerGas: `0x${'f'.repeat(64)}`, maxPriorityFeePerGas: '1' },
      },
    });
    expect(response.status).toBe(200);
  });

  it('refuses userData holding NUL with 400 and stores nothing: the same player without it is then created (201)', async () => {
    const create = (userData: unknown) => http<PlayerView & { code?: string; message?: string }>('POST', `${platform.coreUrl}/v1/player/create`, { apiKey: game.key, body: { uniqueId: 'nul-player', userData } });
    expect(answer(await create({ note: 'a\u0000b' }))).toBe('400 VALIDATION_FAILED: userData.note: must not contain NUL (\\u0000)');
    expect(answer(await create({ ['k\u0000']: 1 }))).toBe('400 VALIDATION_FAILED: userData: a key must not contain NUL (\\u0000)');
    const created = await create({ note: 'ab' });
    expect([created.status, created.body.userData]).toEqual([201, { note: 'ab' }]);
  });

  it('refuses a game name that is not well-formed Unicode with 400 and creates no game', async () => {
    const games = async () => (await http<Page<GameView>>('GET', `${platform.baseUrl}/v1/console/games?limit=100`, { bearer: operator })).body.items.length;
    const before = await games();
    const response = await postText(`${platform.baseUrl}/v1/console/games`, '{"name":"\\udc00"}', { authorization: `Bearer ${operator}` });
    expect(answer(response)).toBe('400 VALIDATION_FAILED: name: must be well-formed Unicode (it holds a lone surrogate)');
    const sentinel = await http('POST', `${platform.baseUrl}/v1/console/games`, { bearer: operator, body: { name: 'After the refused one' } });
    expect(sentinel.status).toBe(201);
    expect(await games()).toBe(before + 1);
  });

  it('refuses a lone surrogate anywhere in a body, a message to sign included, rather than signing other bytes', async () => {
    const response = await postText(`${platform.baseUrl}/v1/wallet/${player.walletId}/sign`, '{"chain":"evm","message":"a\\ud800b"}', { 'x-api-key': game.key });
    expect(answer(response)).toBe('400 VALIDATION_FAILED: message: must be well-formed Unicode (it holds a lone surrogate)');
  });

  it('refuses control characters in the console players filter and the sign-in e-mail with 400, not 500', async () => {
    const players = await http<{ code: string }>('GET', `${platform.baseUrl}/v1/console/games/${game.gameId}/players?uniqueId=a%00b`, { bearer: operator });
    expect([players.status, players.body.code]).toEqual([400, 'INVALID_QUERY']);
    const signIn = await http<{ code: string }>('POST', `${platform.baseUrl}/v1/console/session`, { body: { email: 'a\u0000@example.com', password: 'x' } });
    expect([signIn.status, signIn.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    await everyAppServes();
  });
});

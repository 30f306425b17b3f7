import { PATTERNS, PlayerView } from '@game-wallet/contracts';
import { GameFixture, TestPlatform, consoleToken, createGame, createPlayer, http, profileJwt, queryOnce, waitFor } from '@game-wallet/testing';

/** SPEC §4.4: player creation — validation, 201/200, idempotence under concurrency and after a crash part-way. */
describe('players', () => {
  let platform: TestPlatform;
  let game: GameFixture;
  let other: GameFixture;

  beforeAll(async () => {
    platform = await TestPlatform.start('players', { env: { SERVICE_DEADLINE_MS: '1500' } });
    const token = await consoleToken(platform);
    game = await createGame(platform, token, 'Players game');
    other = await createGame(platform, token, 'Other game');
  });

  afterAll(async () => {
    await platform.stop();
  });

  const create = (body: unknown, key = game.key) => http<PlayerView & { code?: string; message?: string }>('POST', `${platform.coreUrl}/v1/player/create`, { apiKey: key, body });
  const count = async (sql: string, params: unknown[]) => Number((await queryOnce<{ n: string }>(platform.databaseUrl, sql, params))[0].n);

  it('creates a player with one profile and one wallet: 201 and exactly the SPEC record', async () => {
    const response = await create({ uniqueId: 'hero-1', image: 'https://cdn.example.com/hero.png', userData: { exp: 12, premium: true, username: 'Hero' } });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(['applicationId', 'createdAt', 'id', 'image', 'profileId', 'uniqueId', 'updatedAt', 'userData', 'walletId']);
    expect(response.body).toMatchObject({
      applicationId: game.gameId,
      uniqueId: 'hero-1',
      image: 'https://cdn.example.com/hero.png',
      userData: { exp: 12, premium: true, username: 'Hero' },
    });
    const wallet = await http<{ profileId: string }>('GET', `${platform.baseUrl}/v1/wallet/${response.body.walletId}`, { apiKey: game.key });
    expect(wallet.body.profileId).toBe(response.body.profileId);
  });

  it('defaults image to null and userData to {}', async () => {
    const response = await create({ uniqueId: 'plain' });
    expect(response.body).toMatchObject({ image: null, userData: {} });
  });

  it('answers a repeat with 200 and the existing player, unchanged', async () => {
    const first = await create({ uniqueId: 'repeat', userData: { level: 1 } });
    const again = await create({ uniqueId: 'repeat', userData: { level: 99 }, image: 'https://x.example/y.png' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });

  it('makes one player, one profile and one wallet for 50 concurrent creates of one uniqueId, all answering the same ids', async () => {
    const responses = await Promise.all(Array.from({ length: 50 }, () => create({ uniqueId: 'stampede' })));
    expect(responses.filter((response) => response.status !== 200 && response.status !== 201).map((response) => [response.status, response.body])).toEqual([]);
    expect(responses.filter((response) => response.status === 201)).toHaveLength(1);
    expect(new Set(responses.map((response) => `${response.body.id}/${response.body.profileId}/${response.body.walletId}`)).size).toBe(1);
    const { id, profileId } = responses[0].body;
    expect(await count("SELECT count(*)::text AS n FROM core.players WHERE unique_id = 'stampede'", [])).toBe(1);
    expect(await count('SELECT count(*)::text AS n FROM identity.profiles WHERE external_key = $1', [`player:${id}`])).toBe(1);
    expect(await count('SELECT count(*)::text AS n FROM wallet.wallets WHERE profile_id = $1', [profileId])).toBe(1);
  });

  it('makes separate players for the same uniqueId in two games', async () => {
    const a = await create({ uniqueId: 'shared-name' });
    const b = await create({ uniqueId: 'shared-name' }, other.key);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.id).not.toBe(b.body.id);
    expect(b.body.applicationId).toBe(other.gameId);
  });

  it('completes a player left half-made when the wallet service died, on retry, with no duplicates', async () => {
    await platform.process('wallet').stop('SIGKILL');
    const firstTry = `interrupted-${Date.now()}`;
    const failed = await http<{ code: string }>('POST', `${platform.coreUrl}/v1/player/create`, { apiKey: game.key, body: { uniqueId: 'interrupted' }, headers: { 'x-request-id': firstTry } });
    expect([503, 504]).toContain(failed.status);
    const [pending] = await queryOnce<{ id: string; status: string; profile_id: string | null; wallet_id: string | null }>(
      platform.databaseUrl,
      "SELECT id, status, profile_id, wallet_id FROM core.players WHERE unique_id = 'interrupted'",
    );
    expect(pending).toMatchObject({ status: 'pending', wallet_id: null });
    // Its profile was made before the wallet service died.
    expect(await count('SELECT count(*)::text AS n FROM identity.profiles WHERE external_key = $1', [`player:${pending.id}`])).toBe(1);
    const hidden = await http<{ code: string }>('GET', `${platform.coreUrl}/v1/player/${pending.id}`, { apiKey: game.key });
    expect([hidden.status, hidden.body.code]).toEqual([404, 'PLAYER_NOT_FOUND']);
    await platform.startApp('wallet');
    const retried = await create({ uniqueId: 'interrupted' });
    expect(retried.status).toBe(200);
    const [profile] = await queryOnce<{ id: string }>(platform.databaseUrl, 'SELECT id FROM identity.profiles WHERE external_key = $1', [`player:${pending.id}`]);
    expect(retried.body).toMatchObject({ id: pending.id, profileId: profile.id, walletId: expect.any(String) });
    // The first try left its wallet request in the wallet's stream, ahead of the retry's. The restarted wallet drops it
    // if core's deadline for it has passed, else runs it (core may then complete the player itself): which one depends
    // on how long the restart took. Either way nothing may be made twice, so wait for that request's fate, by its id.
    const wallet = platform.process('wallet');
    const ranFirstTry = () => wallet.jsonLines().some((line) => line.requestId === firstTry && String(line.msg).startsWith(`${PATTERNS.wallet.createOrGetWallet} `));
    const droppedFirstTry = async () =>
      /transport_messages_handled_total\{pattern="wallet\.wallets\.createOrGet",outcome="expired"[^}]*\} 1\n/.test(await (await fetch(`${platform.internalUrl('wallet')}/metrics`)).text());
    await waitFor(async () => ranFirstTry() || (await droppedFirstTry()), 10_000, "the first try's wallet request to be run or dropped");
    expect(await count('SELECT count(*)::text AS n FROM identity.profiles WHERE external_key = $1', [`player:${pending.id}`])).toBe(1);
    expect(await count('SELECT count(*)::text AS n FROM wallet.wallets WHERE profile_id = $1', [profile.id])).toBe(1);
    const read = await http<PlayerView>('GET', `${platform.coreUrl}/v1/player/${pending.id}`, { apiKey: game.key });
    expect(read.body).toEqual(retried.body);
  });

  it.each([
    ['no uniqueId', { image: null }],
    ['an empty uniqueId', { uniqueId: '' }],
    ['a uniqueId of 129 characters', { uniqueId: 'x'.repeat(129) }],
    ['a uniqueId with a control character', { uniqueId: 'bad\nid' }],
    ['a uniqueId that is not a string', { uniqueId: 42 }],
    ['a relative image URL', { uniqueId: 'u1', image: '/hero.png' }],
    ['an ftp image URL', { uniqueId: 'u2', image: 'ftp://example.com/x.png' }],
    ['an image URL over 2048 characters', { uniqueId: 'u3', image: `https://example.com/${'x'.repeat(2040)}` }],
    ['userData as an array', { uniqueId: 'u4', userData: [1, 2] }],
    ['userData as null', { uniqueId: 'u5', userData: null }],
    ['userData over 16 KiB', { uniqueId: 'u6', userData: { blob: 'x'.repeat(16 * 1024) } }],
    ['an unknown field', { uniqueId: 'u7', nickname: 'x' }],
    ['userData nested 33 levels deep', { uniqueId: 'u8', userData: JSON.parse(`${'{"a":'.repeat(33)}1${'}'.repeat(33)}`) as unknown }],
  ])('refuses %s with 400 VALIDATION_FAILED', async (_, body) => {
    const response = await create(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: expect.any(String), code: 'VALIDATION_FAILED' });
  });

  it('refuses userData holding arrays nested 5000 levels deep with 400 VALIDATION_FAILED (not a 500)', async () => {
    // Sent as text: JSON.stringify itself cannot nest that deep.
    const response = await fetch(`${platform.coreUrl}/v1/player/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': game.key },
      body: `{"uniqueId":"deep","userData":{"a":${'['.repeat(5000)}${']'.repeat(5000)}}}`,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: 'userData: must not nest objects and arrays more than 32 levels deep', code: 'VALIDATION_FAILED' });
  });

  it('accepts userData nested exactly 32 levels deep', async () => {
    const userData = JSON.parse(`${'{"a":'.repeat(32)}1${'}'.repeat(32)}`) as Record<string, unknown>;
    const response = await create({ uniqueId: 'deep-32', userData });
    expect([response.status, response.body.userData]).toEqual([201, userData]);
  });

  it('accepts a uniqueId of exactly 128 characters (emoji count as one)', async () => {
    expect((await create({ uniqueId: '🎮'.repeat(128) })).status).toBe(201);
  });

  it('refuses a profile JWT with 403 API_KEY_REQUIRED', async () => {
    const player = await createPlayer(platform, game.key, 'jwt-owner');
    const jwt = await profileJwt(platform, player.profileId, game.key);
    const response = await http<{ code: string }>('POST', `${platform.coreUrl}/v1/player/create`, { bearer: jwt, body: { uniqueId: 'by-jwt' } });
    expect([response.status, response.body.code]).toEqual([403, 'API_KEY_REQUIRED']);
  });

  it("reads a player back by id; another game's key gets 403, an unknown id 404", async () => {
    const player = await createPlayer(platform, game.key, 'readable');
    expect((await http<PlayerView>('GET', `${platform.coreUrl}/v1/player/${player.id}`, { apiKey: game.key })).body).toEqual(player);
    const forbidden = await http<{ code: string }>('GET', `${platform.coreUrl}/v1/player/${player.id}`, { apiKey: other.key });
    expect([forbidden.status, forbidden.body.code]).toEqual([403, 'FORBIDDEN']);
    const missing = await http<{ code: string }>('GET', `${platform.coreUrl}/v1/player/01900000-0000-7000-8000-000000000000`, { apiKey: game.key });
    expect([missing.status, missing.body.code]).toEqual([404, 'PLAYER_NOT_FOUND']);
  });

  it('lists the players in the console, searchable by uniqueId and paged, with their addresses', async () => {
    const token = await consoleToken(platform);
    const elsewhere = await create({ uniqueId: 'listed-only-in-the-other-game' }, other.key);
    expect(elsewhere.status).toBe(201);
    const page = await http<{ items: (PlayerView & { addresses: Record<string, string> })[]; nextCursor: string | null }>(
      'GET',
      `${platform.baseUrl}/v1/console/games/${game.gameId}/players?limit=3`,
      { bearer: token },
    );
    expect(page.body.items).toHaveLength(3);
    expect(page.body.nextCursor).toEqual(expect.any(String));
    expect(page.body.items[0].addresses).toEqual({ evm: expect.stringMatching(/^0x/), sol: expect.any(String), sui: expect.stringMatching(/^0x/) });
    const search = await http<{ items: PlayerView[] }>('GET', `${platform.baseUrl}/v1/console/games/${game.gameId}/players?uniqueId=hero-1`, { bearer: token });
    expect(search.body.items.map((player) => player.uniqueId)).toEqual(['hero-1']);
    const all = await http<{ items: PlayerView[] }>('GET', `${platform.baseUrl}/v1/console/games/${game.gameId}/players?limit=100`, { bearer: token });
    expect(all.body.items.map((player) => player.uniqueId)).not.toContain('listed-only-in-the-other-game');
    expect(all.body.items.map((player) => player.id)).not.toContain(elsewhere.body.id);
    expect(all.body.items.every((player) => player.applicationId === game.gameId)).toBe(true);
  });
});

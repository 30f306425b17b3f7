import { GameWalletError } from './errors';
import { ConsoleClient, GameWallet, ProfileClient } from './game-wallet';
import { fakeFetch } from './testing/fake-fetch';

const player = {
  id: 'p-1',
  applicationId: 'g-1',
  uniqueId: 'u-1',
  image: null,
  userData: {},
  profileId: 'pr-1',
  walletId: 'w-1',
  createdAt: '2026-11-21T10:00:00.000Z',
  updatedAt: '2026-11-21T10:00:00.000Z',
};
const unavailable = { status: 503, body: { message: 'down', code: 'SERVICE_UNAVAILABLE' }, headers: { 'retry-after': '0' } };
/** The platform's first answers before a retry may succeed, and one that must end the call. */
const retryableFailures = {
  429: { status: 429, body: { message: 'slow down', code: 'RATE_LIMITED' }, headers: { 'retry-after': '0' } },
  503: unavailable,
  504: { status: 504, body: { message: 'deadline', code: 'GATEWAY_TIMEOUT' } },
  409: { status: 409, body: { message: 'The first request with this key is still running', code: 'IDEMPOTENCY_IN_PROGRESS' }, headers: { 'retry-after': '0' } },
};
const keyReused = { status: 422, body: { message: 'This Idempotency-Key came with another request', code: 'IDEMPOTENCY_KEY_REUSED' } };

/**
 * The requests one call sent, when the platform first answers `failure` and then `answer`: two (one retry, with the
 * same Idempotency-Key) or one.
 */
async function attemptsOf<C>(make: (fetch: ReturnType<typeof fakeFetch>) => C, call: (client: C) => Promise<unknown>, failure: { status: number; body?: unknown }, answer: { status: number; body?: unknown }) {
  const fetch = fakeFetch(failure, answer);
  await call(make(fetch)).catch(() => undefined);
  const keys = new Set(fetch.requests.map((request) => request.init.headers['idempotency-key']));
  expect(keys.size).toBe(1);
  // a read carries no key; a write carries one
  expect([...keys][0] === undefined).toBe(fetch.requests[0].init.method === 'GET');
  return fetch.requests.length;
}

const server = (fetch: ReturnType<typeof fakeFetch>) =>
  new GameWallet({ baseUrl: 'https://api.test/', coreUrl: 'https://core.test/prefix', apiKey: 'gk_key', fetch, retryDelayMs: 1 });

describe(GameWallet.name, () => {
  it('creates a player on core_url with the API key, and says whether it is new (201) or found (200)', async () => {
    const fetch = fakeFetch({ status: 201, body: player }, { status: 200, body: player });
    const client = server(fetch);
    await expect(client.players.create({ uniqueId: 'u-1', userData: { level: 3 } })).resolves.toEqual({ player, created: true });
    await expect(client.players.create({ uniqueId: 'u-1', image: null })).resolves.toEqual({ player, created: false });
    expect(fetch.requests[0].url).toBe('https://core.test/prefix/v1/player/create');
    expect(fetch.requests[0].init).toMatchObject({ method: 'POST', body: '{"uniqueId":"u-1","userData":{"level":3}}' });
    expect(fetch.requests[0].init.headers).toMatchObject({ 'x-api-key': 'gk_key', 'content-type': 'application/json' });
    expect(fetch.requests[1].init.body).toBe('{"uniqueId":"u-1","image":null}');
  });

  it('reads a player, with the id as one path segment', async () => {
    const fetch = fakeFetch({ status: 200, body: player });
    await expect(server(fetch).players.get('p/1?x')).resolves.toEqual(player);
    expect(fetch.requests[0]).toMatchObject({ url: 'https://core.test/prefix/v1/player/p%2F1%3Fx', init: { method: 'GET' } });
  });

  it('authenticates a profile with or without a duration, and revokes its tokens', async () => {
    const token = { jwt: 'a.b.c', expiresAt: '2026-11-21T11:00:00.000Z' };
    const fetch = fakeFetch({ status: 200, body: token }, { status: 200, body: token }, { status: 204 });
    const client = server(fetch);
    await expect(client.profiles.authenticate('pr-1', { duration: 900 })).resolves.toEqual(token);
    await expect(client.profiles.authenticate('pr-1')).resolves.toEqual(token);
    await expect(client.profiles.revoke('pr-1')).resolves.toBeUndefined();
    expect(fetch.requests.map((request) => [request.init.method, request.url, request.init.body])).toEqual([
      ['POST', 'https://api.test/v1/profile/pr-1/authenticate', '{"duration":900}'],
      ['POST', 'https://api.test/v1/profile/pr-1/authenticate', '{}'],
      ['POST', 'https://api.test/v1/profile/pr-1/revoke', undefined],
    ]);
  });

  it('reads a wallet with include and chain as query parameters', async () => {
    const fetch = fakeFetch({ status: 200, body: { id: 'w-1' } });
    const client = server(fetch);
    await client.wallets.get('w-1');
    await client.wallets.get('w-1', { include: 'profile', chain: 'sui' });
    expect(fetch.requests.map((request) => request.url)).toEqual(['https://api.test/v1/wallet/w-1', 'https://api.test/v1/wallet/w-1?include=profile&chain=sui']);
  });

  it('signs a string in its encoding, and bytes as base64', async () => {
    const signature = { chain: 'evm', address: '0xabc', signature: '0x00' };
    const fetch = fakeFetch({ status: 200, body: signature });
    const client = server(fetch);
    await expect(client.wallets.sign('w-1', { chain: 'evm', message: 'hello' })).resolves.toEqual(signature);
    await client.wallets.sign('w-1', { chain: 'sol', message: 'deadbeef', encoding: 'hex' });
    await client.wallets.sign('w-1', { chain: 'sui', message: new Uint8Array([0xde, 0xad, 0xbe, 0xef]) });
    expect(fetch.requests.map((request) => [request.url, request.init.body])).toEqual([
      ['https://api.test/v1/wallet/w-1/sign', '{"chain":"evm","message":"hello"}'],
      ['https://api.test/v1/wallet/w-1/sign', '{"chain":"sol","message":"deadbeef","encoding":"hex"}'],
      ['https://api.test/v1/wallet/w-1/sign', '{"chain":"sui","message":"3q2+7w==","encoding":"base64"}'],
    ]);
  });

  it('sends an EVM transaction and EIP-712 typed data to their routes as they are', async () => {
    const fetch = fakeFetch({ status: 200, body: {} });
    const client = server(fetch);
    const transaction = { chainId: '1', to: null, data: '0x60' };
    const typedData = { domain: { name: 'Game' }, types: { Claim: [{ name: 'item', type: 'string' }] }, primaryType: 'Claim', message: { item: 'sword' } };
    await client.wallets.signTransaction('w-1', { chain: 'evm', transaction });
    await client.wallets.signTypedData('w-1', typedData);
    expect(fetch.requests.map((request) => [request.url, request.init.body])).toEqual([
      ['https://api.test/v1/wallet/w-1/sign-transaction', JSON.stringify({ chain: 'evm', transaction })],
      ['https://api.test/v1/wallet/w-1/sign-typed-data', JSON.stringify(typedData)],
    ]);
  });

  it('retries the reads after a 503', async () => {
    const ok = { status: 200, body: player };
    expect(await attemptsOf(server, (client) => client.players.get('p'), unavailable, ok)).toBe(2);
    expect(await attemptsOf(server, (client) => client.wallets.get('w'), unavailable, ok)).toBe(2);
    expect(await attemptsOf(server, (client) => client.jwks(), unavailable, { status: 200, body: { keys: [] } })).toBe(2);
  });

  describe.each(Object.entries(retryableFailures))('after %s', (_, failure) => {
    it.each([
      ['players.create', (client: GameWallet) => client.players.create({ uniqueId: 'u' })],
      ['profiles.authenticate', (client: GameWallet) => client.profiles.authenticate('p')],
      ['profiles.revoke', (client: GameWallet) => client.profiles.revoke('p')],
      ['wallets.sign', (client: GameWallet) => client.wallets.sign('w', { chain: 'evm', message: 'm' })],
      ['wallets.signTransaction', (client: GameWallet) => client.wallets.signTransaction('w', { chain: 'evm', transaction: { chainId: '1' } })],
      ['wallets.signTypedData', (client: GameWallet) => client.wallets.signTypedData('w', { domain: {}, types: {}, primaryType: 'A', message: {} })],
    ])('retries %s with the same Idempotency-Key', async (_name, call) => {
      expect(await attemptsOf(server, call, failure, { status: 200, body: player })).toBe(2);
    });
  });

  it('does not retry a write answered 422 IDEMPOTENCY_KEY_REUSED', async () => {
    expect(await attemptsOf(server, (client) => client.wallets.sign('w', { chain: 'evm', message: 'm' }), keyReused, { status: 200, body: {} })).toBe(1);
    expect(await attemptsOf(server, (client) => client.profiles.authenticate('p'), keyReused, { status: 200, body: {} })).toBe(1);
    const fetch = fakeFetch(keyReused);
    await expect(server(fetch).players.create({ uniqueId: 'u' }, { idempotencyKey: 'used-before' })).rejects.toMatchObject({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it('says created: true for the call that made the player, also when a retry gets the kept answer (201, Idempotent-Replayed)', async () => {
    const fetch = fakeFetch(unavailable, { status: 201, body: player, headers: { 'idempotent-replayed': 'true' } });
    await expect(server(fetch).players.create({ uniqueId: 'u-1' })).resolves.toEqual({ player, created: true });
    expect(fetch.requests).toHaveLength(2);
  });

  it('reads health (the report also when it is 503) and the JWKS without a credential being needed', async () => {
    const down = { status: 'error', info: {}, error: { redis: { status: 'down', message: 'timeout' } }, details: { redis: { status: 'down', message: 'timeout' } } };
    const fetch = fakeFetch({ status: 503, body: down }, { status: 200, body: { status: 'ok', details: {} } }, { status: 200, body: { keys: [] } });
    const client = server(fetch);
    await expect(client.health()).resolves.toEqual(down);
    await expect(client.health({ scope: 'services' })).resolves.toEqual({ status: 'ok', details: {} });
    await expect(client.jwks()).resolves.toEqual({ keys: [] });
    expect(fetch.requests.map((request) => request.url)).toEqual([
      'https://api.test/v1/health',
      'https://api.test/v1/health/services',
      'https://api.test/v1/.well-known/jwks.json',
    ]);
  });

  it('throws a 503 error body from health, after its retries', async () => {
    const fetch = fakeFetch(unavailable);
    await expect(server(fetch).health()).rejects.toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(fetch.requests).toHaveLength(3);
  });

  it("gives a POLICY_DENIED error the policy's details: the rule, why, the observed value", async () => {
    const details = { ruleId: 'small-payments', reason: 'rule small-payments rejects this', observed: 'value 11 wei' };
    const fetch = fakeFetch(
      { status: 403, body: { message: "The game's signing policy refuses this", code: 'POLICY_DENIED', details } },
      { status: 403, body: { message: 'No rule accepted this', code: 'POLICY_DENIED', details: { ruleId: null, reason: 'no rule accepts messages on evm from an API key' } } },
      { status: 403, body: { message: 'Another game', code: 'FORBIDDEN' } },
      { status: 403, body: { message: 'Malformed', code: 'POLICY_DENIED', details: { ruleId: 1 } } },
    );
    const client = server(fetch);
    const sign = () =>
      client.wallets.signTransaction('w-1', { chain: 'evm', transaction: { chainId: '1' } }).then(
        () => Promise.reject(new Error('signed')),
        (reason: unknown) => reason as GameWalletError,
      );
    expect(await sign()).toMatchObject({ status: 403, code: 'POLICY_DENIED', details });
    expect((await sign()).details).toEqual({ ruleId: null, reason: 'no rule accepts messages on evm from an API key' });
    expect((await sign()).details).toBeUndefined();
    expect((await sign()).details).toBeUndefined();
  });

  it('throws the platform error as a GameWalletError', async () => {
    const fetch = fakeFetch({ status: 404, body: { message: 'No player with this id', code: 'PLAYER_NOT_FOUND' }, headers: { 'x-request-id': 'r-1' } });
    const error = await server(fetch).players.get('p').catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(GameWalletError);
    expect(error).toMatchObject({ status: 404, code: 'PLAYER_NOT_FOUND', message: 'No player with this id', requestId: 'r-1' });
  });

  it.each([
    [{ baseUrl: 'api.test', coreUrl: 'https://core.test', apiKey: 'k' }, 'baseUrl must be an absolute URL'],
    [{ baseUrl: 'ftp://api.test', coreUrl: 'https://core.test', apiKey: 'k' }, 'baseUrl must be an http or https URL'],
    [{ baseUrl: 'https://api.test', coreUrl: '', apiKey: 'k' }, 'coreUrl must be an absolute URL'],
    [{ baseUrl: 'https://api.test', coreUrl: 'https://core.test', apiKey: '' }, 'apiKey is required'],
  ])('refuses the options %p', (options, message) => {
    expect(() => new GameWallet(options)).toThrow(message);
  });
});

describe(ProfileClient.name, () => {
  it('sends the profile JWT as a bearer token, asking a function for the current one before each call', async () => {
    const fetch = fakeFetch({ status: 200, body: {} });
    const tokens = ['first', 'second'];
    const client = GameWallet.forProfile({ baseUrl: 'https://api.test', jwt: async () => tokens.shift()!, fetch });
    await client.wallets.get('w-1');
    await client.wallets.sign('w-1', { chain: 'sol', message: 'm' });
    await GameWallet.forProfile({ baseUrl: 'https://api.test', jwt: 'fixed', fetch }).profiles.authenticate('pr-1', { duration: 60 });
    expect(fetch.requests.map((request) => request.init.headers.authorization)).toEqual(['Bearer first', 'Bearer second', 'Bearer fixed']);
    expect(fetch.requests.every((request) => !('x-api-key' in request.init.headers))).toBe(true);
  });

  it('offers only what a profile JWT may do: refresh its token, read its wallet, sign', () => {
    const client = GameWallet.forProfile({ baseUrl: 'https://api.test', jwt: 'a.b.c', fetch: fakeFetch() });
    expect(Object.keys(client.profiles)).toEqual(['authenticate']);
    expect(client).not.toHaveProperty('players');
    expect(typeof client.wallets.get).toBe('function');
    expect(typeof client.wallets.sign).toBe('function');
  });

  it('requires a JWT', () => {
    expect(() => GameWallet.forProfile({ baseUrl: 'https://api.test', jwt: '' })).toThrow('jwt is required');
  });
});

describe(ConsoleClient.name, () => {
  const policy = { version: 3, rules: [{ id: 'keys', action: 'accept', operation: 'message', criteria: [] }], updatedAt: '2026-11-21T10:00:00.000Z', updatedBy: 'operator:o-1' };
  const consoleClient = (fetch: ReturnType<typeof fakeFetch>) => GameWallet.forConsole({ baseUrl: 'https://api.test/', token: 'console-token', fetch, retryDelayMs: 1 });
  const rules = { rules: policy.rules as never[] };

  it("calls every signing-policy route of a game with the console token, If-Match from a version", async () => {
    const fetch = fakeFetch({ status: 200, body: policy });
    const client = consoleClient(fetch);
    const evaluation = { operation: 'message', chain: 'evm', credential: { kind: 'apiKey' }, payload: 'aGk=' } as const;
    await expect(client.signingPolicy.get('g/1')).resolves.toEqual(policy);
    await client.signingPolicy.put('g-1', rules, { ifMatch: 3 });
    await client.signingPolicy.put('g-1', rules);
    await client.signingPolicy.versions('g-1', { limit: 2, cursor: 'Mw' });
    await client.signingPolicy.versions('g-1');
    await client.signingPolicy.evaluate('g-1', evaluation);
    await client.signingPolicy.draft.get('g-1');
    await client.signingPolicy.draft.put('g-1', rules);
    await client.signingPolicy.draft.differences('g-1', { limit: 10 });
    await client.signingPolicy.draft.replay('g-1', { since: new Date('2026-11-01T00:00:00Z') });
    await client.signingPolicy.draft.replay('g-1');
    await client.signingPolicy.draft.activate('g-1', { ifMatch: 0 });
    await client.signingPolicy.draft.activate('g-1');
    const root = 'https://api.test/v1/console/games';
    expect(fetch.requests.map(({ url, init }) => [init.method, url, init.body, init.headers['if-match']])).toEqual([
      ['GET', `${root}/g%2F1/signing-policy`, undefined, undefined],
      ['PUT', `${root}/g-1/signing-policy`, JSON.stringify(rules), '"3"'],
      ['PUT', `${root}/g-1/signing-policy`, JSON.stringify(rules), undefined],
      ['GET', `${root}/g-1/signing-policy/versions?limit=2&cursor=Mw`, undefined, undefined],
      ['GET', `${root}/g-1/signing-policy/versions`, undefined, undefined],
      ['POST', `${root}/g-1/signing-policy/evaluate`, JSON.stringify(evaluation), undefined],
      ['GET', `${root}/g-1/signing-policy/draft`, undefined, undefined],
      ['PUT', `${root}/g-1/signing-policy/draft`, JSON.stringify(rules), undefined],
      ['GET', `${root}/g-1/signing-policy/draft/differences?limit=10`, undefined, undefined],
      ['POST', `${root}/g-1/signing-policy/draft/replay`, '{"since":"2026-11-01T00:00:00.000Z"}', undefined],
      ['POST', `${root}/g-1/signing-policy/draft/replay`, '{}', undefined],
      ['POST', `${root}/g-1/signing-policy/draft/activate`, undefined, '"0"'],
      ['POST', `${root}/g-1/signing-policy/draft/activate`, undefined, undefined],
    ]);
    expect(fetch.requests.every(({ init }) => init.headers.authorization === 'Bearer console-token' && !('x-api-key' in init.headers))).toBe(true);
  });

  it("calls every webhook route of a game with the console token", async () => {
    const fetch = fakeFetch({ status: 200, body: { items: [] } });
    const client = consoleClient(fetch);
    await client.webhooks.list('g-1');
    await client.webhooks.create('g-1', { url: 'https://hooks.example.com/game', eventTypes: ['*'] });
    await client.webhooks.update('g-1', 'e/1', { enabled: false });
    await client.webhooks.rotateSecret('g-1', 'e-1', { overlapSeconds: 60 });
    await client.webhooks.sendTest('g-1', 'e-1');
    await client.webhooks.deliveries('g-1', 'e-1', { limit: 5, status: 'failed' });
    await client.webhooks.redeliver('g-1', 'e-1', 'd-1');
    await client.webhooks.redeliverFailed('g-1', 'e-1', new Date('2026-11-01T00:00:00Z'));
    const root = 'https://api.test/v1/console/games/g-1/webhooks';
    expect(fetch.requests.map(({ url, init }) => [init.method, url, init.body])).toEqual([
      ['GET', root, undefined],
      ['POST', root, '{"url":"https://hooks.example.com/game","eventTypes":["*"]}'],
      ['PATCH', `${root}/e%2F1`, '{"enabled":false}'],
      ['POST', `${root}/e-1/rotate-secret`, '{"overlapSeconds":60}'],
      ['POST', `${root}/e-1/test`, undefined],
      ['GET', `${root}/e-1/deliveries?limit=5&status=failed`, undefined],
      ['POST', `${root}/e-1/deliveries/d-1/redeliver`, undefined],
      ['POST', `${root}/e-1/redeliver`, '{"since":"2026-11-01T00:00:00.000Z"}'],
    ]);
    expect(fetch.requests.every(({ init }) => init.headers.authorization === 'Bearer console-token')).toBe(true);
  });

  it("sends a game's API-key calls to …/api-keys: list, create, update (active, signedRequests), delete, signing keys", async () => {
    const fetch = fakeFetch({ status: 200, body: {} });
    const client = consoleClient(fetch);
    await client.apiKeys.list('g-1');
    await client.apiKeys.create('g-1', { name: 'server' });
    await client.apiKeys.update('g-1', 'k-1', { signedRequests: 'signing' });
    await client.apiKeys.delete('g-1', 'k-1', { revokeTokens: true });
    await client.apiKeys.addSigningKey('g-1', 'k-1', { name: 'build', publicKey: { kty: 'OKP', crv: 'Ed25519', x: 'x' } });
    await client.apiKeys.removeSigningKey('g-1', 'k-1', 'thumb/print');
    const root = 'https://api.test/v1/console/games/g-1/api-keys';
    expect(fetch.requests.map(({ url, init }) => [init.method, url, init.body])).toEqual([
      ['GET', root, undefined],
      ['POST', root, '{"name":"server"}'],
      ['PATCH', `${root}/k-1`, '{"signedRequests":"signing"}'],
      ['DELETE', `${root}/k-1?revokeTokens=true`, undefined],
      ['POST', `${root}/k-1/signing-keys`, '{"name":"build","publicKey":{"kty":"OKP","crv":"Ed25519","x":"x"}}'],
      ['DELETE', `${root}/k-1/signing-keys/thumb%2Fprint`, undefined],
    ]);
    expect(fetch.requests.filter(({ init }) => init.method !== 'GET').every(({ init }) => /^"[0-9a-f-]{36}"$/.test(init.headers['idempotency-key']))).toBe(true);
  });

  it('deletes the draft (204)', async () => {
    const fetch = fakeFetch({ status: 204 });
    await expect(consoleClient(fetch).signingPolicy.draft.delete('g-1')).resolves.toBeUndefined();
    expect(fetch.requests[0]).toMatchObject({ url: 'https://api.test/v1/console/games/g-1/signing-policy/draft', init: { method: 'DELETE' } });
  });

  it('retries the reads after a 503', async () => {
    const ok = { status: 200, body: policy };
    expect(await attemptsOf(consoleClient, (client) => client.signingPolicy.get('g'), unavailable, ok)).toBe(2);
    expect(await attemptsOf(consoleClient, (client) => client.signingPolicy.versions('g'), unavailable, ok)).toBe(2);
    expect(await attemptsOf(consoleClient, (client) => client.signingPolicy.draft.get('g'), unavailable, ok)).toBe(2);
    expect(await attemptsOf(consoleClient, (client) => client.signingPolicy.draft.differences('g'), unavailable, ok)).toBe(2);
  });

  // Every write of the console client, each of which carries an Idempotency-Key.
  const consoleWrites: [string, (client: ConsoleClient) => Promise<unknown>][] = [
    ['signingPolicy.put', (client) => client.signingPolicy.put('g', rules, { ifMatch: 1 })],
    ['signingPolicy.evaluate', (client) => client.signingPolicy.evaluate('g', { operation: 'message', chain: 'evm', credential: { kind: 'profile' }, payload: '' })],
    ['signingPolicy.draft.put', (client) => client.signingPolicy.draft.put('g', rules)],
    ['signingPolicy.draft.delete', (client) => client.signingPolicy.draft.delete('g')],
    ['signingPolicy.draft.replay', (client) => client.signingPolicy.draft.replay('g')],
    ['signingPolicy.draft.activate', (client) => client.signingPolicy.draft.activate('g')],
    ['session.stepUp', (client) => client.session.stepUp({ totp: '123456' })],
    ['session.stepUpOptions', (client) => client.session.stepUpOptions()],
    ['account.update', (client) => client.account.update({ displayName: 'Ada' })],
    ['account.changePassword', (client) => client.account.changePassword({ currentPassword: 'a', newPassword: 'b' })],
    ['account.endSessions', (client) => client.account.endSessions('s-1')],
    ['account.startTotp', (client) => client.account.startTotp()],
    ['account.confirmTotp', (client) => client.account.confirmTotp('123456')],
    ['account.removeTotp', (client) => client.account.removeTotp()],
    ['account.renewRecoveryCodes', (client) => client.account.renewRecoveryCodes()],
    ['account.passkeyOptions', (client) => client.account.passkeyOptions()],
    ['account.registerPasskey', (client) => client.account.registerPasskey({ name: 'key', response: {} })],
    ['account.removePasskey', (client) => client.account.removePasskey('k-1')],
    ['team.updateOperator', (client) => client.team.updateOperator('o-1', { status: 'suspended' })],
    ['team.removeOperator', (client) => client.team.removeOperator('o-1')],
    ['team.endOperatorSessions', (client) => client.team.endOperatorSessions('o-1', 's-1')],
    ['team.createInvitation', (client) => client.team.createInvitation({ email: 'a@example.com', grants: [] })],
    ['team.revokeInvitation', (client) => client.team.revokeInvitation('i-1')],
    ['team.previewInvitation', (client) => client.team.previewInvitation('t')],
    ['team.acceptInvitation', (client) => client.team.acceptInvitation({ token: 't', password: 'p', displayName: 'Ada' })],
    ['team.putSettings', (client) => client.team.putSettings({ requireTwoFactor: true })],
    ['webhooks.create', (client) => client.webhooks.create('g', { url: 'https://hooks.example.com', eventTypes: ['*'] })],
    ['webhooks.update', (client) => client.webhooks.update('g', 'e-1', { enabled: false })],
    ['webhooks.delete', (client) => client.webhooks.delete('g', 'e-1')],
    ['webhooks.rotateSecret', (client) => client.webhooks.rotateSecret('g', 'e-1')],
    ['webhooks.sendTest', (client) => client.webhooks.sendTest('g', 'e-1')],
    ['webhooks.redeliver', (client) => client.webhooks.redeliver('g', 'e-1', 'd-1')],
    ['webhooks.redeliverFailed', (client) => client.webhooks.redeliverFailed('g', 'e-1', '2026-11-01T00:00:00Z')],
  ];

  describe.each(Object.entries(retryableFailures))('after %s', (_, failure) => {
    it.each(consoleWrites)('retries %s with the same Idempotency-Key', async (_name, call) => {
      expect(await attemptsOf(consoleClient, call, failure, { status: 200, body: policy })).toBe(2);
    });
  });

  it.each(consoleWrites)('does not retry %s answered 422 IDEMPOTENCY_KEY_REUSED', async (_name, call) => {
    expect(await attemptsOf(consoleClient, call, keyReused, { status: 200, body: policy })).toBe(1);
  });

  it('throws 412 PRECONDITION_FAILED as a GameWalletError, and refuses an ifMatch that is no version before sending', async () => {
    const fetch = fakeFetch({ status: 412, body: { message: 'The signing policy is at version 4, not 3', code: 'PRECONDITION_FAILED' } });
    const client = consoleClient(fetch);
    await expect(client.signingPolicy.put('g', rules, { ifMatch: 3 })).rejects.toMatchObject({ status: 412, code: 'PRECONDITION_FAILED' });
    await expect(client.signingPolicy.draft.activate('g', { ifMatch: -1 })).rejects.toThrow('ifMatch must be a version: a whole number, 0 or more');
    await expect(client.signingPolicy.put('g', rules, { ifMatch: 1.5 })).rejects.toThrow(TypeError);
    expect(fetch.requests).toHaveLength(1);
  });

  it('requires a token', () => {
    expect(() => GameWallet.forConsole({ baseUrl: 'https://api.test', token: '' })).toThrow('token is required');
    expect(() => GameWallet.forConsole({ baseUrl: 'api.test', token: 't' })).toThrow('baseUrl must be an absolute URL');
  });
});

import { randomUUID } from 'node:crypto';
import { GameFixture, TestPlatform, claimsOf, consoleToken, createGame, createPlayer, http, queryOnce, stepUp } from '@game-wallet/testing';

const idem = (key: string) => ({ 'idempotency-key': `"${key}"` });

/** `Idempotency-Key` on the writes of the public and console APIs (IETF httpapi draft), kept in the gateway's schema. */
describe('Idempotency-Key', () => {
  let platform: TestPlatform;
  let second: { baseUrl: string; coreUrl: string };
  let token: string;
  let game: GameFixture;

  beforeAll(async () => {
    platform = await TestPlatform.start('idempotency', { env: { SERVICE_DEADLINE_MS: '1500' } });
    second = await platform.startSecondGateway();
    token = await consoleToken(platform);
    await stepUp(platform, token);
    game = await createGame(platform, token, 'Idempotent game');
  });

  afterAll(async () => {
    await platform.stop();
  });

  const games = async () => (await http<{ items: { id: string; name: string }[] }>('GET', `${platform.baseUrl}/v1/console/games?limit=100`, { bearer: token })).body.items;

  it('replays the kept answer to the same key and body, with Idempotent-Replayed: true, and runs the write once', async () => {
    const key = randomUUID();
    const first = await http<{ id: string; name: string }>('POST', `${platform.baseUrl}/v1/console/games`, { bearer: token, body: { name: 'Once' }, headers: idem(key) });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await http<{ id: string }>('POST', `${second.baseUrl}/v1/console/games`, { bearer: token, body: { name: 'Once' }, headers: idem(key) });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toMatch(/^application\/json/);
    expect(again.body).toEqual(first.body);
    expect((await games()).filter((item) => item.name === 'Once')).toHaveLength(1);
  });

  it('takes the bare form of a key as the same key as its quoted form', async () => {
    const key = randomUUID();
    const first = await http<{ id: string }>('POST', `${platform.baseUrl}/v1/console/games`, { bearer: token, body: { name: 'Bare' }, headers: { 'idempotency-key': key } });
    const again = await http<{ id: string }>('POST', `${platform.baseUrl}/v1/console/games`, { bearer: token, body: { name: 'Bare' }, headers: idem(key) });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
  });

  it('refuses the same key with another body: 422 IDEMPOTENCY_KEY_REUSED, and nothing runs', async () => {
    const key = randomUUID();
    await http('POST', `${platform.baseUrl}/v1/console/games`, { bearer: token, body: { name: 'First body' }, headers: idem(key) });
    const other = await http('POST', `${platform.baseUrl}/v1/console/games`, { bearer: token, body: { name: 'Second body' }, headers: idem(key) });
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ message: expect.any(String), code: 'IDEMPOTENCY_KEY_REUSED' });
    expect((await games()).some((item) => item.name === 'Second body')).toBe(false);
  });

  it('keeps a key per credential and per route: another operator token or another route runs afresh', async () => {
    const key = randomUUID();
    const player = await createPlayer(platform, game.key);
    const signed = await http<{ signature: string }>('POST', `${platform.baseUrl}/v1/wallet/${player.walletId}/sign`, { apiKey: game.key, body: { chain: 'evm', message: 'a' }, headers: idem(key) });
    expect(signed.status).toBe(200);
    const created = await http('POST', `${platform.baseUrl}/v1/console/games`, { bearer: token, body: { name: 'Other route' }, headers: idem(key) });
    expect(created.status).toBe(201);
    expect(created.headers.get('idempotent-replayed')).toBeNull();
  });

  it('answers 409 IDEMPOTENCY_IN_PROGRESS with Retry-After while the first request runs, and keeps no 5xx: the key runs again after a 504', async () => {
    const player = await createPlayer(platform, game.key);
    const key = randomUUID();
    const wallet = platform.process('wallet');
    const body = { chain: 'sol', message: 'while paused' };
    wallet.child.kill('SIGSTOP');
    let first: Promise<Awaited<ReturnType<typeof http>>>;
    try {
      first = http('POST', `${platform.baseUrl}/v1/wallet/${player.walletId}/sign`, { apiKey: game.key, body, headers: idem(key) });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const during = await http('POST', `${second.baseUrl}/v1/wallet/${player.walletId}/sign`, { apiKey: game.key, body, headers: idem(key) });
      expect(during.status).toBe(409);
      expect(during.body).toEqual({ message: expect.any(String), code: 'IDEMPOTENCY_IN_PROGRESS' });
      expect(Number(during.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await first).status).toBe(504);
    } finally {
      wallet.child.kill('SIGCONT');
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    const retried = await http<{ signature: string }>('POST', `${platform.baseUrl}/v1/wallet/${player.walletId}/sign`, { apiKey: game.key, body, headers: idem(key) });
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    const replayed = await http<{ signature: string }>('POST', `${platform.baseUrl}/v1/wallet/${player.walletId}/sign`, { apiKey: game.key, body, headers: idem(key) });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(retried.body);
  });

  it('keeps no 401: a create refused for a stale second factor runs with the same key once the operator steps up', async () => {
    const session = await consoleToken(platform);
    await queryOnce(platform.databaseUrl, `UPDATE identity.console_sessions SET second_factor_at = now() - interval '10 minutes' WHERE id = $1`, [String(claimsOf(session).jti)]);
    const key = randomUUID();
    const send = () => http<{ code?: string; key?: string }>('POST', `${platform.baseUrl}/v1/console/games/${game.gameId}/api-keys`, { bearer: session, body: { name: 'after step-up' }, headers: idem(key) });
    const refused = await send();
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('STEP_UP_REQUIRED');
    await stepUp(platform, session);
    const created = await send();
    expect(created.status).toBe(201);
    expect(created.headers.get('idempotent-replayed')).toBeNull();
    expect((await send()).body.key).toBe(created.body.key);
  });

  it('runs one of 20 parallel requests with one key across two gateways: one API key is created, every answer the same', async () => {
    const key = randomUUID();
    const before = await http<{ items: unknown[] }>('GET', `${platform.baseUrl}/v1/console/games/${game.gameId}/api-keys`, { bearer: token });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        http<{ id?: string; key?: string; code?: string }>('POST', `${index % 2 === 0 ? platform.baseUrl : second.baseUrl}/v1/console/games/${game.gameId}/api-keys`, {
          bearer: token,
          body: { name: 'raced' },
          headers: idem(key),
        }),
      ),
    );
    const created = answers.filter((answer) => answer.status === 201);
    const running = answers.filter((answer) => answer.status === 409);
    expect(created.length + running.length).toBe(20);
    expect(running.every((answer) => answer.body.code === 'IDEMPOTENCY_IN_PROGRESS')).toBe(true);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((answer) => answer.body.key)).size).toBe(1);
    expect(created.filter((answer) => answer.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    const after = await http<{ items: unknown[] }>('GET', `${platform.baseUrl}/v1/console/games/${game.gameId}/api-keys`, { bearer: token });
    expect(after.body.items.length).toBe(before.body.items.length + 1);
    // The retries of those that were told to wait get the kept answer.
    const late = await http<{ key: string }>('POST', `${second.baseUrl}/v1/console/games/${game.gameId}/api-keys`, { bearer: token, body: { name: 'raced' }, headers: idem(key) });
    expect(late.headers.get('idempotent-replayed')).toBe('true');
    expect(late.body.key).toBe(created[0].body.key);
  });

  it.each([
    ['empty', '""'],
    ['longer than 255 characters', 'k'.repeat(256)],
    ['an unterminated quoted string', '"abc'],
  ])('refuses a key that is %s with 400 VALIDATION_FAILED before anything runs', async (_what, value) => {
    const response = await http('POST', `${platform.baseUrl}/v1/console/games`, { bearer: token, body: { name: 'Malformed key' }, headers: { 'idempotency-key': value } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: expect.stringContaining('Idempotency-Key'), code: 'VALIDATION_FAILED' });
    expect((await games()).some((item) => item.name === 'Malformed key')).toBe(false);
  });

  it('keeps no secret in the clear: the kept answer of an API key creation is sealed and the key itself not stored', async () => {
    const key = randomUUID();
    const created = await http<{ key: string }>('POST', `${platform.baseUrl}/v1/console/games/${game.gameId}/api-keys`, { bearer: token, body: { name: 'sealed' }, headers: idem(key) });
    expect(created.status).toBe(201);
    const rows = await queryOnce<{ row: string }>(platform.databaseUrl, `SELECT t::text AS row FROM gateway.idempotency_keys t`);
    const dump = rows.map((row) => row.row).join('\n');
    expect(dump).not.toContain(created.body.key);
    expect(dump).not.toContain(Buffer.from(created.body.key).toString('hex'));
    expect(dump).not.toContain(key);
  });
});

describe('Idempotency-Key expiry', () => {
  let platform: TestPlatform;
  let token: string;

  beforeAll(async () => {
    platform = await TestPlatform.start('idempotency-ttl', { env: { IDEMPOTENCY_TTL_SECONDS: '2' } });
    token = await consoleToken(platform);
  });

  afterAll(async () => {
    await platform.stop();
  });

  it('forgets a kept answer after IDEMPOTENCY_TTL_SECONDS: the same key then runs afresh', async () => {
    const key = randomUUID();
    const first = await http<{ id: string }>('POST', `${platform.baseUrl}/v1/console/games`, { bearer: token, body: { name: 'Expiring' }, headers: idem(key) });
    expect(first.status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const later = await http<{ id: string }>('POST', `${platform.baseUrl}/v1/console/games`, { bearer: token, body: { name: 'Expiring' }, headers: idem(key) });
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(later.body.id).not.toBe(first.body.id);
  });
});

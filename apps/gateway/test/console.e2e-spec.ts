import { ApiKeyView, AuditEntryView, ConsoleSessionInfo, GameSummaryView, GameView, consolePasswordDigest } from '@game-wallet/contracts';
import { TEST_OPERATOR, TestPlatform, consoleToken, http, queryOnce, waitFor } from '@game-wallet/testing';
import { randomBytes, scryptSync } from 'node:crypto';
import Redis from 'ioredis';

type Game = GameView;
type ApiKey = ApiKeyView & { key?: string };
type AuditEntry = AuditEntryView;

/** The console JSON API (SPEC §5), sign-in lockout, and the secrets it handles never reaching a log. */
describe('console API', () => {
  let platform: TestPlatform;
  let token: string;
  const secrets: string[] = [TEST_OPERATOR.password];
  const signIn = (email: string, password: string, ip = '203.0.113.1') =>
    http<{ token: string; expiresAt: string; code?: string }>('POST', `${platform.baseUrl}/v1/console/session`, {
      body: { email, password },
      headers: { 'x-forwarded-for': ip },
    });
  /** The operator's requests come through a trusted proxy (loopback here) that saw this client address. */
  const OPERATOR_ADDRESS = '198.51.100.23';
  const api = <T>(method: string, path: string, body?: unknown) =>
    http<T & { code?: string }>(method, `${platform.baseUrl}/v1/console${path}`, { bearer: token, body, headers: { 'x-forwarded-for': OPERATOR_ADDRESS } });

  /** A session of its own for the log scan: the lockout tests lock the operator's e-mail for a minute. */
  let scanToken: string;

  beforeAll(async () => {
    platform = await TestPlatform.start('console', { env: { TRUST_PROXY: 'loopback', LOG_LEVEL: 'trace' } });
    scanToken = await consoleToken(platform);
  });

  afterAll(async () => {
    await platform.stop();
  });

  describe('sign-in', () => {
    it('never sends the password, nor a fast hash of it, through Redis (it crosses sealed to identity)', async () => {
      // No ready check: its INFO, echoed back by MONITOR, would be taken for the answer to a queued command.
      const client = new Redis(platform.env.REDIS_URL, { enableReadyCheck: false });
      const monitor = await client.monitor();
      const seen: string[] = [];
      monitor.on('monitor', (_time: string, args: string[]) => seen.push(args.join(' ')));
      await signIn(TEST_OPERATOR.email, TEST_OPERATOR.password, '203.0.113.40');
      await signIn(TEST_OPERATOR.email, 'a-wrong-password', '203.0.113.40');
      await waitFor(() => seen.filter((command) => command.includes('identity.console.signIn')).length >= 2, 5000, 'both sign-ins on the wire');
      monitor.disconnect();
      client.disconnect();
      expect(seen.some((command) => command.includes('identity.console.signIn'))).toBe(true);
      const wire = seen.join('\n');
      for (const password of [TEST_OPERATOR.password, 'a-wrong-password']) {
        expect(wire).not.toContain(password);
        expect(wire).not.toContain(consolePasswordDigest(TEST_OPERATOR.email, password));
      }
      expect(wire).toMatch(/"sealedPassword":"x25519-v1\./);
    });

    it('answers 200 {token, expiresAt} and sets an HttpOnly, SameSite=Strict session cookie that works alone', async () => {
      const response = await fetch(`${platform.baseUrl}/v1/console/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(TEST_OPERATOR),
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { token: string; expiresAt: string };
      expect(Object.keys(body).sort()).toEqual(['expiresAt', 'token']);
      token = body.token;
      secrets.push(token);
      const cookie = response.headers.get('set-cookie') ?? '';
      expect(cookie).toMatch(/^console_session=[^;]+;/);
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Strict/i);
      expect(cookie).not.toMatch(/Secure/i); // plain http here; Secure on https
      const withCookie = await fetch(`${platform.baseUrl}/v1/console/games`, { headers: { cookie: cookie.split(';')[0] } });
      expect(withCookie.status).toBe(200);
    });

    it('names the signed-in operator and when the session ends (GET /v1/console/session)', async () => {
      const session = await api<ConsoleSessionInfo>('GET', '/session');
      expect(session.status).toBe(200);
      expect(session.body).toEqual({
        operator: { id: expect.stringMatching(/^[0-9a-f-]{36}$/), email: TEST_OPERATOR.email, displayName: '', grants: [{ role: 'owner', gameId: null }] },
        expiresAt: expect.any(String),
        sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        twoFactor: { totp: false, passkeys: [], recoveryCodesLeft: 0, required: false },
        stepUpUntil: expect.any(String),
      });
      expect(Date.parse(session.body.expiresAt)).toBeGreaterThan(Date.now());
    });

    it("gives the console the platform's public URLs: the address it was opened at, and core_url on the same host", async () => {
      const endpoints = await api<{ baseUrl: string; coreUrl: string }>('GET', '/endpoints');
      expect(endpoints.body).toEqual({ baseUrl: platform.baseUrl, coreUrl: platform.coreUrl });
      const behindTls = await http<{ baseUrl: string; coreUrl: string }>('GET', `${platform.baseUrl}/v1/console/endpoints`, {
        bearer: token,
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'wallet.example.com' },
      });
      expect(behindTls.body).toEqual({ baseUrl: 'https://wallet.example.com', coreUrl: `https://wallet.example.com:${platform.ports.core}` });
    });

    it('stores passwords with scrypt N=2^15, r=8, p=3, and upgrades a hash with older parameters at the next sign-in', async () => {
      const salt = randomBytes(16);
      const old = scryptSync(consolePasswordDigest(TEST_OPERATOR.email, TEST_OPERATOR.password), salt, 32, { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
      await queryOnce(platform.databaseUrl, 'UPDATE identity.operators SET password_hash = $1 WHERE email = $2', [
        ['scrypt', 32768, 8, 1, salt.toString('base64'), old.toString('base64')].join('$'),
        TEST_OPERATOR.email,
      ]);
      expect((await signIn(TEST_OPERATOR.email, TEST_OPERATOR.password, '203.0.113.41')).status).toBe(200);
      const [row] = await queryOnce<{ password_hash: string }>(platform.databaseUrl, 'SELECT password_hash FROM identity.operators WHERE email = $1', [TEST_OPERATOR.email]);
      expect(row.password_hash).toMatch(/^scrypt\$32768\$8\$3\$/);
      expect((await signIn(TEST_OPERATOR.email, TEST_OPERATOR.password, '203.0.113.41')).status).toBe(200);
    });

    it('marks the cookie Secure behind an https load balancer', async () => {
      const response = await fetch(`${platform.baseUrl}/v1/console/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' },
        body: JSON.stringify(TEST_OPERATOR),
      });
      expect(response.headers.get('set-cookie')).toMatch(/Secure/i);
    });

    it('answers 401 INVALID_CREDENTIALS for a wrong password or an unknown e-mail', async () => {
      for (const [email, password] of [
        [TEST_OPERATOR.email, 'wrong-password'],
        ['nobody@example.com', TEST_OPERATOR.password],
      ]) {
        const response = await signIn(email, password, '203.0.113.2');
        expect([response.status, response.body]).toEqual([401, { message: 'Wrong e-mail or password', code: 'INVALID_CREDENTIALS' }]);
      }
    });
  });

  describe('games', () => {
    it('creates a game (201) and reads it back', async () => {
      const created = await api<Game>('POST', '/games', { name: '  Space Miners  ' });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Space Miners', createdAt: expect.any(String) });
      expect(created.body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      const read = await api<Game>('GET', `/games/${created.body.id}`);
      expect(read.body).toEqual(created.body);
    });

    it.each([
      ['an empty name', { name: '' }],
      ['a name over 100 characters', { name: 'x'.repeat(101) }],
      ['an unknown field', { name: 'ok', colour: 'red' }],
      ['no name', {}],
    ])('refuses %s with 400 VALIDATION_FAILED', async (_, body) => {
      const response = await api('POST', '/games', body);
      expect([response.status, response.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    });

    it('lists games newest first, paged by cursor', async () => {
      for (const name of ['Page A', 'Page B', 'Page C']) {
        await api('POST', '/games', { name });
      }
      const first = await api<{ items: Game[]; nextCursor: string | null }>('GET', '/games?limit=2');
      expect(first.body.items.map((game) => game.name)).toEqual(['Page C', 'Page B']);
      expect(first.body.nextCursor).toEqual(expect.any(String));
      const rest = await api<{ items: Game[]; nextCursor: string | null }>('GET', `/games?limit=2&cursor=${first.body.nextCursor}`);
      expect(rest.body.items.map((game) => game.name)).toEqual(['Page A', 'Space Miners']);
      const end = await api<{ items: Game[]; nextCursor: string | null }>('GET', `/games?limit=50&cursor=${first.body.nextCursor}&unknown=ignored`);
      expect(end.body.nextCursor).toBeNull();
    });

    it('lists each game with its number of API keys (a deleted key no longer counts)', async () => {
      const game = (await api<Game>('POST', '/games', { name: 'Counted' })).body;
      const keys = [];
      for (const name of ['one', 'two', 'three']) {
        const key = (await api<ApiKey>('POST', `/games/${game.id}/api-keys`, { name })).body;
        secrets.push(String(key.key));
        keys.push(key);
      }
      await api('PATCH', `/games/${game.id}/api-keys/${keys[0].id}`, { active: false });
      await api('DELETE', `/games/${game.id}/api-keys/${keys[1].id}`);
      const list = await api<{ items: GameSummaryView[] }>('GET', '/games?limit=1');
      expect(list.body.items[0]).toEqual({ ...game, apiKeyCount: 2 });
    });

    it.each([['limit=0'], ['limit=101'], ['limit=abc'], ['cursor=not-a-cursor']])('refuses ?%s with 400 INVALID_QUERY', async (query) => {
      const response = await api('GET', `/games?${query}`);
      expect([response.status, response.body.code]).toEqual([400, 'INVALID_QUERY']);
    });

    it('answers 404 GAME_NOT_FOUND for an unknown or malformed game id', async () => {
      for (const id of ['01900000-0000-7000-8000-000000000000', 'nope']) {
        const response = await api('GET', `/games/${id}`);
        expect([response.status, response.body.code]).toEqual([404, 'GAME_NOT_FOUND']);
      }
    });
  });

  describe('API keys', () => {
    let gameId: string;
    let created: ApiKey;

    beforeAll(async () => {
      gameId = (await api<Game>('POST', '/games', { name: 'Key game' })).body.id;
    });

    it('creates an active key and shows its secret once: gk_ + 40 base62, previewed as gk_AbCd…wXyZ', async () => {
      const response = await api<ApiKey>('POST', `/games/${gameId}/api-keys`, { name: 'Game server' });
      expect(response.status).toBe(201);
      created = response.body;
      secrets.push(String(created.key));
      expect(created).toEqual({
        id: expect.any(String),
        name: 'Game server',
        preview: `${created.key!.slice(0, 7)}\u2026${created.key!.slice(-4)}`,
        active: true,
        createdAt: expect.any(String),
        lastUsedAt: null,
        signedRequests: 'off',
        signingKeys: [],
        key: expect.stringMatching(/^gk_[0-9A-Za-z]{40}$/),
      });
      const list = await api<{ items: ApiKey[] }>('GET', `/games/${gameId}/api-keys`);
      expect(list.body.items).toEqual([{ ...created, key: undefined }].map(({ key: _, ...rest }) => rest));
    });

    it('names a key "API key" when no name is given', async () => {
      const response = await api<ApiKey>('POST', `/games/${gameId}/api-keys`, {});
      secrets.push(String(response.body.key));
      expect(response.body.name).toBe('API key');
    });

    it('deactivates and reactivates a key', async () => {
      const off = await api<ApiKey>('PATCH', `/games/${gameId}/api-keys/${created.id}`, { active: false });
      expect([off.status, off.body.active]).toEqual([200, false]);
      const refused = await http<{ code: string }>('POST', `${platform.baseUrl}/v1/profile/01900000-0000-7000-8000-000000000000/authenticate`, {
        apiKey: created.key,
        body: {},
      });
      expect([refused.status, refused.body.code]).toEqual([403, 'API_KEY_INACTIVE']);
      const on = await api<ApiKey>('PATCH', `/games/${gameId}/api-keys/${created.id}`, { active: true });
      expect([on.status, on.body.active]).toEqual([200, true]);
    });

    it('refuses a PATCH body that is not {active: boolean}', async () => {
      for (const body of [{ active: 'yes' }, {}, { active: true, name: 'x' }]) {
        const response = await api('PATCH', `/games/${gameId}/api-keys/${created.id}`, body);
        expect([response.status, response.body.code]).toEqual([400, 'VALIDATION_FAILED']);
      }
    });

    it('deletes a key for good: no longer listed, its secret refused with 401, PATCH and DELETE answer 404', async () => {
      const deleted = await api('DELETE', `/games/${gameId}/api-keys/${created.id}`);
      expect(deleted.status).toBe(204);
      const list = await api<{ items: ApiKey[] }>('GET', `/games/${gameId}/api-keys`);
      expect(list.body.items.map((key) => key.id)).not.toContain(created.id);
      const refused = await http<{ code: string }>('POST', `${platform.baseUrl}/v1/profile/01900000-0000-7000-8000-000000000000/authenticate`, {
        apiKey: created.key,
        body: {},
      });
      expect([refused.status, refused.body.code]).toEqual([401, 'INVALID_API_KEY']);
      for (const [method, body] of [['PATCH', { active: true }], ['DELETE', undefined]] as const) {
        const response = await api(method, `/games/${gameId}/api-keys/${created.id}`, body);
        expect([response.status, response.body.code]).toEqual([404, 'API_KEY_NOT_FOUND']);
      }
    });

    it("answers 404 for a key of another game, and for another game's key list when the game does not exist", async () => {
      const otherGame = (await api<Game>('POST', '/games', { name: 'Other' })).body.id;
      const key = (await api<ApiKey>('POST', `/games/${otherGame}/api-keys`, {})).body;
      secrets.push(String(key.key));
      const response = await api('PATCH', `/games/${gameId}/api-keys/${key.id}`, { active: false });
      expect([response.status, response.body.code]).toEqual([404, 'API_KEY_NOT_FOUND']);
      const missing = await api('GET', '/games/01900000-0000-7000-8000-000000000000/api-keys');
      expect([missing.status, missing.body.code]).toEqual([404, 'GAME_NOT_FOUND']);
    });

    it('writes an audit entry for each action, newest first, with the address the operator came from and no secret', async () => {
      const audit = await api<{ items: AuditEntry[]; nextCursor: string | null }>('GET', `/games/${gameId}/audit`);
      expect(audit.status).toBe(200);
      expect(audit.body.items.map((entry) => entry.action)).toEqual([
        'api_key.deleted',
        'api_key.updated',
        'api_key.updated',
        'api_key.created',
        'api_key.created',
        'game.created',
      ]);
      for (const entry of audit.body.items) {
        expect(Object.keys(entry).sort()).toEqual(['action', 'actor', 'at', 'details', 'id', 'target']);
        expect(entry.actor).toMatch(/^operator:[0-9a-f-]{36}$/);
        expect(entry.details.ip).toBe(OPERATOR_ADDRESS);
      }
      expect(audit.body.items[0].target).toBe(`api-key:${created.id}`);
      const text = JSON.stringify(audit.body);
      for (const secret of secrets) {
        expect(text).not.toContain(secret);
      }
      const paged = await api<{ items: AuditEntry[]; nextCursor: string | null }>('GET', `/games/${gameId}/audit?limit=4`);
      const next = await api<{ items: AuditEntry[]; nextCursor: string | null }>('GET', `/games/${gameId}/audit?limit=4&cursor=${paged.body.nextCursor}`);
      expect([...paged.body.items, ...next.body.items]).toEqual(audit.body.items);
    });
  });

  describe('sign-out and lockout', () => {
    it('signs out (204): the token is then refused with 401 TOKEN_REVOKED and the cookie cleared', async () => {
      const session = await signIn(TEST_OPERATOR.email, TEST_OPERATOR.password, '203.0.113.3');
      secrets.push(session.body.token);
      const out = await fetch(`${platform.baseUrl}/v1/console/session`, { method: 'DELETE', headers: { authorization: `Bearer ${session.body.token}` } });
      expect(out.status).toBe(204);
      expect(out.headers.get('set-cookie')).toMatch(/^console_session=;/);
      for (const path of ['/games', '/session']) {
        const after = await http<{ code: string }>('GET', `${platform.baseUrl}/v1/console${path}`, { bearer: session.body.token });
        expect([after.status, after.body.code]).toEqual([401, 'TOKEN_REVOKED']);
      }
    });

    it('answers 429 after 10 failed sign-ins a minute for one e-mail, even with the right password', async () => {
      const failedEarlierInThisSuite = 2; // the wrong passwords of the Redis check and of the 401 case above
      for (let attempt = failedEarlierInThisSuite; attempt < 10; attempt += 1) {
        expect((await signIn(TEST_OPERATOR.email, `wrong-${attempt}`, `198.51.100.${attempt}`)).status).toBe(401);
      }
      const locked = await signIn(TEST_OPERATOR.email, TEST_OPERATOR.password, '198.51.100.77');
      expect([locked.status, locked.body.code]).toEqual([429, 'RATE_LIMITED']);
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    it('holds the limit against a parallel burst: of 40 simultaneous wrong passwords for one e-mail, at most 11 get 401, the rest 429', async () => {
      const answers = await Promise.all(Array.from({ length: 40 }, (_, index) => signIn('burst@example.com', `guess-${index}`, `198.18.0.${index + 1}`)));
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
      expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(11);
      expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(29);
    });

    it('answers 429 after 10 failed sign-ins a minute from one IP, whatever the e-mail', async () => {
      for (let attempt = 0; attempt < 10; attempt += 1) {
        expect((await signIn(`someone${attempt}@example.com`, 'wrong', '192.0.2.50')).status).toBe(401);
      }
      const locked = await signIn('fresh@example.com', 'whatever', '192.0.2.50');
      expect([locked.status, locked.body.code]).toEqual([429, 'RATE_LIMITED']);
    });
  });

  // It makes and uses every kind of secret itself (so it holds when run alone), and also checks those the tests
  // above handled when they ran first.
  it('never writes an API key, a token or a password to any log line (all apps, trace level)', async () => {
    await signIn('nobody@example.com', 'a-wrong-password', '203.0.113.70');
    const bearer = scanToken;
    const game = (await http<Game>('POST', `${platform.baseUrl}/v1/console/games`, { bearer, body: { name: 'Logged' } })).body;
    const key = (await http<ApiKey>('POST', `${platform.baseUrl}/v1/console/games/${game.id}/api-keys`, { bearer, body: { name: 'logged' } })).body;
    const player = await http<{ profileId: string }>('POST', `${platform.coreUrl}/v1/player/create`, { apiKey: String(key.key), body: { uniqueId: 'logged' } });
    const jwt = await http<{ jwt: string }>('POST', `${platform.baseUrl}/v1/profile/${player.body.profileId}/authenticate`, {
      apiKey: String(key.key),
      body: {},
      headers: { 'x-request-id': 'log-scan-last-request' },
    });
    expect([player.status, jwt.status]).toEqual([201, 200]);
    secrets.push(bearer, String(key.key), jwt.body.jwt);
    const output = await waitFor(() => (platform.allOutput().includes('log-scan-last-request') ? platform.allOutput() : undefined), 5000, 'the last request in the logs');
    expect(output.length).toBeGreaterThan(10_000);
    for (const secret of secrets) {
      expect(output).not.toContain(secret);
    }
    expect(output).not.toContain('wrong-password');
  });
});

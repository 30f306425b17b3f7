import { TestPlatform, consoleToken, freePort, http, queryOnce } from '@game-wallet/testing';

/**
 * TRUST_PROXY: the client IP (sign-in limits, audit) is the one the farthest trusted proxy saw; what an untrusted hop
 * writes into X-Forwarded-For changes nothing. Seen through the per-IP sign-in lockout (10 failures a minute) and the
 * address the audit trail records with an operator's action.
 */
describe('trusted proxies', () => {
  let platform: TestPlatform;
  let operatorToken: string;

  beforeAll(async () => {
    // Loopback (the test itself) is not a trusted proxy here.
    platform = await TestPlatform.start('trustproxy', { apps: ['gateway', 'identity'], env: { TRUST_PROXY: '10.99.0.0/16' } });
    // Signed in before the lockout test blocks loopback's address for a minute.
    operatorToken = await consoleToken(platform);
  });

  /** Creates a game through `baseUrl` with this X-Forwarded-For; answers the address its audit entry records. */
  const auditedAddress = async (baseUrl: string, forwardedFor: string): Promise<unknown> => {
    const game = await http<{ id: string }>('POST', `${baseUrl}/v1/console/games`, {
      bearer: operatorToken,
      body: { name: 'Audited game' },
      headers: { 'x-forwarded-for': forwardedFor },
    });
    expect(game.status).toBe(201);
    const [event] = await queryOnce<{ details: { ip?: unknown } }>(platform.databaseUrl, `SELECT details FROM identity.audit_events WHERE target = $1`, [
      `game:${game.body.id}`,
    ]);
    return event.details.ip;
  };

  afterAll(async () => {
    await platform.stop();
  });

  const signIn = (baseUrl: string, attempt: string, forwardedFor: string) =>
    http<{ code?: string }>('POST', `${baseUrl}/v1/console/session`, {
      body: { email: `${attempt}@example.com`, password: 'wrong-password' },
      headers: { 'x-forwarded-for': forwardedFor },
    });

  it('ignores X-Forwarded-For from a client that is not a trusted proxy: forged addresses do not escape the lockout', async () => {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect((await signIn(platform.baseUrl, `a${attempt}`, `203.0.113.${attempt + 1}`)).status).toBe(401);
    }
    const locked = await signIn(platform.baseUrl, 'a-next', '203.0.113.200');
    expect([locked.status, locked.body.code]).toEqual([429, 'RATE_LIMITED']);
  });

  it("audits an operator action with the connection's address when the hop that wrote X-Forwarded-For is not trusted", async () => {
    expect(await auditedAddress(platform.baseUrl, '203.0.113.7')).toBe('127.0.0.1');
  });

  it.each([
    ['the proxies at loopback', 'loopback'],
    ['one hop', '1'],
  ])('behind %s, counts the address that proxy saw, whatever an untrusted hop wrote before it', async (_, trustProxy) => {
    const ports = { base: await freePort(), core: await freePort(), internal: await freePort() };
    await platform.startApp('gateway', `gateway-${trustProxy}`, {
      TRUST_PROXY: trustProxy,
      BASE_PORT: String(ports.base),
      CORE_PORT: String(ports.core),
      GATEWAY_INTERNAL_PORT: String(ports.internal),
    });
    const baseUrl = `http://127.0.0.1:${ports.base}`;
    const client = trustProxy === '1' ? '198.51.100.1' : '198.51.100.2';
    for (let attempt = 0; attempt < 10; attempt += 1) {
      // The first entry is what the client forged; the last is what the trusted proxy appended.
      expect((await signIn(baseUrl, `${trustProxy}-${attempt}`, `192.0.2.${attempt + 1}, ${client}`)).status).toBe(401);
    }
    const locked = await signIn(baseUrl, `${trustProxy}-next`, `192.0.2.99, ${client}`);
    expect([locked.status, locked.body.code]).toEqual([429, 'RATE_LIMITED']);
    const otherClient = await signIn(baseUrl, `${trustProxy}-other`, '192.0.2.99, 198.51.100.50');
    expect(otherClient.status).toBe(401);
    expect(await auditedAddress(baseUrl, `192.0.2.7, ${client}`)).toBe(client);
  });
});

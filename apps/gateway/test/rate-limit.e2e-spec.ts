import { GameFixture, TestPlatform, consoleToken, createGame, createPlayer, createProfile, http, profileJwt } from '@game-wallet/testing';

/** SPEC §7: limits counted in Redis, so they hold across gateway replicas; 429 with Retry-After and RateLimit-*. */
describe('rate limits across two gateways', () => {
  let platform: TestPlatform;
  let second: { baseUrl: string };
  let game: GameFixture;

  beforeAll(async () => {
    platform = await TestPlatform.start('ratelimit', { env: { RATE_LIMIT_API_KEY_RPS: '2', RATE_LIMIT_API_KEY_BURST: '6', RATE_LIMIT_JWT_RPS: '3' } });
    second = await platform.startSecondGateway();
    game = await createGame(platform, await consoleToken(platform));
  });

  afterAll(async () => {
    await platform.stop();
  });

  const burst = async (count: number, headers: { apiKey?: string; bearer?: string }) => {
    const missing = '01900000-0000-7000-8000-000000000000';
    return Promise.all(
      Array.from({ length: count }, (_, index) =>
        http<{ code?: string }>('POST', `${index % 2 === 0 ? platform.baseUrl : second.baseUrl}/v1/profile/${missing}/authenticate`, { ...headers, body: {} }),
      ),
    );
  };

  it('lets a burst of 6 through per API key, across both gateways, then answers 429 RATE_LIMITED with Retry-After', async () => {
    const responses = await burst(12, { apiKey: game.key });
    const limited = responses.filter((response) => response.status === 429);
    const passed = responses.filter((response) => response.status !== 429);
    expect(passed.length).toBeGreaterThanOrEqual(6);
    expect(passed.length).toBeLessThanOrEqual(7); // one more may refill (2/s) while the burst is in flight
    expect(passed.every((response) => response.status === 404)).toBe(true);
    // Once less than half the burst is left, answers carry the RateLimit headers too.
    expect(passed.some((response) => response.headers.get('ratelimit-limit') === '6')).toBe(true);
    for (const response of limited) {
      expect(response.body).toEqual({ message: expect.any(String), code: 'RATE_LIMITED' });
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(response.headers.get('ratelimit-remaining')).toBe('0');
      expect(Number(response.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);
    }
  });

  it('sends no RateLimit headers while more than half the burst is left', async () => {
    const fresh = await createGame(platform, await consoleToken(platform), 'Fresh');
    const [response] = await burst(1, { apiKey: fresh.key });
    expect(response.status).toBe(404);
    expect(response.headers.get('ratelimit-limit')).toBeNull();
  });

  it('limits a profile JWT at its own rate', async () => {
    const other = await createGame(platform, await consoleToken(platform), 'JWT game');
    const profile = await createProfile(platform, other);
    const jwt = await profileJwt(platform, profile.id, other.key);
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => http('POST', `${second.baseUrl}/v1/profile/${profile.id}/authenticate`, { bearer: jwt, body: {} })),
    );
    const passed = responses.filter((response) => response.status === 200).length;
    expect(passed).toBeGreaterThanOrEqual(3);
    expect(passed).toBeLessThanOrEqual(4);
    expect(responses.filter((response) => response.status === 429).length).toBe(8 - passed);
  });

  it('refills: after the Retry-After wait the key is let through again', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const [response] = await burst(1, { apiKey: game.key });
    expect(response.status).toBe(404);
  });
});

/** SPEC §11: signing requests per wallet, whatever credential asks, across gateways. */
describe('signing rate limit per wallet', () => {
  let platform: TestPlatform;
  let second: { baseUrl: string };
  let game: GameFixture;

  beforeAll(async () => {
    platform = await TestPlatform.start('signrate', { env: { RATE_LIMIT_SIGN_PER_WALLET_RPS: '3' } });
    second = await platform.startSecondGateway();
    game = await createGame(platform, await consoleToken(platform), 'Signing game');
  });

  afterAll(async () => {
    await platform.stop();
  });

  it('lets 3 signatures a second through per wallet across both gateways, then answers 429 with Retry-After; other wallets are not slowed', async () => {
    const [busy, quiet] = await Promise.all([createPlayer(platform, game.key, 'busy'), createPlayer(platform, game.key, 'quiet')]);
    const sign = (walletId: string, index: number) =>
      http<{ code?: string }>('POST', `${index % 2 === 0 ? platform.baseUrl : second.baseUrl}/v1/wallet/${walletId}/sign`, { apiKey: game.key, body: { chain: 'evm', message: `m${index}` } });
    const responses = await Promise.all(Array.from({ length: 9 }, (_, index) => sign(busy.walletId, index)));
    const passed = responses.filter((response) => response.status === 200).length;
    expect(passed).toBeGreaterThanOrEqual(3);
    expect(passed).toBeLessThanOrEqual(4); // one more may refill while the burst is in flight
    const limited = responses.filter((response) => response.status === 429);
    expect(limited.length).toBe(9 - passed);
    expect(limited.every((response) => response.body.code === 'RATE_LIMITED' && Number(response.headers.get('retry-after')) >= 1)).toBe(true);
    expect((await sign(quiet.walletId, 0)).status).toBe(200);
  });
});

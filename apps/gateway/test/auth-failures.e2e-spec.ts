import { GameFixture, TestPlatform, consoleToken, createGame, http } from '@game-wallet/testing';

/** Failed API-key and JWT authentications are limited per client IP: past the budget, every credential gets 429. */
describe('failed authentications per client IP', () => {
  let platform: TestPlatform;
  let game: GameFixture;

  beforeAll(async () => {
    platform = await TestPlatform.start('authfail', { env: { TRUST_PROXY: 'loopback', RATE_LIMIT_AUTH_FAILURES_PER_IP: '20' } });
    game = await createGame(platform, await consoleToken(platform));
  });

  afterAll(async () => {
    await platform.stop();
  });

  const read = (ip: string, headers: Record<string, string>) =>
    http<{ code?: string }>('GET', `${platform.baseUrl}/v1/wallet/01900000-0000-7000-8000-000000000000`, { headers: { 'x-forwarded-for': ip, ...headers } });

  it('answers 429 with Retry-After once an IP is past its budget of 401s, then refuses even a valid key from it (a guess learns nothing)', async () => {
    const guesses = [];
    for (let attempt = 0; attempt < 40; attempt += 1) {
      const guess = `gk_${String(attempt).padStart(40, 'x')}`;
      guesses.push(await read('203.0.113.66', attempt % 2 === 0 ? { 'x-api-key': guess } : { authorization: 'Bearer not.a.jwt' }));
    }
    const statuses = guesses.map((guess) => guess.status);
    expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(10);
    const limited = guesses.find((guess) => guess.status === 429);
    expect(limited?.body.code).toBe('RATE_LIMITED');
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
    const valid = await read('203.0.113.66', { 'x-api-key': game.key });
    expect([valid.status, valid.body.code]).toEqual([429, 'RATE_LIMITED']);
  });

  it('leaves other addresses alone', async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await read('198.51.100.70', { 'x-api-key': `gk_${'y'.repeat(40)}` })).status).toBe(401);
    }
    const valid = await read('198.51.100.71', { 'x-api-key': game.key });
    expect([valid.status, valid.body.code]).toEqual([404, 'WALLET_NOT_FOUND']);
  });
});

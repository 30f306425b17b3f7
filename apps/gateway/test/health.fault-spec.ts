import { PrivatePostgres, PrivateRedis, TestPlatform, waitFor } from '@game-wallet/testing';

interface Report {
  status: string;
  info: Record<string, { status: string }>;
  error: Record<string, { status: string; message?: string }>;
  details: Record<string, { status: string; message?: string }>;
}

/** Health under faults: the gateway and a service on a Postgres and a Redis of the suite's own, stopped and restarted. */
describe('health when a dependency goes down', () => {
  let postgres: PrivatePostgres;
  let redis: PrivateRedis;
  let platform: TestPlatform;

  const health = async (url: string): Promise<{ status: number; body: Report; ms: number }> => {
    const started = Date.now();
    const response = await fetch(url);
    return { status: response.status, body: (await response.json()) as Report, ms: Date.now() - started };
  };

  beforeAll(async () => {
    [postgres, redis] = await Promise.all([PrivatePostgres.start(), PrivateRedis.start()]);
    platform = await TestPlatform.start('healthfaults', {
      apps: ['gateway', 'identity'],
      redisUrl: redis.url,
      postgresAdminUrl: postgres.url(),
    });
  });

  afterAll(async () => {
    await platform.stop();
    await redis.stop();
    await postgres.destroy();
  });

  const urls = (): [string, string][] => [
    ['gateway', `${platform.baseUrl}/v1/health`],
    ['identity', `${platform.internalUrl('identity')}/v1/health`],
  ];

  it('answers 503 within 2 s with redis under error, then 200 again once Redis is back', async () => {
    await redis.stop();
    for (const [, url] of urls()) {
      const { status, body, ms } = await health(url);
      expect(ms).toBeLessThan(2000);
      expect(status).toBe(503);
      expect(body.status).toBe('error');
      // A fixed phrase: never the driver's text, which names the host and port.
      expect(body.error.redis).toEqual({ status: 'down', message: expect.stringMatching(/^(connection refused|connection closed|connection reset)$/) });
      expect(body.details.redis.status).toBe('down');
      expect(body.info.database).toEqual({ status: 'up' });
    }
    await redis.start();
    for (const [, url] of urls()) {
      await waitFor(async () => (await health(url)).status === 200, 10_000, `${url} to recover`);
    }
  });

  it('answers 503 within 2 s when Redis hangs (each check times out after 1 s)', async () => {
    redis.freeze();
    try {
      for (const [, url] of urls()) {
        const { status, body, ms } = await health(url);
        expect(ms).toBeLessThan(2000);
        expect(status).toBe(503);
        expect(body.error.redis).toEqual({ status: 'down', message: 'timeout' });
      }
    } finally {
      redis.thaw();
    }
    for (const [, url] of urls()) {
      await waitFor(async () => (await health(url)).status === 200, 10_000, `${url} to recover`);
    }
  });

  it('answers 503 within 2 s with database under error, then 200 again once Postgres is back', async () => {
    await postgres.stop();
    for (const [, url] of urls()) {
      const { status, body, ms } = await health(url);
      expect(ms).toBeLessThan(2000);
      expect(status).toBe(503);
      expect(body.error.database).toEqual({ status: 'down', message: expect.stringMatching(/^(connection refused|connection closed|shutting down|timeout)$/) });
      expect(body.info.redis).toEqual({ status: 'up' });
    }
    await postgres.start();
    for (const [, url] of urls()) {
      await waitFor(async () => (await health(url)).status === 200, 15_000, `${url} to recover`);
    }
  });
});

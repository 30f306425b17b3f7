import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { RateLimiter } from './rate-limiter';

/** Against the machine's Redis: the bucket lives there. */
describe(RateLimiter.name, () => {
  const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
  const prefix = `gwt-rl-${randomUUID()}`;

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) {
      await redis.del(...keys);
    }
    redis.disconnect();
  });

  it('lets exactly the burst through when many requests arrive at once, even with small leases', async () => {
    const limiter = new RateLimiter(redis, prefix);
    const decisions = await Promise.all(Array.from({ length: 120 }, () => Promise.resolve(limiter.take('burst', { rate: 1, burst: 100 }))));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(100);
    const refused = decisions.find((decision) => !decision.allowed);
    expect(refused?.retryAfter).toBeGreaterThanOrEqual(1);
  });

  it('shares one bucket between limiters (gateway replicas)', async () => {
    const [a, b] = [new RateLimiter(redis, prefix), new RateLimiter(redis, prefix)];
    const decisions = await Promise.all(Array.from({ length: 40 }, (_, index) => Promise.resolve((index % 2 === 0 ? a : b).take('shared', { rate: 1, burst: 10 }))));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(10);
  });
});

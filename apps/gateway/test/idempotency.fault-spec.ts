import { randomUUID } from 'node:crypto';
import { PrivateRedis, TestPlatform, consoleToken, http, waitFor } from '@game-wallet/testing';

/**
 * Kept Idempotency-Key answers live in PostgreSQL (the gateway's schema), not in Redis, which keeps nothing on disk:
 * a Redis restart that loses every key cannot make a console create run twice.
 */
describe('Idempotency-Key across a Redis restart that loses its data', () => {
  let redis: PrivateRedis;
  let platform: TestPlatform;

  beforeAll(async () => {
    redis = await PrivateRedis.start();
    platform = await TestPlatform.start('idempotency-redis', { redisUrl: redis.url });
  });

  afterAll(async () => {
    await platform.stop();
    await redis.stop();
  });

  it('replays a console create sent again after Redis restarted empty, and the game exists once', async () => {
    const token = await consoleToken(platform);
    const key = randomUUID();
    const send = () => http<{ id: string }>('POST', `${platform.baseUrl}/v1/console/games`, { bearer: token, body: { name: 'Survives Redis' }, headers: { 'idempotency-key': `"${key}"` } });
    const first = await send();
    expect(first.status).toBe(201);

    await redis.stop();
    await redis.start();
    // The platform finds its (empty) Redis again; the kept answer is read from PostgreSQL.
    const again = await waitFor(async () => {
      const answer = await send();
      return answer.status === 201 ? answer : undefined;
    }, 60_000, 'the gateway to answer after the Redis restart');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    const games = await http<{ items: { name: string }[] }>('GET', `${platform.baseUrl}/v1/console/games?limit=100`, { bearer: token });
    expect(games.body.items.filter((game) => game.name === 'Survives Redis')).toHaveLength(1);
  }, 120_000);
});

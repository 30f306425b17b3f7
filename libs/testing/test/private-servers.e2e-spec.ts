import { PrivatePostgres, PrivateRedis } from '../src';
import Redis from 'ioredis';
import { Client } from 'pg';

describe('private servers for fault tests', () => {
  it('starts, stops and restarts a private Postgres cluster', async () => {
    const pg = await PrivatePostgres.start();
    try {
      const client = new Client({ connectionString: pg.url() });
      await client.connect();
      await expect(client.query('SELECT 1 AS one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
      await client.end();
      await pg.stop();
      const refused = new Client({ connectionString: pg.url(), connectionTimeoutMillis: 500 });
      await expect(refused.connect()).rejects.toThrow();
      await pg.start();
      const again = new Client({ connectionString: pg.url() });
      await again.connect();
      await again.end();
    } finally {
      await pg.destroy();
    }
  });

  it('starts and stops a private Redis', async () => {
    const redis = await PrivateRedis.start();
    const client = new Redis(redis.url);
    await expect(client.ping()).resolves.toBe('PONG');
    client.disconnect();
    await redis.stop();
  });
});

import { ensureDatabase, migrateSchema } from '@game-wallet/database';
import { dropDatabase, queryOnce, uniqueDatabaseUrl } from '@game-wallet/testing';
import { DataSource } from 'typeorm';
import { IdentityConfig } from '../src/config';
import { identityDataSourceOptions } from '../src/database/data-source-options';
import { WebhookQueue } from '../src/webhooks/webhook-queue';

/**
 * The webhook delivery queue (pg-boss) as replicas start it: each creates the queue unless it exists, and replicas
 * starting together must not deadlock on pg-boss's queue creation (it attaches a partition and adds a foreign key).
 */
describe('webhook delivery queue at start', () => {
  const database = uniqueDatabaseUrl('webhook_queue');
  const dataSources: DataSource[] = [];

  beforeAll(async () => {
    await ensureDatabase(database.url);
    await migrateSchema(identityDataSourceOptions(database.url));
  });

  afterAll(async () => {
    await Promise.all(dataSources.map((dataSource) => dataSource.destroy()));
    await dropDatabase(database.name);
  });

  /** A replica's queue: its own pg-boss and its own identity connection pool. */
  async function replicaQueue(): Promise<WebhookQueue> {
    const dataSource = await new DataSource({ ...identityDataSourceOptions(database.url), extra: { max: 2 } }).initialize();
    dataSources.push(dataSource);
    return new WebhookQueue({ databaseUrl: database.url } as IdentityConfig, dataSource);
  }

  it('starts four replicas at once, again and again, creating the queue once each time and never deadlocking', async () => {
    for (let round = 0; round < 6; round += 1) {
      await queryOnce(database.url, `DELETE FROM webhook_queue.queue`);
      await queryOnce(database.url, `DO $$ DECLARE t text; BEGIN
        FOR t IN SELECT inhrelid::regclass::text FROM pg_inherits WHERE inhparent = 'webhook_queue.job'::regclass LOOP EXECUTE 'DROP TABLE ' || t; END LOOP; END $$`);
      const queues = await Promise.all([replicaQueue(), replicaQueue(), replicaQueue(), replicaQueue()]);
      const started = await Promise.allSettled(queues.map((queue) => queue.start()));
      await Promise.all(queues.map((queue) => queue.onApplicationShutdown()));
      expect([round, started.map((outcome) => (outcome.status === 'rejected' ? String(outcome.reason) : 'started'))]).toEqual([round, ['started', 'started', 'started', 'started']]);
      const made = await queryOnce<{ name: string }>(database.url, 'SELECT name FROM webhook_queue.queue');
      expect(made.map((row) => row.name)).toEqual(['webhook-delivery']);
    }
  });
});

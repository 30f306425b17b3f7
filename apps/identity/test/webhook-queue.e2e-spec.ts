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
  const REPLICAS = 4;
  /** Each replica's identity connection pool, with the app's own settings (per-query limits included). */
  const dataSources: DataSource[] = [];
  const queues: WebhookQueue[] = [];

  beforeAll(async () => {
    await ensureDatabase(database.url);
    await migrateSchema(identityDataSourceOptions(database.url));
    for (let index = 0; index < REPLICAS; index += 1) {
      const options = identityDataSourceOptions(database.url);
      const extra = (options as { extra?: Record<string, unknown> }).extra;
      dataSources.push(await new DataSource({ ...options, extra: { ...extra, max: 2 } }).initialize());
    }
  });

  afterAll(async () => {
    await Promise.all(queues.map((queue) => queue.onApplicationShutdown()));
    await Promise.all(dataSources.map((dataSource) => dataSource.destroy()));
    await dropDatabase(database.name);
  });

  /** Starts every replica's queue at once: how each start ended, and the queues the database then holds. */
  async function startTogether(): Promise<{ started: string[]; made: string[] }> {
    const round = dataSources.map((dataSource) => new WebhookQueue({ databaseUrl: database.url } as IdentityConfig, dataSource));
    queues.push(...round);
    const outcomes = await Promise.allSettled(round.map((queue) => queue.start()));
    await Promise.all(round.map((queue) => queue.onApplicationShutdown()));
    queues.splice(queues.length - round.length);
    const made = await queryOnce<{ name: string }>(database.url, 'SELECT name FROM webhook_queue.queue');
    return { started: outcomes.map((outcome) => (outcome.status === 'rejected' ? String(outcome.reason) : 'started')), made: made.map((row) => row.name) };
  }

  const dropQueue = async (): Promise<void> => {
    await queryOnce(database.url, `DELETE FROM webhook_queue.queue`);
    await queryOnce(database.url, `DO $$ DECLARE t text; BEGIN
      FOR t IN SELECT inhrelid::regclass::text FROM pg_inherits WHERE inhparent = 'webhook_queue.job'::regclass LOOP EXECUTE 'DROP TABLE ' || t; END LOOP; END $$`);
  };

  it('starts four replicas at once, again and again, creating the queue once each time and never deadlocking', async () => {
    for (let round = 0; round < 6; round += 1) {
      await dropQueue();
      expect([round, await startTogether()]).toEqual([round, { started: Array(REPLICAS).fill('started'), made: ['webhook-delivery'] }]);
    }
  });

  it('starts them again with the queue there (a restart), leaving it as it was', async () => {
    expect(await startTogether()).toEqual({ started: Array(REPLICAS).fill('started'), made: ['webhook-delivery'] });
  });
});

import PgBoss from 'pg-boss';

/** The schema of the webhook delivery queue (pg-boss): its own, owned by identity's role (deploy/postgres/roles.sql). */
export const WEBHOOK_QUEUE_SCHEMA = 'webhook_queue';

/**
 * pg-boss's own construction plan for {@link WEBHOOK_QUEUE_SCHEMA}, as statements for a migration's transaction: its
 * `BEGIN`/`COMMIT` are the migration's, and its `CREATE SCHEMA` is done apart (a least-privilege role may not create
 * schemas: roles.sql makes it). Throws when the plan no longer has the shape this relies on (a pg-boss upgrade).
 */
export function webhookQueueInstallSql(): string {
  const plan = PgBoss.getConstructionPlans(WEBHOOK_QUEUE_SCHEMA).trim();
  const createSchema = new RegExp(`CREATE SCHEMA IF NOT EXISTS ${WEBHOOK_QUEUE_SCHEMA}\\s*;`);
  if (!plan.startsWith('BEGIN;') || !plan.endsWith('COMMIT;') || !createSchema.test(plan)) {
    throw new Error('pg-boss construction plan has an unexpected shape: check the migration against the pinned pg-boss version');
  }
  return plan.slice('BEGIN;'.length, -'COMMIT;'.length).replace(createSchema, '');
}

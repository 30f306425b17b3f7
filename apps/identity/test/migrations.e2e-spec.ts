import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IDENTITY_MIGRATIONS } from '../src/database/migrations';
import { RunningProcess, dropDatabase, queryOnce, spawnApp, spawnNode, uniqueDatabaseUrl, uniquePrefix, freePort, waitFor, waitForHttp, deleteKeys, TEST_REDIS_URL } from '@game-wallet/testing';

const MIGRATION_NAMES = IDENTITY_MIGRATIONS.map((migration) => migration.name);

describe('migrations at start (advisory lock)', () => {
  const database = uniqueDatabaseUrl('migrations');
  const dataDir = mkdtempSync(join(tmpdir(), 'gwt-data-'));
  const prefix = uniquePrefix('migrations');
  const running: RunningProcess[] = [];

  const spawnIdentity = async (env: Record<string, string> = {}): Promise<{ app: RunningProcess; port: number }> => {
    const port = await freePort();
    const app = spawnApp('identity', {
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL,
      TRANSPORT_KEY_PREFIX: prefix,
      IDENTITY_PORT: String(port),
      DATA_DIR: dataDir,
      ...env,
    });
    running.push(app);
    return { app, port };
  };
  const start = async (): Promise<RunningProcess> => {
    const { app, port } = await spawnIdentity();
    await waitForHttp(`http://127.0.0.1:${port}/v1/health`, app);
    return app;
  };

  afterAll(async () => {
    await Promise.all(running.map((app) => app.stop()));
    await dropDatabase(database.name);
    await deleteKeys(prefix);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('brings up two replicas started at once against a database that does not exist yet, applying each migration once', async () => {
    const [first, second] = await Promise.all([start(), start()]);
    const rows = await queryOnce<{ name: string }>(database.url, 'SELECT name FROM identity.migrations ORDER BY id');
    expect(rows.map((row) => row.name)).toEqual(MIGRATION_NAMES);
    expect(MIGRATION_NAMES.slice(0, 2)).toEqual(['Baseline1763740800000', 'IdentityTables1763740900000']);
    const appliedBy = [first, second].filter((app) => app.output.includes(`applied ${MIGRATION_NAMES.length} migration(s)`));
    const upToDate = [first, second].filter((app) => app.output.includes('Schema identity is up to date'));
    expect(appliedBy).toHaveLength(1);
    expect(upToDate).toHaveLength(1);
  });

  it('finds nothing to do on a second start', async () => {
    await Promise.all(running.splice(0).map((app) => app.stop()));
    const again = await start();
    expect(again.output).toContain('Schema identity is up to date');
    const rows = await queryOnce<{ count: string }>(database.url, 'SELECT count(*)::text AS count FROM identity.migrations');
    expect(rows[0].count).toBe(String(MIGRATION_NAMES.length));
  });

  it('keeps each service in its own schema', async () => {
    const schemas = await queryOnce<{ nspname: string }>(database.url, "SELECT nspname FROM pg_namespace WHERE nspname IN ('identity','wallet','core','public')");
    expect(schemas.map((row) => row.nspname).sort()).toEqual(['identity', 'public']);
  });

  it('refuses to start, naming IDENTITY_KEY_ENCRYPTION_KEY, when the signing keys were sealed under another key', async () => {
    await start(); // the signing key exists, sealed under the development key of the data folder
    await Promise.all(running.splice(0).map((app) => app.stop()));
    const { app } = await spawnIdentity({ IDENTITY_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64') });
    await waitFor(() => !app.running, 30_000, 'identity to stop');
    expect(app.output).toContain('does not open with this IDENTITY_KEY_ENCRYPTION_KEY');
    expect(app.output).not.toMatch(/IntegrityError/);
  });
});

describe('migrations by a job (MIGRATIONS=job)', () => {
  const database = uniqueDatabaseUrl('migration-job');
  const dataDir = mkdtempSync(join(tmpdir(), 'gwt-data-'));
  const prefix = uniquePrefix('migration-job');
  const running: RunningProcess[] = [];
  const env = { DATABASE_URL: database.url, REDIS_URL: TEST_REDIS_URL, TRANSPORT_KEY_PREFIX: prefix, DATA_DIR: dataDir };

  afterAll(async () => {
    await Promise.all(running.map((app) => app.stop()));
    await dropDatabase(database.name);
    await deleteKeys(prefix);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('waits for the migration job without touching the schema, then serves once the job has run', async () => {
    const port = await freePort();
    const app = spawnApp('identity', { ...env, IDENTITY_PORT: String(port), MIGRATIONS: 'job' });
    running.push(app);
    await waitFor(() => app.output.includes('waiting for the migration job'), 30_000, 'identity to wait for the migration job');
    expect(app.running).toBe(true);
    const before = await queryOnce<{ count: string }>(database.url, "SELECT count(*)::text AS count FROM pg_namespace WHERE nspname = 'identity'");
    expect(before[0].count).toBe('0');

    const job = spawnNode('migrate', 'dist/apps/identity/migrate.js', env);
    running.push(job);
    await waitFor(() => !job.running, 30_000, 'the migration job to finish');
    expect(job.child.exitCode).toBe(0);
    expect(job.output).toContain(`migrate: applied ${MIGRATION_NAMES.length} migration(s)`);

    await waitForHttp(`http://127.0.0.1:${port}/v1/health`, app);
    expect(app.output).toContain('Schema identity is up to date');
    expect(app.output).not.toContain('applied');
  });

  it('finds nothing to do when the job runs again', async () => {
    const job = spawnNode('migrate-again', 'dist/apps/identity/migrate.js', env);
    running.push(job);
    await waitFor(() => !job.running, 30_000, 'the migration job to finish');
    expect(job.child.exitCode).toBe(0);
    expect(job.output).toContain('migrate: the identity schema is up to date');
  });
});

import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

export const TEST_PG_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A database name no other suite uses (it is created by the app itself, or by {@link createDatabase}). */
export function uniqueDatabaseUrl(label: string, adminUrl = TEST_PG_URL): { url: string; name: string } {
  return namedDatabaseUrl(`gwt_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`, adminUrl);
}

/** The URL of database `name` on the server of `adminUrl`, with its credentials. */
export function namedDatabaseUrl(name: string, adminUrl = TEST_PG_URL): { url: string; name: string } {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), name };
}

/** Drops a suite's database (terminating its leftover connections). */
export async function dropDatabase(name: string, adminUrl = TEST_PG_URL): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** Runs one query against `url` and closes the connection. */
export async function queryOnce<T extends Record<string, unknown>>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * Once every wallet's secret is bound to its owner (associated data version 2), version 1 is retired for good: this
 * constraint keeps version-1 rows out of `wallet.wallets`, and a service that starts with it in place opens no
 * version-1 secret, even one written after a database writer dropped it. Otherwise an old ciphertext (bound to the
 * wallet id only, from a backup, say) could be put back beside another owner and still open.
 */
export const OWNER_BOUND_CONSTRAINT = 'wallets_secrets_owner_bound';

type Query = (sql: string, parameters?: unknown[]) => Promise<unknown[]>;

/** Whether version 1 is retired (the constraint is in place). */
export async function version1Retired(query: Query): Promise<boolean> {
  const rows = await query(`SELECT 1 FROM pg_constraint WHERE conname = $1 AND conrelid = 'wallet.wallets'::regclass`, [OWNER_BOUND_CONSTRAINT]);
  return rows.length > 0;
}

/** Retires version 1 if no version-1 secret is left (a migration on a new database, `rewrap` when it is done). */
export async function retireVersion1IfUnused(query: Query): Promise<boolean> {
  await query(`
    DO $$ BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = '${OWNER_BOUND_CONSTRAINT}' AND conrelid = 'wallet.wallets'::regclass)
         AND NOT EXISTS (SELECT 1 FROM wallet.wallets WHERE aad_version < 2) THEN
        ALTER TABLE wallet.wallets ADD CONSTRAINT ${OWNER_BOUND_CONSTRAINT} CHECK (aad_version >= 2);
      END IF;
    END $$`);
  return version1Retired(query);
}

/** The wallet service's answer to "may a version-1 secret open?", read once at start. */
@Injectable()
export class OwnerBinding implements OnModuleInit {
  private readonly logger = new Logger(OwnerBinding.name);
  private version1 = false;

  constructor(private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    const query: Query = (sql, parameters) => this.dataSource.query(sql, parameters);
    this.version1 = !(await version1Retired(query));
    if (this.version1) {
      const [{ count }] = (await query('SELECT count(*)::int AS count FROM wallet.wallets WHERE aad_version < 2')) as { count: number }[];
      this.logger.warn(`${count} wallet(s) hold secrets bound to the wallet id only (version 1); run \`npm run rewrap\` to bind them to their owners, which retires version 1`);
    }
  }

  get acceptsVersion1(): boolean {
    return this.version1;
  }
}

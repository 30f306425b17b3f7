import { DataSourceOptions, MixedList, EntitySchema } from 'typeorm';

export interface ServiceDataSourceInput {
  url: string;
  /** The service's own schema; the service touches no other (SPEC §1). */
  schema: 'identity' | 'wallet' | 'core' | 'gateway';
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function | string>;
  poolSize?: number;
}

/**
 * TypeORM options of one service schema, shared by the app and the migration CLI. `synchronize` is never on: the
 * schema changes only through migrations, run at start under an advisory lock (see `runMigrationsLocked`).
 */
export function serviceDataSourceOptions(input: ServiceDataSourceInput): DataSourceOptions {
  return {
    type: 'postgres',
    url: input.url,
    schema: input.schema,
    entities: input.entities,
    migrations: input.migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    extra: {
      max: input.poolSize ?? 10,
      // A connection (new, or from a busy pool) within 1.5 s, or the request answers 503: within 2 s in all.
      connectionTimeoutMillis: 1500,
      // A statement may not outlive the caller's deadline (5 s): past 4 s the server cancels it (57014) and a hung
      // server is given up on at 4.5 s, so a slow database answers 503 (retry) rather than the gateway's 504.
      // Migrations run without these limits (ServiceDatabaseModule).
      statement_timeout: 4000,
      query_timeout: 4500,
      application_name: `game-wallet-${input.schema}`,
    },
  };
}

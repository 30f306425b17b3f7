import { serviceDataSourceOptions } from '@game-wallet/database';
import { DataSourceOptions } from 'typeorm';
import { GATEWAY_MIGRATIONS } from './migrations';

export const GATEWAY_SCHEMA = 'gateway';

/**
 * TypeORM options of the `gateway` schema: migrations only (the gateway queries its one table with `pg`). Used when the
 * gateway migrates as it starts and by its migration job (`migrate.ts`).
 */
export function gatewayDataSourceOptions(databaseUrl: string): DataSourceOptions & { schema: string } {
  return {
    ...serviceDataSourceOptions({ url: databaseUrl, schema: GATEWAY_SCHEMA, entities: [], migrations: GATEWAY_MIGRATIONS, poolSize: 2 }),
    schema: GATEWAY_SCHEMA,
  };
}

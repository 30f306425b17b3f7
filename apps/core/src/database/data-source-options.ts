import { serviceDataSourceOptions } from '@game-wallet/database';
import { DataSourceOptions } from 'typeorm';
import { CORE_ENTITIES } from './entities';
import { CORE_MIGRATIONS } from './migrations';

export const CORE_SCHEMA = 'core';

/** TypeORM options of the `core` schema, used by the app and by the TypeORM CLI (`data-source.ts`). */
export function coreDataSourceOptions(databaseUrl: string): DataSourceOptions & { schema: string } {
  return {
    ...serviceDataSourceOptions({ url: databaseUrl, schema: CORE_SCHEMA, entities: CORE_ENTITIES, migrations: CORE_MIGRATIONS }),
    schema: CORE_SCHEMA,
  };
}

import { serviceDataSourceOptions } from '@game-wallet/database';
import { DataSourceOptions } from 'typeorm';
import { IDENTITY_ENTITIES } from './entities';
import { IDENTITY_MIGRATIONS } from './migrations';

export const IDENTITY_SCHEMA = 'identity';

/** TypeORM options of the `identity` schema, used by the app and by the TypeORM CLI (`data-source.ts`). */
export function identityDataSourceOptions(databaseUrl: string): DataSourceOptions & { schema: string } {
  return {
    ...serviceDataSourceOptions({ url: databaseUrl, schema: IDENTITY_SCHEMA, entities: IDENTITY_ENTITIES, migrations: IDENTITY_MIGRATIONS }),
    schema: IDENTITY_SCHEMA,
  };
}

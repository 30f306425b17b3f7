import { serviceDataSourceOptions } from '@game-wallet/database';
import { DataSourceOptions } from 'typeorm';
import { WALLET_ENTITIES } from './entities';
import { WALLET_MIGRATIONS } from './migrations';

export const WALLET_SCHEMA = 'wallet';

/** TypeORM options of the `wallet` schema, used by the app and by the TypeORM CLI (`data-source.ts`). */
export function walletDataSourceOptions(databaseUrl: string): DataSourceOptions & { schema: string } {
  return {
    ...serviceDataSourceOptions({ url: databaseUrl, schema: WALLET_SCHEMA, entities: WALLET_ENTITIES, migrations: WALLET_MIGRATIONS }),
    schema: WALLET_SCHEMA,
  };
}

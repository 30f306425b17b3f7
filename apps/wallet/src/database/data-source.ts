import { DataSource } from 'typeorm';
import { loadWalletConfig } from '../config';
import { walletDataSourceOptions } from './data-source-options';

/** The `wallet` schema for the TypeORM CLI (`typeorm migration:generate -d dist/apps/wallet/src/database/data-source.js`). */
export default new DataSource(walletDataSourceOptions(loadWalletConfig(process.env).databaseUrl));

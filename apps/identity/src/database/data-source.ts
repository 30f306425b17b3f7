import { DataSource } from 'typeorm';
import { loadIdentityConfig } from '../config';
import { identityDataSourceOptions } from './data-source-options';

/** The `identity` schema for the TypeORM CLI (`typeorm migration:generate -d dist/apps/identity/src/database/data-source.js`). */
export default new DataSource(identityDataSourceOptions(loadIdentityConfig(process.env).databaseUrl));

import { DataSource } from 'typeorm';
import { loadCoreConfig } from '../config';
import { coreDataSourceOptions } from './data-source-options';

/** The `core` schema for the TypeORM CLI (`typeorm migration:generate -d dist/apps/core/src/database/data-source.js`). */
export default new DataSource(coreDataSourceOptions(loadCoreConfig(process.env).databaseUrl));

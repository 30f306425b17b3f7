export * from './data-source-options';
export * from './ensure-database';
export * from './ids';
export * from './migrations-runner';
export * from './pool';
export * from './service-database.module';
export * from './run-locked';
export * from './database-outage';

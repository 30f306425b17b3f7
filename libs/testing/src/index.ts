export * from './database';
export * from './ports';
export * from './private-servers';
export * from './processes';
export * from './redis';
export * from './wait';
export * from './platform';
export * from './service-health';

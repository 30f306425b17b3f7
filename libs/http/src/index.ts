export * from './create-http-app';
export * from './http-error.filter';
export * from './http-observability';
export * from './metrics.controller';
export * from './run-main';
export * from './runtime.module';
export * from './start-service';
export * from './json-body';

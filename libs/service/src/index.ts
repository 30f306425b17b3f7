export * from './start-service';
export * from './service-client.module';
export * from './service-module';
export * from './console-authorizer';
export * from './transport-outbox-relay';

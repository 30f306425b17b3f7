export * from './start-service';
export * from './service-client.module';

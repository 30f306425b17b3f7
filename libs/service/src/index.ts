export * from './start-service';

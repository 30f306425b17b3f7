export * from './health-probes';
export * from './health-report.service';
export * from './health.controller';
export * from './health.module';

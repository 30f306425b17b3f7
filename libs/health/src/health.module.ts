import { DynamicModule, InjectionToken, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller';
import { HEALTH_PROBES, HealthProbe } from './health-probes';
import { HealthReportService } from './health-report.service';

/**
 * Health routes of an app. `probes` builds the app's checks (its database and Redis) from injected dependencies;
 * `HealthReportService` is exported for apps that add reports of their own (the gateway's `/v1/health/services`).
 */
@Module({})
export class HealthModule {
  static forRoot(probes: { inject?: InjectionToken[]; useFactory: (...deps: never[]) => HealthProbe[] }): DynamicModule {
    return {
      module: HealthModule,
      imports: [TerminusModule.forRoot({ logger: false })],
      controllers: [HealthController],
      providers: [HealthReportService, { provide: HEALTH_PROBES, inject: probes.inject ?? [], useFactory: probes.useFactory }],
      exports: [HealthReportService],
    };
  }
}

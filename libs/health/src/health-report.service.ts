import { Injectable, Logger, ServiceUnavailableException } from '@nestjs/common';
import { HealthCheckResult, HealthCheckService, HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { HealthProbe, PROBE_TIMEOUT_MS, publicDownReason, withTimeout } from './health-probes';

export interface HealthAnswer {
  statusCode: 200 | 503;
  body: HealthCheckResult;
}

/**
 * Runs probes in parallel, each bounded by 1 s, and builds the Terminus report (`status`, `info`, `error`,
 * `details`): 200 when all are up, 503 when any is down. Logs when a dependency goes down (with the driver's own
 * words) or comes back.
 */
@Injectable()
export class HealthReportService {
  private readonly logger = new Logger(HealthReportService.name);
  private readonly lastState = new Map<string, 'up' | 'down'>();

  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
  ) {}

  async report(probes: HealthProbe[]): Promise<HealthAnswer> {
    const checks = probes.map((probe) => () => this.run(probe));
    try {
      return { statusCode: 200, body: await this.health.check(checks) };
    } catch (error) {
      if (error instanceof ServiceUnavailableException) {
        return { statusCode: 503, body: error.getResponse() as HealthCheckResult };
      }
      throw error;
    }
  }

  private async run(probe: HealthProbe): Promise<HealthIndicatorResult> {
    const indicator = this.indicators.check(probe.name);
    try {
      await withTimeout(probe.check(), PROBE_TIMEOUT_MS, probe.name);
      this.transition(probe.name, 'up');
      return indicator.up();
    } catch (error) {
      // The report says why in a fixed phrase; the driver's own words (hosts, users) go to the log only.
      this.transition(probe.name, 'down', error instanceof Error ? error.message : String(error));
      return indicator.down({ message: publicDownReason(error) });
    }
  }

  private transition(name: string, state: 'up' | 'down', message?: string): void {
    const previous = this.lastState.get(name);
    this.lastState.set(name, state);
    if (previous === state || (previous === undefined && state === 'up')) {
      return;
    }
    if (state === 'down') {
      this.logger.warn(`Health: ${name} is down: ${message ?? ''}`);
    } else {
      this.logger.log(`Health: ${name} is up again`);
    }
  }
}

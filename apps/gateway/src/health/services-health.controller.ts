import { Controller, Get, Res } from '@nestjs/common';
import { PATTERNS, SERVICE_NAMES } from '@game-wallet/contracts';
import { HealthProbe, HealthReportService, PROBE_TIMEOUT_MS } from '@game-wallet/health';
import { HealthCheckResult } from '@nestjs/terminus';
import type { FastifyReply } from 'fastify';
import { ServiceCalls } from '../services/service-calls';

/** `/v1/health/services`: a transport ping to each internal service, 1 s each, in the health report shape. */
@Controller('v1/health/services')
export class ServicesHealthController {
  private readonly probes: HealthProbe[];

  constructor(
    private readonly reports: HealthReportService,
    services: ServiceCalls,
  ) {
    this.probes = SERVICE_NAMES.map((service) => ({
      name: service,
      check: () => services.call(PATTERNS[service].ping, {}, { kind: 'system' }, undefined, PROBE_TIMEOUT_MS),
    }));
  }

  @Get()
  async services(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthCheckResult> {
    const answer = await this.reports.report(this.probes);
    void reply.status(answer.statusCode);
    return answer.body;
  }
}

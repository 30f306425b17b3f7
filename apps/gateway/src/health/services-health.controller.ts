import { Controller, Get, Res } from '@nestjs/common';
import { Caller, ServiceCaller } from '@game-wallet/auth';
import { Public } from '@game-wallet/http';
import { PATTERNS, SERVICE_NAMES } from '@game-wallet/contracts';
import { HealthProbe, HealthReportService, PROBE_TIMEOUT_MS } from '@game-wallet/health';
import { HealthCheckResult } from '@nestjs/terminus';
import type { FastifyReply } from 'fastify';
import { ServiceCalls } from '../services/service-calls';

/** `/v1/health/services`: a transport ping to each internal service, 1 s each, in the health report shape. */
@Public()
@Controller('v1/health/services')
export class ServicesHealthController {
  constructor(
    private readonly reports: HealthReportService,
    private readonly services: ServiceCalls,
  ) {}

  @Get()
  async report(@Caller('system') caller: ServiceCaller, @Res({ passthrough: true }) reply: FastifyReply): Promise<HealthCheckResult> {
    const probes: HealthProbe[] = SERVICE_NAMES.map((service) => ({
      name: service,
      check: () => this.services.call(PATTERNS[service].ping, {}, caller, PROBE_TIMEOUT_MS),
    }));
    const answer = await this.reports.report(probes);
    void reply.status(answer.statusCode);
    return answer.body;
  }
}

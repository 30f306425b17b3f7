import { Controller, Get, Inject, Res } from '@nestjs/common';
import { Public } from '@game-wallet/http';
import type { FastifyReply } from 'fastify';
import { HealthCheckResult } from '@nestjs/terminus';
import { HEALTH_PROBES, HealthProbe } from './health-probes';
import { HealthReportService } from './health-report.service';

/** `/v1/health` (readiness: the app's own database and Redis) and `/v1/health/live` (liveness: checks nothing). */
@Public()
@Controller('v1/health')
export class HealthController {
  constructor(
    private readonly reports: HealthReportService,
    @Inject(HEALTH_PROBES) private readonly probes: HealthProbe[],
  ) {}

  @Get()
  async readiness(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthCheckResult> {
    const answer = await this.reports.report(this.probes);
    void reply.status(answer.statusCode);
    return answer.body;
  }

  @Get('live')
  liveness(): { status: 'ok' } {
    return { status: 'ok' };
  }
}

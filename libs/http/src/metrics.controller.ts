import { Controller, Get, Header } from '@nestjs/common';
import { AppMetrics } from '@game-wallet/observability';

/** Prometheus text exposition of the app's metrics. */
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: AppMetrics) {}

  @Get()
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}

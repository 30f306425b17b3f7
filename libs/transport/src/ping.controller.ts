import { Controller, Type } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { PATTERNS, PingResponse, ServiceName } from '@game-wallet/contracts';

/** The `<service>.ping` handler every service answers (used by the gateway's `/v1/health/services`). */
export function pingControllerFor(service: ServiceName): Type<unknown> {
  @Controller()
  class PingController {
    @MessagePattern(PATTERNS[service].ping)
    ping(): PingResponse {
      return { service, status: 'ok' };
    }
  }
  return PingController;
}

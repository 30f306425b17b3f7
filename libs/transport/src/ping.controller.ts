import { Controller, Type } from '@nestjs/common';
import { PATTERNS, PingResponse, ServiceName } from '@game-wallet/contracts';
import { Handles } from './handles.decorator';

/** The `<service>.ping` handler every service answers (used by the gateway's `/v1/health/services`). */
export function pingControllerFor(service: ServiceName): Type<unknown> {
  @Controller()
  class PingController {
    @Handles(PATTERNS[service].ping)
    ping(): PingResponse {
      return { service, status: 'ok' };
    }
  }
  return PingController;
}

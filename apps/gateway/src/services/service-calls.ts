import { Inject, Injectable } from '@nestjs/common';
import { ServiceCaller } from '@game-wallet/auth';
import { Pattern, RequestOf, ResponseOf } from '@game-wallet/contracts';
import { RedisStreamsClient } from '@game-wallet/transport';
import { GatewayConfig } from '../config';
import { GATEWAY_CONFIG } from '../gateway-config.token';

/**
 * The one way gateway routes reach a service: a typed call on a message pattern, carrying the caller's principal and
 * the request id, bounded by the service deadline. Failures arrive as `AppError`s and become the SPEC error body in the
 * exception filter.
 */
@Injectable()
export class ServiceCalls {
  constructor(
    private readonly transport: RedisStreamsClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  call<P extends Pattern>(
    pattern: P,
    payload: RequestOf<P>,
    { principal, requestId }: ServiceCaller,
    timeoutMs?: number,
  ): Promise<ResponseOf<P>> {
    return this.transport.call(pattern, { payload, principal }, {
      requestId,
      timeoutMs: timeoutMs ?? this.config.serviceDeadlineMs,
    });
  }
}

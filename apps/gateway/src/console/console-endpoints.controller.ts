import { Controller, Get, Inject, Req } from '@nestjs/common';
import { Authenticated } from '@game-wallet/auth';
import { ConsoleEndpointsView } from '@game-wallet/contracts';
import type { FastifyRequest } from 'fastify';
import { GatewayConfig } from '../config';
import { GATEWAY_CONFIG } from '../gateway-config.token';

/**
 * The platform's public addresses for the console's examples: `PUBLIC_BASE_URL`/`PUBLIC_CORE_URL` when set, else the
 * address the console was opened at and, for core_url, the same host on the core port.
 */
export function publicEndpoints(config: GatewayConfig, request: FastifyRequest): ConsoleEndpointsView {
  const origin = `${request.protocol}://${request.host}`;
  return {
    baseUrl: config.publicUrls.base ?? origin,
    coreUrl: config.publicUrls.core ?? `${request.protocol}://${request.hostname}:${config.corePort}`,
  };
}

@Controller('v1/console/endpoints')
@Authenticated({ console: true })
export class ConsoleEndpointsController {
  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  @Get()
  endpoints(@Req() request: FastifyRequest): ConsoleEndpointsView {
    return publicEndpoints(this.config, request);
  }
}

import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppError, Principal } from '@game-wallet/contracts';
import type { FastifyReply } from 'fastify';
import { AUTH_REQUIREMENT, PUBLIC_ROUTE } from '@game-wallet/http';
import { AuthRequirement, AuthenticatedRequest } from './authenticated.decorator';
import { presentedCredentials } from './credentials';
import { GatewayAuth } from './gateway-auth';
import { RateDecision } from './rate-limiter';

/**
 * The global guard of the gateway: authenticates per the route's `@Authenticated`, then applies the rate limit
 * (429 comes after 401/403 and before validation, SPEC §2), and leaves the principal on the request. A route with
 * neither `@Authenticated` nor `@Public` is refused: forgetting the decorator cannot open a route.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly logger = new Logger(AuthGuard.name);

  constructor(
    private readonly reflector: Reflector,
    private readonly auth: GatewayAuth,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const requirement = this.reflector.getAllAndOverride<AuthRequirement | typeof PUBLIC_ROUTE | undefined>(AUTH_REQUIREMENT, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (requirement === PUBLIC_ROUTE) {
      return true;
    }
    if (requirement === undefined) {
      this.logger.error(`Route ${context.getClass().name}.${context.getHandler().name} has no @Authenticated or @Public`);
      throw new AppError('FORBIDDEN', 'This route is not available');
    }
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    this.auth.refuseBlockedClient(() => request.ip);
    // Both steps answer synchronously in the common case (cached key, tokens in the local lease).
    let principal: Principal;
    try {
      const authenticated = this.auth.authenticate(presentedCredentials(request), requirement);
      principal = authenticated instanceof Promise ? await authenticated : authenticated;
    } catch (error) {
      return this.auth.failedAuthentication(request.ip, error);
    }
    // An operator's actions are audited with the address they came from (as the trusted proxies saw it).
    request.principal = principal.kind === 'operator' ? { ...principal, ip: request.ip } : principal;
    const limited = this.auth.rateLimit(principal);
    applyRateDecision(limited instanceof Promise ? await limited : limited, http.getResponse<FastifyReply>(), 'Too many requests; slow down');
    return true;
  }
}

/**
 * A 429 `RATE_LIMITED` (with `Retry-After`) when the decision refuses. RateLimit-* go with every 429 and with every
 * answer once less than half the burst is left: a client nearing its limit can pace itself, and one far from it does
 * not pay for three headers on each response.
 */
export function applyRateDecision(decision: RateDecision | undefined, reply: FastifyReply, message: string): void {
  if (decision && (!decision.allowed || decision.remaining * 2 < decision.limit)) {
    void reply.headers({ 'ratelimit-limit': decision.limit, 'ratelimit-remaining': decision.remaining, 'ratelimit-reset': decision.reset });
    if (!decision.allowed) {
      throw new AppError('RATE_LIMITED', message, decision.retryAfter);
    }
  }
}

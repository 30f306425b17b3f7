import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { GatewayAuth, applyRateDecision } from '@game-wallet/auth';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * SPEC §11: signing requests per wallet (`RATE_LIMIT_SIGN_PER_WALLET_RPS`), whatever credential asks, besides the
 * per-key and per-JWT limits the authentication guard applies first. Over it: 429 `RATE_LIMITED` with `Retry-After`.
 */
@Injectable()
export class SigningRateGuard implements CanActivate {
  constructor(private readonly auth: GatewayAuth) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const { walletId } = http.getRequest<FastifyRequest<{ Params: { walletId: string } }>>().params;
    const limited = this.auth.limitSigning(walletId);
    applyRateDecision(limited instanceof Promise ? await limited : limited, http.getResponse<FastifyReply>(), 'Too many signing requests for this wallet; slow down');
    return true;
  }
}

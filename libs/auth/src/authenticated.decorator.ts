import { ExecutionContext, SetMetadata, createParamDecorator } from '@nestjs/common';
import { Principal } from '@game-wallet/contracts';
import { AUTH_REQUIREMENT } from '@game-wallet/http';
import type { FastifyRequest } from 'fastify';

/** Which credentials a route accepts. */
export interface AuthRequirement {
  /** `x-api-key` of the game */
  apiKey?: boolean;
  /** a profile JWT (`Authorization: Bearer`) */
  profile?: boolean;
  /** a console session (cookie `console_session` or a console token as Bearer) */
  console?: boolean;
}

/** The credentials a route accepts; the global guard authenticates, rate-limits and sets the principal. */
export const Authenticated = (requirement: AuthRequirement): MethodDecorator & ClassDecorator =>
  SetMetadata(AUTH_REQUIREMENT, requirement);

export type AuthenticatedRequest = FastifyRequest & { principal?: Principal };

/** The authenticated caller of this request. */
export const CurrentPrincipal = createParamDecorator((_: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) {
    throw new Error('CurrentPrincipal used on a route without @Authenticated');
  }
  return principal;
});

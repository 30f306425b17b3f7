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
  /**
   * The route signs with a wallet, or mints a credential that can (a profile JWT): an API key that requires signed
   * requests for `signing` routes must sign requests to it.
   */
  signing?: boolean;
}

/** The credentials a route accepts; the global guard authenticates, rate-limits and sets the principal. */
export const Authenticated = (requirement: AuthRequirement): MethodDecorator & ClassDecorator =>
  SetMetadata(AUTH_REQUIREMENT, requirement);

export type AuthenticatedRequest = FastifyRequest & { principal?: Principal };

/** Whom a service call is made for: the request's principal, and its id (which every service logs on the way). */
export interface ServiceCaller {
  principal: Principal;
  requestId: string;
}

/**
 * The caller of this request, as `ServiceCalls` takes it: the authenticated principal and the request id. A route
 * without `@Authenticated` has no principal (using `@Caller()` there is a programming error); `@Caller('system')` on a
 * public route (sign-in, health) calls as the platform itself.
 */
export const Caller = createParamDecorator((as: 'system' | undefined, context: ExecutionContext): ServiceCaller => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  const principal: Principal | undefined = as === 'system' ? { kind: 'system' } : request.principal;
  if (!principal) {
    throw new Error('@Caller() used on a route without @Authenticated');
  }
  return { principal, requestId: request.id };
});

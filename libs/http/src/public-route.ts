import { SetMetadata } from '@nestjs/common';

/** Metadata key of a route's credential requirement (set by `@Public()` here, `@Authenticated()` in libs/auth). */
export const AUTH_REQUIREMENT = 'game-wallet:auth-requirement';
export const PUBLIC_ROUTE = 'public';

/**
 * A route that takes no credential (health, JWKS, documents, console sign-in). The gateway's guard refuses routes that
 * say neither this nor `@Authenticated`; the services, which take no HTTP traffic but health and metrics, have no guard.
 */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(AUTH_REQUIREMENT, PUBLIC_ROUTE);

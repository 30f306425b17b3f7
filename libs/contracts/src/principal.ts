import type { ConsoleRole } from './console-access';
import { AppError } from './app-error';
import { ErrorCode } from './error-codes';

/**
 * Who is calling, as established by the gateway. It travels with every message so that every service query can be
 * scoped by it. A service never trusts an id from a request body over the principal.
 */
export type Principal =
  | { kind: 'apiKey'; applicationId: string; keyId: string }
  | {
      kind: 'profile';
      applicationId: string;
      profileId: string;
      /** `exp` of the presented token (epoch seconds): a token it refreshes may not outlive it. */
      tokenExpiresAt: number;
      /** `akid` of the presented token: the API key that issued the first token of its chain (absent on older tokens). */
      apiKeyId?: string;
    }
  | {
      kind: 'operator';
      operatorId: string;
      sessionId: string;
      /** the client address the gateway saw for this request (the farthest trusted proxy's view, per `TRUST_PROXY`) */
      ip?: string;
      /** the roles the operator acted with, as identity found them (for the audit trail; never trusted as a grant) */
      roles?: ConsoleRole[];
    }
  | { kind: 'system' };

/** How a principal is named in the audit trail (never a secret). */
export function actorOf(principal: Principal): string {
  switch (principal.kind) {
    case 'apiKey':
      return `api-key:${principal.keyId}`;
    case 'profile':
      return `profile:${principal.profileId}`;
    case 'operator':
      return `operator:${principal.operatorId}`;
    case 'system':
      return 'system';
  }
}

/** The game a principal acts for; operators and the system act for none. */
export type OperatorPrincipal = Extract<Principal, { kind: 'operator' }>;
export type ApiKeyPrincipal = Extract<Principal, { kind: 'apiKey' }>;
export type GamePrincipal = Extract<Principal, { kind: 'apiKey' | 'profile' }>;

/** Console operations are for signed-in operators only (403 `FORBIDDEN`). */
export function requireOperator(principal: Principal): OperatorPrincipal {
  if (principal.kind !== 'operator') {
    throw new AppError('FORBIDDEN', 'This operation needs a console session');
  }
  return principal;
}

/** Platform-internal operations (key lookups, usage, revocation lists) come with the system principal. */
export function requireSystem(principal: Principal): void {
  if (principal.kind !== 'system') {
    throw new AppError('FORBIDDEN', 'This operation is for the platform only');
  }
}

/** Operations on a game's data: an API key or a profile token of that game (403 `FORBIDDEN` otherwise). */
export function requireGameCredential(principal: Principal): GamePrincipal {
  if (principal.kind !== 'apiKey' && principal.kind !== 'profile') {
    throw new AppError('FORBIDDEN', 'This operation needs an API key or a profile token');
  }
  return principal;
}

/** Operations a profile token may not do (403 `API_KEY_REQUIRED`, SPEC §2). */
export function requireApiKey(principal: Principal): ApiKeyPrincipal {
  if (principal.kind !== 'apiKey') {
    throw new AppError(principal.kind === 'profile' ? 'API_KEY_REQUIRED' : 'FORBIDDEN', 'This operation needs an API key of the game');
  }
  return principal;
}

/** How a resource names its owners, for {@link requireOwned}. */
export interface Ownership<T> {
  /** The code and message when there is no such resource (404). */
  notFound: [code: ErrorCode, message: string];
  /** The message when it belongs to someone else (403 `FORBIDDEN`). */
  forbidden: string;
  /** The profile the resource belongs to, when a profile token may reach it; without it, only an API key may. */
  profileOf?: (resource: T) => string;
}

/**
 * The one ownership rule of game data: 404 when the resource does not exist (or is not ready: the caller passes
 * null), then 403 `FORBIDDEN` when it belongs to another game or, for a profile token, to another profile. Every
 * service checks a game credential's reach with it, in this order, so no answer tells another game's ids apart.
 */
export function requireOwned<T extends { applicationId: string }>(resource: T | null | undefined, caller: GamePrincipal, ownership: Ownership<T>): T {
  if (!resource) {
    throw new AppError(...ownership.notFound);
  }
  const otherProfile = caller.kind === 'profile' && (ownership.profileOf === undefined || ownership.profileOf(resource) !== caller.profileId);
  if (resource.applicationId !== caller.applicationId || otherProfile) {
    throw new AppError('FORBIDDEN', ownership.forbidden);
  }
  return resource;
}

import { AppError, Principal } from '@game-wallet/contracts';

/** Console operations are for signed-in operators only. */
export function requireOperator(principal: Principal): Extract<Principal, { kind: 'operator' }> {
  if (principal.kind !== 'operator') {
    throw new AppError('FORBIDDEN', 'This operation needs a console session');
  }
  return principal;
}

/** Gateway-internal operations (key lookups, usage) come with the system principal. */
export function requireSystem(principal: Principal): void {
  if (principal.kind !== 'system') {
    throw new AppError('FORBIDDEN', 'This operation is for the platform only');
  }
}

/** Operations on a game's data: an API key or a profile of that game. */
export function requireGameCredential(principal: Principal): Extract<Principal, { kind: 'apiKey' | 'profile' }> {
  if (principal.kind !== 'apiKey' && principal.kind !== 'profile') {
    throw new AppError('FORBIDDEN', 'This operation needs an API key or a profile token');
  }
  return principal;
}

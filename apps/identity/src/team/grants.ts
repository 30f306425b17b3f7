import { AppError, RoleGrant, isConsoleRole, isUuid, ownerReaches } from '@game-wallet/contracts';

/** The most grants one operator (or invitation) holds. */
export const MAX_GRANTS = 100;

/** The owner grant that makes an operator owner of every game. */
export const OWNER_OF_EVERY_GAME: RoleGrant = { role: 'owner', gameId: null };

/**
 * Grants as a caller sent them, checked for shape (known roles, a game id or null, at most {@link MAX_GRANTS}) and
 * without duplicates. Whether the games exist is the repository's question.
 */
export function checkGrants(grants: readonly unknown[]): RoleGrant[] {
  if (grants.length > MAX_GRANTS) {
    throw new AppError('VALIDATION_FAILED', `At most ${MAX_GRANTS} grants`);
  }
  const unique = new Map<string, RoleGrant>();
  for (const grant of grants) {
    const { role, gameId } = (grant ?? {}) as Partial<RoleGrant>;
    if (!isConsoleRole(role) || (gameId !== null && !isUuid(gameId))) {
      throw new AppError('VALIDATION_FAILED', 'Each grant is {role: owner|admin|developer|support|viewer, gameId: a game id or null for every game}');
    }
    unique.set(grantKey({ role, gameId }), { role, gameId });
  }
  return [...unique.values()];
}

export function grantKey(grant: RoleGrant): string {
  return `${grant.role}:${grant.gameId ?? '*'}`;
}

export function isOwnerOfEveryGame(grants: readonly RoleGrant[]): boolean {
  return grants.some((grant) => grant.role === 'owner' && grant.gameId === null);
}

/** The grants of `grants` the owner with `ownerGrants` may see, give and take away. */
export function reachedGrants(ownerGrants: readonly RoleGrant[], grants: readonly RoleGrant[]): RoleGrant[] {
  return grants.filter((grant) => ownerReaches(ownerGrants, grant));
}

/** Whether the owner reaches every grant of `grants` (what removing or suspending their holder needs). */
export function reachesAll(ownerGrants: readonly RoleGrant[], grants: readonly RoleGrant[]): boolean {
  return grants.every((grant) => ownerReaches(ownerGrants, grant));
}

/**
 * An operator's grants once an owner set the part of them they reach to `wanted`: the grants the owner does not reach
 * stay as they are (the owner does not see them). Refuses (403) a wanted grant outside what the owner reaches.
 */
export function replaceReachedGrants(ownerGrants: readonly RoleGrant[], held: readonly RoleGrant[], wanted: readonly RoleGrant[]): RoleGrant[] {
  if (!reachesAll(ownerGrants, wanted)) {
    throw new AppError('FORBIDDEN', 'You can only give roles in games you own');
  }
  const kept = held.filter((grant) => !ownerReaches(ownerGrants, grant));
  const result = new Map([...kept, ...wanted].map((grant) => [grantKey(grant), grant]));
  if (result.size > MAX_GRANTS) {
    throw new AppError('VALIDATION_FAILED', `At most ${MAX_GRANTS} grants`);
  }
  return [...result.values()];
}

/** `grants` in a stable order (every-game grants first, then by game and role), as views show them. */
export function sortedGrants(grants: readonly RoleGrant[]): RoleGrant[] {
  return [...grants].sort((a, b) => (a.gameId ?? '').localeCompare(b.gameId ?? '') || a.role.localeCompare(b.role));
}

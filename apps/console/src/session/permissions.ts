import { type ConsolePermission, permissionsFor } from '@game-wallet/contracts/console-access';
import type { ConsoleSessionInfo } from '@game-wallet/contracts/views';
import { useMemo } from 'react';
import { useSession } from '../api/queries';

/**
 * What the signed-in operator may do, from the contract's one permission table over their grants: the console hides
 * or disables what they may not (identity refuses it regardless). `gameId` null: what their grants for every game
 * allow (creating games, the team, the instance's settings).
 */
export function usePermissions(gameId: string | null): ReadonlySet<ConsolePermission> {
  const grants = useSession().data?.operator.grants;
  return useMemo(() => new Set(grants ? permissionsFor(grants, gameId) : []), [grants, gameId]);
}

export function useCan(permission: ConsolePermission, gameId: string | null = null): boolean {
  return usePermissions(gameId).has(permission);
}

/** The instance requires two factors and this operator has none yet: they may only set one up. */
export function needsSecondFactor(session: ConsoleSessionInfo): boolean {
  const twoFactor = session.twoFactor;
  return twoFactor !== undefined && twoFactor.required && !twoFactor.totp && twoFactor.passkeys.length === 0;
}

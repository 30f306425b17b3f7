import { CONSOLE_PERMISSIONS, CONSOLE_ROLES, type ConsolePermission, type ConsoleRole, type RoleGrant } from '@game-wallet/contracts/console-access';

export const ROLE_NAMES: Record<ConsoleRole, string> = { owner: 'Owner', admin: 'Admin', developer: 'Developer', support: 'Support', viewer: 'Viewer' };

/** What a role may do, in the permission table's own words. */
export function roleAllows(role: ConsoleRole): string {
  const summaries = (Object.keys(CONSOLE_PERMISSIONS) as ConsolePermission[])
    .filter((permission) => (CONSOLE_PERMISSIONS[permission].roles as readonly ConsoleRole[]).includes(role))
    .map((permission) => CONSOLE_PERMISSIONS[permission].summary);
  return `${ROLE_NAMES[role]}s may ${summaries.join('; ')}.`;
}

/** A game's name for display: its name when the console knows it, else the start of its id. */
export type GameNames = ReadonlyMap<string, string>;
export const gameName = (names: GameNames, gameId: string) => names.get(gameId) ?? `game ${gameId.slice(0, 8)}…`;

/** Grants in words, a role at a time: "Owner · all games", "Developer · Space Miners, Moon Base". */
export function describeGrants(grants: readonly RoleGrant[], names: GameNames): string[] {
  return CONSOLE_ROLES.flatMap((role) => {
    const mine = grants.filter((grant) => grant.role === role);
    if (mine.length === 0) {
      return [];
    }
    const scope = mine.some((grant) => grant.gameId === null)
      ? 'all games'
      : mine
          .map((grant) => gameName(names, grant.gameId as string))
          .sort((a, b) => a.localeCompare(b))
          .join(', ');
    return [`${ROLE_NAMES[role]} · ${scope}`];
  });
}

/** The grants a role-and-scope form means: one for every game, or one per chosen game. */
export interface GrantsDraft {
  role: ConsoleRole;
  scope: 'all' | 'games';
  gameIds: string[];
}

export function grantsOf(draft: GrantsDraft): RoleGrant[] {
  return draft.scope === 'all' ? [{ role: draft.role, gameId: null }] : draft.gameIds.map((gameId) => ({ role: draft.role, gameId }));
}

/** The form's starting point for grants held: the most trusted role, and its scope. */
export function draftOf(grants: readonly RoleGrant[]): GrantsDraft {
  const role = CONSOLE_ROLES.find((candidate) => grants.some((grant) => grant.role === candidate)) ?? 'viewer';
  const mine = grants.filter((grant) => grant.role === role);
  return mine.some((grant) => grant.gameId === null) ? { role, scope: 'all', gameIds: [] } : { role, scope: 'games', gameIds: mine.map((grant) => grant.gameId as string) };
}

/** Whether the grants hold more than one role (the form, one role and scope, replaces them all). */
export const mixedRoles = (grants: readonly RoleGrant[]) => new Set(grants.map((grant) => grant.role)).size > 1;

export function grantsProblem(draft: GrantsDraft): string | null {
  return draft.scope === 'games' && draft.gameIds.length === 0 ? 'Choose at least one game.' : null;
}

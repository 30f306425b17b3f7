import { CONSOLE_ROLES, type ConsoleRole, type RoleGrant, ownerReaches } from '@game-wallet/contracts/console-access';
import { useSession } from '../api/queries';
import { CheckboxGroup, RadioGroup, SelectField } from '../ui/form';
import { type GameNames, type GrantsDraft, ROLE_NAMES, gameName, grantsOf, grantsProblem, roleAllows } from './grants';

/** Whether the signed-in operator owns every game (only they may give a role for all games). */
export function useOwnsAllGames(): boolean {
  const mine = useSession().data?.operator.grants ?? [];
  return ownerReaches(mine, { role: 'owner', gameId: null });
}

/** The grants the form means for this operator: one who owns only some games gives roles for chosen games only. */
export function useGrantsFor(draft: GrantsDraft): RoleGrant[] {
  return grantsOf(useOwnsAllGames() ? draft : { ...draft, scope: 'games' });
}

/**
 * A role, and the games it is for: every game, or the games chosen. An owner of listed games is offered only those
 * (identity refuses grants beyond what the owner holds regardless).
 */
export function GrantsFields({ value, onChange, names, tried }: { value: GrantsDraft; onChange: (value: GrantsDraft) => void; names: GameNames; tried: boolean }) {
  const mine = useSession().data?.operator.grants ?? [];
  const ownsAll = useOwnsAllGames();
  const games = [...names.keys()].filter((gameId) => ownerReaches(mine, { role: value.role, gameId }));
  const problem = tried ? grantsProblem(value) : null;
  return (
    <>
      <SelectField<ConsoleRole>
        label="Role"
        value={value.role}
        options={CONSOLE_ROLES.map((role) => ({ value: role, label: ROLE_NAMES[role] }))}
        hint={roleAllows(value.role)}
        onChange={(role) => onChange({ ...value, role })}
      />
      <RadioGroup<GrantsDraft['scope']>
        legend="For"
        value={ownsAll ? value.scope : 'games'}
        options={[
          { value: 'all', label: 'All games, also those created later', disabled: !ownsAll },
          { value: 'games', label: 'Chosen games' },
        ]}
        onChange={(scope) => onChange({ ...value, scope })}
      />
      {value.scope === 'games' || !ownsAll ? (
        games.length === 0 ? (
          <p className="muted">There is no game to choose yet.</p>
        ) : (
          <CheckboxGroup
            legend="Games"
            value={value.gameIds}
            options={games.map((gameId) => ({ value: gameId, label: gameName(names, gameId) }))}
            hint={problem ?? undefined}
            onChange={(gameIds) => onChange({ ...value, scope: 'games', gameIds })}
          />
        )
      ) : null}
    </>
  );
}

import type { ConsolePermission } from '@game-wallet/contracts/console-access';
import type { ReactElement } from 'react';
import { NavLink, Outlet, useParams } from 'react-router';
import { ApiError } from '../api/client';
import { useGame } from '../api/queries';
import { useCan, usePermissions } from '../session/permissions';
import { EmptyState, ErrorState, Loading } from '../ui/states';
import { useCurrentGame } from './game-context';

const TABS: { to: string; label: string; end: boolean; permission: ConsolePermission }[] = [
  { to: '', label: 'Overview', end: true, permission: 'games.read' },
  { to: 'api-keys', label: 'API Keys', end: false, permission: 'apiKeys.read' },
  { to: 'players', label: 'Players', end: false, permission: 'players.read' },
  { to: 'webhooks', label: 'Webhooks', end: false, permission: 'webhooks.read' },
  { to: 'audit', label: 'Audit', end: false, permission: 'audit.read' },
  { to: 'signing-policy', label: 'Signing policy', end: false, permission: 'policy.read' },
];

/** What a game, or a tab, the operator cannot reach shows: the same as one that does not exist (its existence is not told). */
function NoSuchGame() {
  return (
    <EmptyState title="No such game">
      <p>It may have been mistyped. Pick a game from the switcher above.</p>
    </EmptyState>
  );
}

/** A tab shown only to operators whose role for the game allows `permission`. */
export function GameTab({ permission, children }: { permission: ConsolePermission; children: ReactElement }) {
  const game = useCurrentGame();
  return useCan(permission, game.id) ? children : <NoSuchGame />;
}

/** A game: its name and id, and the tabs Overview, API Keys, Players, Webhooks, Audit and Signing policy that the operator's role opens. */
export function GamePage() {
  const gameId = useParams().gameId ?? '';
  const can = usePermissions(gameId);
  const reachable = can.has('games.read');
  const game = useGame(reachable ? gameId : '');
  if (!reachable) {
    return <NoSuchGame />;
  }
  if (game.isPending) {
    return <Loading label="Loading the game…" />;
  }
  if (game.isError) {
    return game.error instanceof ApiError && game.error.status === 404 ? (
      <NoSuchGame />
    ) : (
      <ErrorState error={game.error} retry={() => void game.refetch()} />
    );
  }
  return (
    <>
      <div className="page-header">
        <div>
          <p className="eyebrow">Game</p>
          <h1>{game.data.name}</h1>
        </div>
      </div>
      <nav className="tabs" aria-label="Game sections">
        {TABS.filter((tab) => can.has(tab.permission)).map((tab) => (
          <NavLink key={tab.label} to={tab.to} end={tab.end} className={({ isActive }) => (isActive ? 'tab active' : 'tab')}>
            {tab.label}
          </NavLink>
        ))}
      </nav>
      <section className="tab-panel">
        <Outlet context={game.data} />
      </section>
    </>
  );
}

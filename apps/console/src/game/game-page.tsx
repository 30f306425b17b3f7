import { NavLink, Outlet, useParams } from 'react-router';
import { ApiError } from '../api/client';
import { useGame } from '../api/queries';
import { EmptyState, ErrorState, Loading } from '../ui/states';

const TABS = [
  { to: '', label: 'Overview', end: true },
  { to: 'api-keys', label: 'API Keys', end: false },
  { to: 'players', label: 'Players', end: false },
  { to: 'audit', label: 'Audit', end: false },
  { to: 'signing-policy', label: 'Signing policy', end: false },
];

/** A game: its name and id, and the tabs Overview, API Keys, Players, Audit and Signing policy. */
export function GamePage() {
  const gameId = useParams().gameId ?? '';
  const game = useGame(gameId);
  if (game.isPending) {
    return <Loading label="Loading the game…" />;
  }
  if (game.isError) {
    return game.error instanceof ApiError && game.error.status === 404 ? (
      <EmptyState title="No such game">
        <p>It may have been mistyped. Pick a game from the switcher above.</p>
      </EmptyState>
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
        {TABS.map((tab) => (
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

import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { useGames } from '../api/queries';
import { DateTime } from '../ui/date-time';
import { QueryView } from '../ui/query-view';
import { EmptyState } from '../ui/states';
import { useCan } from '../session/permissions';
import { CreateGameDialog } from './create-game-dialog';

/** The games list with "Create game". */
export function GamesPage() {
  const games = useGames();
  const [creating, setCreating] = useState(false);
  const canCreate = useCan('games.create');
  const heading = useRef<HTMLHeadingElement>(null);
  const items = games.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <>
      <div className="page-header">
        <div>
          <h1 ref={heading} tabIndex={-1}>
            Games
          </h1>
          <p className="muted">Each game has its own API keys, players and wallets.</p>
        </div>
        {canCreate ? (
          <button type="button" className="button primary" onClick={() => setCreating(true)}>
            Create game
          </button>
        ) : null}
      </div>
      <QueryView
        query={games}
        loading="Loading games…"
        isEmpty={(data) => data.pages[0].items.length === 0}
        empty={
          <EmptyState title="No games yet">
            {canCreate ? (
              <>
                <p>Create a game, then add an API key for its game server.</p>
                <button type="button" className="button primary" onClick={() => setCreating(true)}>
                  Create your first game
                </button>
              </>
            ) : (
              <p>None of your roles is for a game yet. Ask an owner of your team to give you one.</p>
            )}
          </EmptyState>
        }
      >
        {() => (
            <div className="card">
              <table className="table">
                <caption className="visually-hidden">Games</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Created</th>
                    <th scope="col" className="numeric">
                      API keys
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((game) => (
                    <tr key={game.id}>
                      <td data-label="Name">
                        <Link to={`/games/${game.id}`} className="strong-link">
                          {game.name}
                        </Link>
                      </td>
                      <td data-label="Created">
                        <DateTime value={game.createdAt} />
                      </td>
                      <td data-label="API keys" className="numeric">
                        {game.apiKeyCount}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {games.hasNextPage ? (
                <div className="table-footer">
                  <button type="button" className="button" onClick={() => void games.fetchNextPage()} disabled={games.isFetchingNextPage}>
                    {games.isFetchingNextPage ? 'Loading…' : 'Show more games'}
                  </button>
                </div>
              ) : null}
            </div>
        )}
      </QueryView>
      {creating ? <CreateGameDialog onClose={() => setCreating(false)} /> : null}
    </>
  );
}

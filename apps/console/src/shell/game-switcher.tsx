import { useCallback, useId, useRef, useState } from 'react';
import { Link, useMatch } from 'react-router';
import { useGame, useGames } from '../api/queries';
import { useCan } from '../session/permissions';
import { useDismiss } from '../ui/use-dismiss';

/**
 * The header's game switcher: a button that opens the list of games (a disclosure of links, so arrow keys and Tab
 * behave as on any list of links). Esc or a click elsewhere closes it.
 */
export function GameSwitcher() {
  const match = useMatch('/games/:gameId/*');
  const gameId = match?.params.gameId;
  const games = useGames();
  const reachable = useCan('games.read', gameId ?? null);
  const current = useGame(gameId && reachable ? gameId : '');
  const [open, setOpen] = useState(false);
  const listId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, close, root, button);

  const items = games.data?.pages.flatMap((page) => page.items) ?? [];
  const label = gameId ? (current.data?.name ?? 'Game') : 'All games';
  return (
    <div className="switcher" ref={root}>
      <button
        ref={button}
        type="button"
        className="switcher-button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((value) => !value)}
      >
        <span className="switcher-caption">Game</span>
        <span className="switcher-name">{label}</span>
        <span aria-hidden="true" className="chevron">
          ▾
        </span>
      </button>
      <div id={listId} className="switcher-list" hidden={!open}>
        <ul>
          <li>
            <Link to="/" onClick={() => setOpen(false)} aria-current={gameId ? undefined : 'page'}>
              All games
            </Link>
          </li>
          {items.map((game) => (
            <li key={game.id}>
              <Link to={`/games/${game.id}`} onClick={() => setOpen(false)} aria-current={game.id === gameId ? 'page' : undefined}>
                {game.name}
              </Link>
            </li>
          ))}
        </ul>
        {games.hasNextPage ? (
          <button type="button" className="link-button" onClick={() => void games.fetchNextPage()}>
            More games…
          </button>
        ) : null}
      </div>
    </div>
  );
}

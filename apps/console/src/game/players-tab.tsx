import { type FormEvent, useState } from 'react';
import type { ConsolePlayerView } from '@game-wallet/contracts/views';
import { usePlayers } from '../api/queries';
import { CopyButton } from '../ui/copy-button';
import { useCursorPages } from '../ui/cursor-pages';
import { DateTime } from '../ui/date-time';
import { Pager } from '../ui/pager';
import { QueryView, SectionHeader } from '../ui/query-view';
import { EmptyState } from '../ui/states';
import { CHAINS } from './chains';
import { useCurrentGame } from './game-context';
import { PlayerDrawer } from './player-drawer';

/** The game's players, newest first, found by their exact uniqueId, each with its wallet's addresses. */
export function PlayersTab() {
  const game = useCurrentGame();
  const [draft, setDraft] = useState('');
  const [uniqueId, setUniqueId] = useState('');
  const pages = useCursorPages();
  const players = usePlayers(game.id, uniqueId, pages.cursor);
  const [open, setOpen] = useState<ConsolePlayerView | null>(null);

  const search = (event: FormEvent) => {
    event.preventDefault();
    setUniqueId(draft.trim());
    pages.reset();
  };
  const clear = () => {
    setDraft('');
    setUniqueId('');
    pages.reset();
  };

  return (
    <div className="stack">
      <SectionHeader title="Players">Players your game server created, each with one profile and one wallet.</SectionHeader>
      <form className="search" role="search" onSubmit={search}>
        <label className="field inline">
          <span>Search by uniqueId</span>
          <input type="search" name="uniqueId" value={draft} onChange={(event) => setDraft(event.target.value)} placeholder="exact uniqueId" />
        </label>
        <button type="submit" className="button">
          Search
        </button>
        {uniqueId !== '' ? (
          <button type="button" className="button ghost" onClick={clear}>
            Show all
          </button>
        ) : null}
      </form>
      <QueryView
        query={players}
        loading="Loading players…"
        isEmpty={(page) => page.items.length === 0}
        empty={
          <EmptyState title={uniqueId ? `No player with uniqueId “${uniqueId}”` : 'No players yet'}>
            {uniqueId ? null : <p>Your game server creates players with an API key: see the example on the Overview tab.</p>}
          </EmptyState>
        }
      >
        {(page) => (
            <div className="card">
              <table className="table players">
                <caption className="visually-hidden">Players of {game.name}</caption>
                <thead>
                  <tr>
                    <th scope="col">Player</th>
                    <th scope="col">Created</th>
                    {CHAINS.map((chain) => (
                      <th scope="col" key={chain.id}>
                        {chain.label}
                      </th>
                    ))}
                    <th scope="col">
                      <span className="visually-hidden">Details</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {page.items.map((player) => (
                    <tr key={player.id}>
                      <td data-label="Player">
                        <span className="cell-stack">
                          <span className="strong wrap">{player.uniqueId}</span>
                          <code className="muted small">{player.id}</code>
                        </span>
                      </td>
                      <td data-label="Created">
                        <DateTime value={player.createdAt} />
                      </td>
                      {CHAINS.map((chain) => (
                        <td data-label={chain.label} key={chain.id}>
                          {player.addresses ? (
                            <span className="address">
                              <code title={player.addresses[chain.id]}>{player.addresses[chain.id]}</code>
                              <CopyButton value={player.addresses[chain.id]} label={`${chain.label} address of ${player.uniqueId}`} compact />
                            </span>
                          ) : (
                            <span className="muted">pending</span>
                          )}
                        </td>
                      ))}
                      <td className="actions">
                        <button type="button" className="button" aria-label={`Details of ${player.uniqueId}`} onClick={() => setOpen(player)}>
                          Details
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <Pager
                label="Players pages"
                page={pages.page}
                hasPrevious={pages.hasPrevious}
                nextCursor={page.nextCursor}
                onPrevious={pages.previous}
                onNext={pages.next}
              />
            </div>
        )}
      </QueryView>
      {open ? <PlayerDrawer player={open} onClose={() => setOpen(null)} /> : null}
    </div>
  );
}

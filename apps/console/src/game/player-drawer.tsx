import { useState } from 'react';
import type { ConsolePlayerView } from '@game-wallet/contracts/views';
import { CopyButton } from '../ui/copy-button';
import { DateTime } from '../ui/date-time';
import { Dialog } from '../ui/dialog';
import { formatJson, safeImageUrl } from '../ui/format';
import { CHAINS } from './chains';

/** A player's details: ids, wallet addresses, image and `userData` (as text; nothing a game stored is run as markup). */
export function PlayerDrawer({ player, onClose }: { player: ConsolePlayerView; onClose: () => void }) {
  const image = safeImageUrl(player.image);
  const [imageFailed, setImageFailed] = useState(false);
  return (
    <Dialog title={`Player ${player.uniqueId}`} onClose={onClose} variant="drawer">
      <div className="drawer-content">
        {image && !imageFailed ? (
          <img
            className="player-image"
            src={image}
            alt={`Image of player ${player.uniqueId}`}
            referrerPolicy="no-referrer"
            onError={() => setImageFailed(true)}
          />
        ) : image ? (
          <p className="muted">The image could not be loaded.</p>
        ) : player.image ? (
          <p className="muted">The image URL is not an http(s) address, so it is not shown.</p>
        ) : null}
        <dl className="facts">
          <div>
            <dt>uniqueId</dt>
            <dd className="wrap">{player.uniqueId}</dd>
          </div>
          <div>
            <dt>Player id</dt>
            <dd>
              <code>{player.id}</code> <CopyButton value={player.id} label="player id" compact />
            </dd>
          </div>
          <div>
            <dt>Profile id</dt>
            <dd>
              <code>{player.profileId}</code> <CopyButton value={player.profileId} label="profile id" compact />
            </dd>
          </div>
          <div>
            <dt>Wallet id</dt>
            <dd>
              <code>{player.walletId}</code> <CopyButton value={player.walletId} label="wallet id" compact />
            </dd>
          </div>
          <div>
            <dt>Created</dt>
            <dd>
              <DateTime value={player.createdAt} />
            </dd>
          </div>
          {player.image ? (
            <div>
              <dt>Image URL</dt>
              <dd className="wrap">{player.image}</dd>
            </div>
          ) : null}
        </dl>
        <h3>Wallet addresses</h3>
        {player.addresses ? (
          <dl className="facts">
            {CHAINS.map((chain) => (
              <div key={chain.id}>
                <dt>{chain.label}</dt>
                <dd>
                  <code className="wrap">{player.addresses?.[chain.id]}</code>{' '}
                  <CopyButton value={player.addresses?.[chain.id] ?? ''} label={`${chain.label} address`} compact />
                </dd>
              </div>
            ))}
          </dl>
        ) : (
          <p className="muted">The wallet is not ready yet.</p>
        )}
        <h3>userData</h3>
        <pre className="json" tabIndex={0} role="region" aria-label="userData as JSON">
          <code>{formatJson(player.userData)}</code>
        </pre>
      </div>
    </Dialog>
  );
}

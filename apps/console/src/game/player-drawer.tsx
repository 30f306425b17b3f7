import { useState } from 'react';
import type { ConsolePlayerView } from '@game-wallet/contracts/views';
import { DateTime } from '../ui/date-time';
import { Dialog } from '../ui/dialog';
import { CopyFact, Fact } from '../ui/facts';
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
          <Fact label="uniqueId">
            <span className="wrap">{player.uniqueId}</span>
          </Fact>
          <CopyFact label="Player id" value={player.id} copyLabel="player id" />
          <CopyFact label="Profile id" value={player.profileId} copyLabel="profile id" />
          <CopyFact label="Wallet id" value={player.walletId} copyLabel="wallet id" />
          <Fact label="Created">
            <DateTime value={player.createdAt} />
          </Fact>
          {player.image ? (
            <Fact label="Image URL">
              <span className="wrap">{player.image}</span>
            </Fact>
          ) : null}
        </dl>
        <h3>Wallet addresses</h3>
        {player.addresses ? (
          <dl className="facts">
            {CHAINS.map((chain) => (
              <CopyFact key={chain.id} label={chain.label} value={player.addresses?.[chain.id] ?? ''} copyLabel={`${chain.label} address`} />
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

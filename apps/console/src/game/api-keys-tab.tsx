import { useRef, useState } from 'react';
import type { ApiKeyView } from '@game-wallet/contracts/views';
import { ApiError } from '../api/client';
import { useApiKeys, useSetKeyActive } from '../api/queries';
import { DateTime } from '../ui/date-time';
import { QueryView, SectionHeader } from '../ui/query-view';
import { EmptyState } from '../ui/states';
import { useToast } from '../ui/toasts';
import { AddKeyDialog } from './add-key-dialog';
import { DeleteKeyDialog } from './delete-key-dialog';
import { usePermissions } from '../session/permissions';
import { useCurrentGame } from './game-context';
import { RequestSigningDrawer, SignedRequestsBadge } from './request-signing-drawer';

/** The Active/Inactive switch of a key: flips at once, and flips back with a message when the platform refuses. */
function KeySwitch({ gameId, apiKey, allowed }: { gameId: string; apiKey: ApiKeyView; allowed: boolean }) {
  const setActive = useSetKeyActive(gameId);
  const notify = useToast();
  const toggle = () =>
    setActive.mutate(
      { keyId: apiKey.id, active: !apiKey.active },
      {
        onSuccess: (updated) => notify(`API key “${updated.name}” ${updated.active ? 'activated' : 'deactivated'}`),
        onError: (error) => notify(error instanceof ApiError ? `Not changed: ${error.message}` : 'Not changed: the platform could not be reached', 'error'),
      },
    );
  return (
    <span className="switch-field">
      <button type="button" role="switch" aria-checked={apiKey.active} aria-label={`Active: ${apiKey.name}`} className="switch" disabled={!allowed} onClick={toggle}>
        <span className="switch-thumb" aria-hidden="true" />
      </button>
      <span className={apiKey.active ? 'badge on' : 'badge off'} aria-hidden="true">
        {apiKey.active ? 'Active' : 'Inactive'}
      </span>
    </span>
  );
}

/**
 * The game's API keys: list, "Add API Key", Active/Inactive, which requests must be signed (and their signing keys, in
 * a drawer), delete with confirmation.
 */
export function ApiKeysTab() {
  const game = useCurrentGame();
  const keys = useApiKeys(game.id);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<ApiKeyView | null>(null);
  const [signingOf, setSigningOf] = useState<string | null>(null);
  // The drawer shows the key as the list holds it now (after each change), and goes when the key does.
  const signing = keys.data?.find((item) => item.id === signingOf);
  const addButton = useRef<HTMLButtonElement>(null);
  const can = usePermissions(game.id);

  return (
    <div className="stack">
      <SectionHeader
        title="API Keys"
        action={
          can.has('apiKeys.create') ? (
            <button ref={addButton} type="button" className="button primary" onClick={() => setAdding(true)}>
              Add API Key
            </button>
          ) : undefined
        }
      >
        Game servers send a key in the <code>x-api-key</code> header. Only a preview is kept; the secret is shown once.
      </SectionHeader>
      <QueryView
        query={keys}
        loading="Loading API keys…"
        isEmpty={(items) => items.length === 0}
        empty={
          <EmptyState title="No API keys">
            <p>Add a key so that your game server can create players.</p>
          </EmptyState>
        }
      >
        {(items) => (
          <div className="card">
            <table className="table">
              <caption className="visually-hidden">API keys of {game.name}</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Status</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {items.map((apiKey) => (
                  <tr key={apiKey.id}>
                    <td data-label="Name" className="strong">
                      <div className="cell-stack">
                        <span className="wrap">{apiKey.name}</span>
                        <SignedRequestsBadge setting={apiKey.signedRequests} />
                      </div>
                    </td>
                    <td data-label="Key">
                      <code>{apiKey.preview}</code>
                    </td>
                    <td data-label="Status">
                      <KeySwitch gameId={game.id} apiKey={apiKey} allowed={can.has('apiKeys.update')} />
                    </td>
                    <td data-label="Created">
                      <DateTime value={apiKey.createdAt} />
                    </td>
                    <td data-label="Last used">
                      <DateTime value={apiKey.lastUsedAt} fallback="Never" />
                    </td>
                    <td className="actions">
                      <button type="button" className="button compact" aria-label={`Request signing of ${apiKey.name}`} onClick={() => setSigningOf(apiKey.id)}>
                        Request signing
                      </button>
                      {can.has('apiKeys.delete') ? (
                        <button type="button" className="button danger-ghost" aria-label={`Delete ${apiKey.name}`} onClick={() => setDeleting(apiKey)}>
                          Delete
                        </button>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryView>
      {adding ? <AddKeyDialog gameId={game.id} onClose={() => setAdding(false)} /> : null}
      {signing ? <RequestSigningDrawer gameId={game.id} apiKey={signing} manage={can.has('apiKeys.signing')} onClose={() => setSigningOf(null)} /> : null}
      {deleting ? <DeleteKeyDialog gameId={game.id} apiKey={deleting} onClose={() => setDeleting(null)} returnFocusTo={() => addButton.current} /> : null}
    </div>
  );
}

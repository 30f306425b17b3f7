import { useState } from 'react';
import type { ApiKeyView } from '@game-wallet/contracts/views';
import { ApiError } from '../api/client';
import { useDeleteKey } from '../api/queries';
import { Dialog } from '../ui/dialog';
import { useToast } from '../ui/toasts';

/** Confirms deleting a key, naming it; deleting is final. */
export function DeleteKeyDialog({ gameId, apiKey, onClose, returnFocusTo }: { gameId: string; apiKey: ApiKeyView; onClose: () => void; returnFocusTo: () => HTMLElement | null }) {
  const deleteKey = useDeleteKey(gameId);
  const notify = useToast();
  const [revokeTokens, setRevokeTokens] = useState(false);
  const remove = () =>
    deleteKey.mutate({ keyId: apiKey.id, revokeTokens }, {
      onSuccess: () => {
        notify(`API key “${apiKey.name}” deleted`);
        onClose();
      },
    });
  return (
    <Dialog title={`Delete API key “${apiKey.name}”?`} onClose={onClose} returnFocusTo={returnFocusTo}>
      <p>
        Game servers that use <code>{apiKey.preview}</code> are refused at once (401), and the key cannot be restored.
      </p>
      <label className="check">
        <input type="checkbox" checked={revokeTokens} onChange={(event) => setRevokeTokens(event.target.checked)} />
        <span>
          Also revoke the profile tokens this key issued
          <span className="hint block">
            {revokeTokens
              ? 'Players signed in through this key must authenticate again (for a leaked key).'
              : 'Left unticked, they stay valid until they expire (for a routine key rotation).'}
          </span>
        </span>
      </label>
      {deleteKey.error ? (
        <p className="form-error" role="alert">
          {deleteKey.error instanceof ApiError ? deleteKey.error.message : 'The key could not be deleted.'}
        </p>
      ) : null}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose} autoFocus>
          Cancel
        </button>
        <button type="button" className="button danger" onClick={remove} disabled={deleteKey.isPending}>
          {deleteKey.isPending ? 'Deleting…' : 'Delete key'}
        </button>
      </div>
    </Dialog>
  );
}

import { type FormEvent, useId, useState } from 'react';
import type { CreatedApiKeyView } from '@game-wallet/contracts/views';
import { ApiError } from '../api/client';
import { useCreateKey } from '../api/queries';
import { nameProblem } from '../games/game-name';
import { SecretField } from '../ui/copy-button';
import { NameField } from '../games/name-field';
import { Dialog } from '../ui/dialog';
import { DialogActions, FormError } from '../ui/form';
import { useToast } from '../ui/toasts';

/**
 * "Add API Key": an optional name, then the new secret, shown this once. The secret lives only in this dialog's
 * state: closing the dialog unmounts it and the secret is gone from the page.
 */
export function AddKeyDialog({ gameId, onClose }: { gameId: string; onClose: () => void }) {
  const createKey = useCreateKey(gameId);
  const notify = useToast();
  const [name, setName] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedApiKeyView | null>(null);
  const problem = nameProblem(name, false);
  const warningId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (problem) {
      return;
    }
    setPending(true);
    setError(null);
    try {
      const key = await createKey(name.trim() === '' ? undefined : name.trim());
      setCreated(key);
      notify(`API key “${key.name}” created`);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'The key could not be created.');
    } finally {
      setPending(false);
    }
  };

  if (created) {
    return (
      <Dialog title="Your new API key" onClose={onClose}>
        <p id={warningId} className="callout warning">
          Copy this key now and keep it with your game server's secrets: <strong>this key will not be shown again</strong>.
        </p>
        <SecretField label={`Secret key for “${created.name}”`} value={created.key} copyLabel="secret key" warningId={warningId} />
        <div className="dialog-actions">
          <button type="button" className="button primary" onClick={onClose} autoFocus>
            Done
          </button>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog title="Add API Key" onClose={onClose} description="A key gives a game server access to this game's players, profiles and wallets.">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <NameField
          label={
            <>
              Key name <span className="muted">(optional)</span>
            </>
          }
          value={name}
          problem={problem}
          placeholder="e.g. production game server"
          onChange={setName}
        />
        <FormError message={error} />
        <DialogActions onCancel={onClose} pending={pending} disabled={problem !== null}>
          Create key
        </DialogActions>
      </form>
    </Dialog>
  );
}

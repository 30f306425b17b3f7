import type { ConsoleAccountView, PasskeyView } from '@game-wallet/contracts/console-access';
import { type FormEvent, useRef, useState } from 'react';
import { useTwoFactorCalls } from '../api/account';
import { ApiError } from '../api/client';
import { passkeyProblem } from '../session/passkeys';
import { DateTime } from '../ui/date-time';
import { Dialog } from '../ui/dialog';
import { DialogActions, FormError, TextField } from '../ui/form';
import { useToast } from '../ui/toasts';
import { AccountSection } from './account-section';

export const PASSKEY_NAME_MAX = 100;

/** A name, then the browser's own passkey prompt; the new passkey is listed once the platform registered it. */
function AddPasskeyDialog({ onClose }: { onClose: () => void }) {
  const calls = useTwoFactorCalls();
  const notify = useToast();
  const [name, setName] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const trimmed = name.trim();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (trimmed === '' || trimmed.length > PASSKEY_NAME_MAX) {
      setError(trimmed === '' ? 'Name the passkey, e.g. the device that holds it.' : `At most ${PASSKEY_NAME_MAX} characters.`);
      return;
    }
    setPending(true);
    setError(null);
    try {
      const passkey = await calls.addPasskey(trimmed);
      notify(`Passkey “${passkey.name}” added`);
      onClose();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : passkeyProblem(failure));
      setPending(false);
    }
  };
  return (
    <Dialog title="Add a passkey" onClose={onClose} description="Your browser asks you to create it: with this device's screen lock, a security key or your phone.">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <TextField label="Passkey name" value={name} onChange={setName} placeholder="e.g. Work laptop" hint={`What holds it, to tell it apart (1 to ${PASSKEY_NAME_MAX} characters).`} />
        <FormError message={error} />
        <DialogActions onCancel={onClose} pending={pending}>
          Create passkey
        </DialogActions>
      </form>
    </Dialog>
  );
}

function RemovePasskeyDialog({ passkey, onClose, returnFocusTo }: { passkey: PasskeyView; onClose: () => void; returnFocusTo: () => HTMLElement | null }) {
  const calls = useTwoFactorCalls();
  const notify = useToast();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = async () => {
    setPending(true);
    setError(null);
    try {
      await calls.removePasskey(passkey.id);
      notify(`Passkey “${passkey.name}” removed`);
      onClose();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'The passkey was not removed.');
      setPending(false);
    }
  };
  return (
    <Dialog title={`Remove passkey “${passkey.name}”?`} onClose={onClose} returnFocusTo={returnFocusTo}>
      <p>It no longer signs you in or confirms actions. The device keeps it until you delete it there too.</p>
      <FormError message={error} />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose} autoFocus>
          Cancel
        </button>
        <button type="button" className="button danger" onClick={() => void remove()} disabled={pending}>
          {pending ? 'Removing…' : 'Remove passkey'}
        </button>
      </div>
    </Dialog>
  );
}

/** Passkeys as a second factor: listed, added with a name, removed. */
export function PasskeysSection({ account }: { account: ConsoleAccountView }) {
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<PasskeyView | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const passkeys = account.twoFactor.passkeys;
  return (
    <AccountSection
      title="Passkeys"
      intro="A passkey confirms it is you with this device's screen lock or a security key, instead of a code."
      action={
        <button ref={addButton} type="button" className="button" onClick={() => setAdding(true)}>
          Add a passkey
        </button>
      }
    >
      {passkeys.length === 0 ? (
        <p className="muted">No passkey yet.</p>
      ) : (
        <table className="table">
          <caption className="visually-hidden">Your passkeys</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Added</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {passkeys.map((passkey) => (
              <tr key={passkey.id}>
                <td data-label="Name" className="strong">
                  {passkey.name}
                </td>
                <td data-label="Added">
                  <DateTime value={passkey.createdAt} />
                </td>
                <td data-label="Last used">
                  <DateTime value={passkey.lastUsedAt} fallback="Never" />
                </td>
                <td className="actions">
                  <button type="button" className="button danger-ghost" aria-label={`Remove passkey ${passkey.name}`} onClick={() => setRemoving(passkey)}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {adding ? <AddPasskeyDialog onClose={() => setAdding(false)} /> : null}
      {removing ? <RemovePasskeyDialog passkey={removing} onClose={() => setRemoving(null)} returnFocusTo={() => addButton.current} /> : null}
    </AccountSection>
  );
}

import type { ApiKeyView, SigningKeyView } from '@game-wallet/contracts/views';
import { ApiError } from '../api/client';
import { useRemoveSigningKey } from '../api/request-signing';
import { Dialog } from '../ui/dialog';
import { FormError } from '../ui/form';
import { useToast } from '../ui/toasts';

/**
 * Confirms removing a signing key, naming it. The last key of an API key whose requests must be signed stays (the
 * platform keeps it, else every such request would be refused): the dialog says so and offers no removal.
 */
export function RemoveSigningKeyDialog({
  gameId,
  apiKey,
  signingKey,
  onClose,
  returnFocusTo,
}: {
  gameId: string;
  apiKey: ApiKeyView;
  signingKey: SigningKeyView;
  onClose: () => void;
  returnFocusTo: () => HTMLElement | null;
}) {
  const remove = useRemoveSigningKey(gameId);
  const notify = useToast();
  const kept = apiKey.signedRequests !== 'off' && apiKey.signingKeys.length === 1;
  const run = () =>
    remove.mutate(
      { keyId: apiKey.id, signingKeyId: signingKey.id },
      {
        onSuccess: () => {
          notify(`Signing key “${signingKey.name}” removed from “${apiKey.name}”`);
          onClose();
        },
      },
    );
  return (
    <Dialog title={`Remove signing key “${signingKey.name}”?`} onClose={onClose} returnFocusTo={returnFocusTo}>
      {kept ? (
        <p>
          Requests with “{apiKey.name}” must be signed, and this is its only signing key. Turn signed requests off first, or add another key.
        </p>
      ) : (
        <p>
          Its signatures (keyid <code className="wrap">{signingKey.id}</code>) are no longer accepted from now on; to use it again, add it again.
        </p>
      )}
      <FormError message={remove.error ? (remove.error instanceof ApiError ? remove.error.message : 'The signing key could not be removed.') : null} />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose} autoFocus>
          {kept ? 'Close' : 'Cancel'}
        </button>
        {kept ? null : (
          <button type="button" className="button danger" onClick={run} disabled={remove.isPending}>
            {remove.isPending ? 'Removing…' : 'Remove signing key'}
          </button>
        )}
      </div>
    </Dialog>
  );
}

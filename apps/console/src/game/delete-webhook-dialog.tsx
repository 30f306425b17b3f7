import type { WebhookEndpointView } from '@game-wallet/contracts/webhooks';
import { ApiError } from '../api/client';
import { useDeleteWebhook } from '../api/webhooks';
import { Dialog } from '../ui/dialog';
import { useToast } from '../ui/toasts';
import { endpointName } from './webhook-form';

/** Confirms deleting an endpoint, naming it; deleting is final and takes its delivery log with it. */
export function DeleteWebhookDialog({ gameId, endpoint, onClose, returnFocusTo }: { gameId: string; endpoint: WebhookEndpointView; onClose: () => void; returnFocusTo: () => HTMLElement | null }) {
  const deleteWebhook = useDeleteWebhook(gameId);
  const notify = useToast();
  const name = endpointName(endpoint);
  const remove = () =>
    deleteWebhook.mutate(endpoint.id, {
      onSuccess: () => {
        notify(`Webhook endpoint “${name}” deleted`);
        onClose();
      },
    });
  return (
    <Dialog title={`Delete webhook endpoint “${name}”?`} onClose={onClose} returnFocusTo={returnFocusTo}>
      <p>
        No event is sent to <code className="wrap">{endpoint.url}</code> from now on, not even those still being retried. Its delivery log is deleted with it, and the endpoint
        cannot be restored.
      </p>
      {deleteWebhook.error ? (
        <p className="form-error" role="alert">
          {deleteWebhook.error instanceof ApiError ? deleteWebhook.error.message : 'The endpoint could not be deleted.'}
        </p>
      ) : null}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose} autoFocus>
          Cancel
        </button>
        <button type="button" className="button danger" onClick={remove} disabled={deleteWebhook.isPending}>
          {deleteWebhook.isPending ? 'Deleting…' : 'Delete endpoint'}
        </button>
      </div>
    </Dialog>
  );
}

import { type FormEvent, useState } from 'react';
import { WEBHOOK_LIMITS, type CreatedWebhookEndpointView, type WebhookEndpointView } from '@game-wallet/contracts/webhooks';
import { ApiError } from '../api/client';
import { useRotateWebhookSecret } from '../api/webhooks';
import { Dialog } from '../ui/dialog';
import { DialogActions, FormError, SelectField } from '../ui/form';
import { formatDateTime } from '../ui/format';
import { useToast } from '../ui/toasts';
import { WebhookSecret } from './webhook-secret';
import { endpointName } from './webhook-form';

/** How long the old secret keeps signing beside the new one, in seconds (the API's default first). */
const OVERLAPS = [
  { value: String(WEBHOOK_LIMITS.rotationOverlapSeconds.default), label: '1 day (the default)' },
  { value: '3600', label: '1 hour' },
  { value: String(WEBHOOK_LIMITS.rotationOverlapSeconds.max), label: '7 days (the most)' },
  { value: '0', label: 'Not at all: it stops at once' },
] as const;

/**
 * "Rotate secret": how long the old secret keeps signing too, then the new secret, shown this once, and until when
 * the old one still signs. The secret lives only in this dialog's state.
 */
export function RotateSecretDialog({ gameId, endpoint, onClose }: { gameId: string; endpoint: WebhookEndpointView; onClose: () => void }) {
  const rotate = useRotateWebhookSecret(gameId);
  const notify = useToast();
  const [overlap, setOverlap] = useState<string>(OVERLAPS[0].value);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [rotated, setRotated] = useState<CreatedWebhookEndpointView | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      setRotated(await rotate(endpoint.id, Number(overlap)));
      notify(`Secret of “${endpointName(endpoint)}” rotated`);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'The secret could not be rotated.');
    } finally {
      setPending(false);
    }
  };

  if (rotated) {
    return (
      <Dialog title="The endpoint's new signing secret" onClose={onClose}>
        <WebhookSecret endpoint={rotated}>
          Give this secret to your game backend now: <strong>it will not be shown again</strong>.{' '}
          {rotated.previousSecretUntil === null ? (
            <>The old secret no longer signs: events are signed with this one only.</>
          ) : (
            <>
              The old secret keeps signing every event too (two signatures) until <strong>{formatDateTime(rotated.previousSecretUntil)}</strong>, so your backend can move to this
              one without missing an event.
            </>
          )}
        </WebhookSecret>
        <div className="dialog-actions">
          <button type="button" className="button primary" onClick={onClose} autoFocus>
            Done
          </button>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog title={`Rotate the secret of “${endpointName(endpoint)}”?`} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <p>A new secret signs every event from now on. The new secret is shown once.</p>
        <SelectField
          label="The old secret keeps signing for"
          hint="Meanwhile each event carries both signatures, so your backend verifies with either."
          value={overlap}
          options={OVERLAPS}
          onChange={setOverlap}
        />
        <FormError message={error} />
        <DialogActions onCancel={onClose} pending={pending}>
          Rotate secret
        </DialogActions>
      </form>
    </Dialog>
  );
}

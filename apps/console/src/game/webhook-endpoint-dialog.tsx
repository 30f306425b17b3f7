import { type FormEvent, useId, useState } from 'react';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_LIMITS, type CreatedWebhookEndpointView, type WebhookEndpointView, type WebhookEventType } from '@game-wallet/contracts/webhooks';
import { ApiError } from '../api/client';
import { useCreateWebhook, useUpdateWebhook } from '../api/webhooks';
import { DateTime } from '../ui/date-time';
import { Dialog } from '../ui/dialog';
import { DialogActions, FieldError, FormError } from '../ui/form';
import { useToast } from '../ui/toasts';
import { WebhookSecret } from './webhook-secret';
import { EMPTY_WEBHOOK_FORM, type WebhookForm, changesOf, descriptionProblem, endpointName, eventTypesProblem, formOf, inputOf, urlProblem } from './webhook-form';

/** The event types as checkboxes, after an "All events" box that stands for every one (those added later too). */
function EventTypesField({ form, problem, onChange }: { form: WebhookForm; problem: string | null; onChange: (change: Partial<WebhookForm>) => void }) {
  const hintId = useId();
  const errorId = useId();
  const toggle = (type: WebhookEventType, checked: boolean) => onChange({ types: WEBHOOK_EVENT_TYPES.filter((item) => (item === type ? checked : form.types.includes(item))) });
  return (
    <fieldset className="choices" aria-describedby={problem ? `${hintId} ${errorId}` : hintId}>
      <legend>Events</legend>
      <label className="check">
        <input type="checkbox" checked={form.all} onChange={(event) => onChange({ all: event.target.checked })} />
        <span>
          All events
          <span className="hint block">Every event type, including those the platform adds later.</span>
        </span>
      </label>
      <div className="event-types">
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <label key={type} className="check">
            <input type="checkbox" checked={form.all || form.types.includes(type)} disabled={form.all} onChange={(event) => toggle(type, event.target.checked)} />
            <code>{type}</code>
          </label>
        ))}
      </div>
      <p id={hintId} className="muted small">
        Each event is sent as an HTTP POST, signed with the endpoint's secret (Standard Webhooks).
      </p>
      <FieldError id={errorId} message={problem} />
    </fieldset>
  );
}

/** The endpoint's fields: URL, description, events, enabled. Problems show once a field was left or the form sent. */
function EndpointFields({ form, shown, onChange, endpoint }: { form: WebhookForm; shown: boolean; onChange: (change: Partial<WebhookForm>) => void; endpoint?: WebhookEndpointView }) {
  const urlId = useId();
  const urlHintId = useId();
  const urlErrorId = useId();
  const descriptionId = useId();
  const descriptionErrorId = useId();
  const [leftUrl, setLeftUrl] = useState(false);
  const urlError = shown || leftUrl ? urlProblem(form.url) : null;
  const descriptionError = descriptionProblem(form.description);
  return (
    <>
      <div className="field">
        <label htmlFor={urlId}>Endpoint URL</label>
        <input
          id={urlId}
          type="url"
          inputMode="url"
          spellCheck={false}
          autoFocus
          value={form.url}
          placeholder="https://game.example.com/webhooks"
          aria-invalid={urlError ? true : undefined}
          aria-describedby={urlError ? `${urlHintId} ${urlErrorId}` : urlHintId}
          onChange={(event) => onChange({ url: event.target.value })}
          onBlur={() => setLeftUrl(true)}
        />
        <span id={urlHintId} className="muted small">
          Your game backend's address for events: https, on a public address.
        </span>
      </div>
      <FieldError id={urlErrorId} message={urlError} />
      <div className="field">
        <label htmlFor={descriptionId}>
          Description <span className="muted">(optional)</span>
        </label>
        <input
          id={descriptionId}
          value={form.description}
          placeholder="e.g. production game backend"
          aria-invalid={descriptionError ? true : undefined}
          aria-describedby={descriptionError ? descriptionErrorId : undefined}
          onChange={(event) => onChange({ description: event.target.value })}
        />
      </div>
      <FieldError id={descriptionErrorId} message={descriptionError} />
      <EventTypesField form={form} problem={shown ? eventTypesProblem(form) : null} onChange={onChange} />
      <label className="check">
        <input type="checkbox" checked={form.enabled} onChange={(event) => onChange({ enabled: event.target.checked })} />
        <span>
          Enabled
          <span className="hint block">
            {endpoint !== undefined && endpoint.disabledReason !== null && !form.enabled ? (
              <>
                The platform disabled it <DateTime value={endpoint.disabledAt} />: {endpoint.disabledReason}. Ticked, it gets events again and this reason is cleared.
              </>
            ) : (
              'Unticked, no event is sent to it (none is kept for later either).'
            )}
          </span>
        </span>
      </label>
    </>
  );
}

function problemOf(form: WebhookForm): string | null {
  return urlProblem(form.url) ?? descriptionProblem(form.description) ?? eventTypesProblem(form);
}

/**
 * "Add endpoint": its URL, description, events and whether it is enabled, then its signing secret, shown this once.
 * The secret lives only in this dialog's state: closing the dialog unmounts it and the secret is gone from the page.
 */
export function AddWebhookDialog({ gameId, onClose }: { gameId: string; onClose: () => void }) {
  const createWebhook = useCreateWebhook(gameId);
  const notify = useToast();
  const [form, setForm] = useState<WebhookForm>(EMPTY_WEBHOOK_FORM);
  const [shown, setShown] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedWebhookEndpointView | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setShown(true);
    if (problemOf(form)) {
      return;
    }
    setPending(true);
    setError(null);
    try {
      const endpoint = await createWebhook(inputOf(form));
      setCreated(endpoint);
      notify(`Webhook endpoint “${endpointName(endpoint)}” added`);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'The endpoint could not be added.');
    } finally {
      setPending(false);
    }
  };

  if (created) {
    return (
      <Dialog title="Your endpoint's signing secret" onClose={onClose}>
        <WebhookSecret endpoint={created}>
          Your game backend verifies every event with this secret. Copy it now: <strong>this secret will not be shown again</strong>.
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
    <Dialog title="Add webhook endpoint" onClose={onClose} description={`Events of this game are sent to it as they happen (at most ${WEBHOOK_LIMITS.endpointsPerGame} endpoints a game).`}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <EndpointFields form={form} shown={shown} onChange={(change) => setForm((current) => ({ ...current, ...change }))} />
        <FormError message={error} />
        <DialogActions onCancel={onClose} pending={pending}>
          Add endpoint
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** "Edit": saves only the fields changed; ticking Enabled on an endpoint the platform disabled clears its reason. */
export function EditWebhookDialog({ gameId, endpoint, onClose }: { gameId: string; endpoint: WebhookEndpointView; onClose: () => void }) {
  const update = useUpdateWebhook(gameId);
  const notify = useToast();
  const [form, setForm] = useState<WebhookForm>(() => formOf(endpoint));
  const [shown, setShown] = useState(false);
  const change = changesOf(endpoint, form);
  const unchanged = Object.keys(change).length === 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setShown(true);
    if (problemOf(form) || unchanged) {
      return;
    }
    update.mutate(
      { endpointId: endpoint.id, change },
      {
        onSuccess: (updated) => {
          notify(`Webhook endpoint “${endpointName(updated)}” saved`);
          onClose();
        },
      },
    );
  };

  return (
    <Dialog title={`Edit “${endpointName(endpoint)}”`} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <EndpointFields form={form} shown={shown} endpoint={endpoint} onChange={(next) => setForm((current) => ({ ...current, ...next }))} />
        <FormError message={update.error ? (update.error instanceof ApiError ? update.error.message : 'The endpoint could not be saved.') : null} />
        <DialogActions onCancel={onClose} pending={update.isPending} disabled={unchanged}>
          Save
        </DialogActions>
      </form>
    </Dialog>
  );
}

import { type FormEvent, useId, useState } from 'react';
import type { WebhookDeliveryStatus, WebhookDeliveryView, WebhookEndpointView } from '@game-wallet/contracts/webhooks';
import { ApiError } from '../api/client';
import { useRedeliver, useRedeliverFailed, useWebhookDeliveries } from '../api/webhooks';
import { useCursorPages } from '../ui/cursor-pages';
import { DateTime } from '../ui/date-time';
import { FormError, SelectField } from '../ui/form';
import { Pager } from '../ui/pager';
import { QueryView } from '../ui/query-view';
import { EmptyState } from '../ui/states';
import { useToast } from '../ui/toasts';
import { endpointName } from './webhook-form';

const STATUSES = [
  { value: '', label: 'All' },
  { value: 'failed', label: 'Failed' },
  { value: 'pending', label: 'Pending' },
  { value: 'succeeded', label: 'Succeeded' },
] as const;

const STATUS_WORDS: Record<WebhookDeliveryStatus, string> = { pending: 'Pending', succeeded: 'Succeeded', failed: 'Failed' };

/** A date and time as a `datetime-local` input holds it, in the browser's time zone (minutes). */
export function localInputValue(date: Date): string {
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** An event id in short: its end (UUIDv7s of the same minute share their start, the time). */
const shortEventId = (eventId: string) => `…${eventId.slice(-8)}`;

/** What the endpoint answered the last attempt: its HTTP status and first bytes, or why there was no answer. */
function LastAnswer({ delivery }: { delivery: WebhookDeliveryView }) {
  if (delivery.lastAttemptAt === null) {
    return <span className="muted">No attempt yet</span>;
  }
  return (
    <span className="cell-stack">
      <span className="strong">{delivery.responseStatus === null ? 'No answer' : `HTTP ${delivery.responseStatus}`}</span>
      {delivery.responseBody ? <code className="response-body wrap">{delivery.responseBody}</code> : null}
      {delivery.error ? <span className="delivery-error wrap">{delivery.error}</span> : null}
    </span>
  );
}

/** "Redeliver all failed since": every failed delivery of events received since a time, again. */
function RedeliverFailed({ gameId, endpoint }: { gameId: string; endpoint: WebhookEndpointView }) {
  const redeliverFailed = useRedeliverFailed(gameId);
  const notify = useToast();
  const [since, setSince] = useState(() => localInputValue(new Date(Date.now() - 86_400_000)));
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const hintId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const date = new Date(since);
    if (since.trim() === '' || Number.isNaN(date.getTime())) {
      setError('Since: enter a date and time.');
      return;
    }
    redeliverFailed.mutate(
      { endpointId: endpoint.id, since: date.toISOString() },
      {
        onSuccess: ({ scheduled }) => notify(scheduled === 0 ? 'No failed delivery since then' : `${scheduled.toLocaleString()} failed ${scheduled === 1 ? 'delivery' : 'deliveries'} sent again`),
        onError: (failure) => setError(failure instanceof ApiError ? failure.message : 'Not sent again: the platform could not be reached.'),
      },
    );
  };
  return (
    <form className="redeliver-form" onSubmit={submit} noValidate aria-label={`Redeliver failed events of ${endpointName(endpoint)}`}>
      <div className="field">
        <label htmlFor={id}>Failed since</label>
        <input id={id} type="datetime-local" value={since} aria-describedby={hintId} onChange={(event) => setSince(event.target.value)} />
        <span id={hintId} className="muted small">
          In your time zone.
        </span>
      </div>
      <button type="submit" className="button" disabled={redeliverFailed.isPending}>
        {redeliverFailed.isPending ? 'Sending…' : 'Redeliver all failed'}
      </button>
      <FormError message={error} />
    </form>
  );
}

/**
 * An endpoint's delivery log, newest first: each event's status, attempts, next try and the last answer, with
 * "Redeliver" for one event and "Redeliver all failed" since a time (for operators who may deliver).
 */
export function DeliveryLog({ gameId, endpoint, canDeliver, id }: { gameId: string; endpoint: WebhookEndpointView; canDeliver: boolean; id: string }) {
  const [status, setStatus] = useState<WebhookDeliveryStatus | ''>('');
  const pages = useCursorPages();
  const deliveries = useWebhookDeliveries(gameId, endpoint.id, status, pages.cursor);
  const redeliver = useRedeliver(gameId);
  const notify = useToast();
  const name = endpointName(endpoint);
  const again = (delivery: WebhookDeliveryView) =>
    redeliver.mutate(
      { endpointId: endpoint.id, deliveryId: delivery.id },
      {
        onSuccess: () => notify(`${delivery.eventType} sent again`),
        onError: (failure) => notify(failure instanceof ApiError ? `Not sent again: ${failure.message}` : 'Not sent again: the platform could not be reached', 'error'),
      },
    );
  return (
    <section className="delivery-log" id={id} aria-label={`Delivery log of ${name}`}>
      <div className="delivery-tools">
        <SelectField
          label="Status"
          value={status}
          options={STATUSES}
          onChange={(value) => {
            setStatus(value);
            pages.reset();
          }}
        />
        <button type="button" className="button" onClick={() => void deliveries.refetch()} disabled={deliveries.isFetching}>
          {deliveries.isFetching ? 'Refreshing…' : 'Refresh'}
        </button>
        <span className="spacer" />
        {canDeliver ? <RedeliverFailed gameId={gameId} endpoint={endpoint} /> : null}
      </div>
      <QueryView
        query={deliveries}
        loading="Loading deliveries…"
        isEmpty={(page) => page.items.length === 0}
        empty={<EmptyState title={status === '' ? 'No event sent yet' : `No ${STATUS_WORDS[status].toLowerCase()} delivery`} />}
      >
        {(page) => (
          <>
            <table className="table deliveries">
              <caption className="visually-hidden">Deliveries to {name}</caption>
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="numeric">
                    Attempts
                  </th>
                  <th scope="col">Last attempt</th>
                  <th scope="col">Next try</th>
                  <th scope="col">Answer</th>
                  {canDeliver ? (
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  ) : null}
                </tr>
              </thead>
              <tbody>
                {page.items.map((delivery) => (
                  <tr key={delivery.id}>
                    <td data-label="Event">
                      <span className="cell-stack">
                        <code className="strong">{delivery.eventType}</code>
                        <code className="muted small" title={delivery.eventId}>
                          {shortEventId(delivery.eventId)}
                        </code>
                      </span>
                    </td>
                    <td data-label="Status">
                      <span className={`badge ${delivery.status}`}>{STATUS_WORDS[delivery.status]}</span>
                    </td>
                    <td data-label="Attempts" className="numeric">
                      {delivery.attempts}
                    </td>
                    <td data-label="Last attempt">
                      <DateTime value={delivery.lastAttemptAt} />
                    </td>
                    <td data-label="Next try">
                      <DateTime value={delivery.nextAttemptAt} />
                    </td>
                    <td data-label="Answer" className="small stacked">
                      <LastAnswer delivery={delivery} />
                    </td>
                    {canDeliver ? (
                      <td className="actions">
                        <button
                          type="button"
                          className="button compact"
                          aria-label={`Redeliver ${delivery.eventType} ${shortEventId(delivery.eventId)}`}
                          disabled={redeliver.isPending && redeliver.variables.deliveryId === delivery.id}
                          onClick={() => again(delivery)}
                        >
                          Redeliver
                        </button>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager label={`Delivery pages of ${name}`} page={pages.page} hasPrevious={pages.hasPrevious} nextCursor={page.nextCursor} onPrevious={pages.previous} onNext={pages.next} />
          </>
        )}
      </QueryView>
    </section>
  );
}

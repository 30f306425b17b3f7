import { useId, useRef, useState } from 'react';
import type { WebhookEndpointView } from '@game-wallet/contracts/webhooks';
import { ApiError } from '../api/client';
import { useSendTestEvent, useUpdateWebhook, useWebhooks } from '../api/webhooks';
import { usePermissions } from '../session/permissions';
import { DateTime } from '../ui/date-time';
import { Fact } from '../ui/facts';
import { QueryView, SectionHeader } from '../ui/query-view';
import { EmptyState } from '../ui/states';
import { useToast } from '../ui/toasts';
import { DeleteWebhookDialog } from './delete-webhook-dialog';
import { useCurrentGame } from './game-context';
import { RotateSecretDialog } from './rotate-secret-dialog';
import { DeliveryLog } from './webhook-deliveries';
import { AddWebhookDialog, EditWebhookDialog } from './webhook-endpoint-dialog';
import { endpointName } from './webhook-form';

type Opened = { dialog: 'edit' | 'rotate' | 'delete'; endpoint: WebhookEndpointView };

/** Why the platform disabled an endpoint, and when: shown first, so operators see it; with "Enable again" for those who may. */
function DisabledByPlatform({ gameId, endpoint, canManage }: { gameId: string; endpoint: WebhookEndpointView; canManage: boolean }) {
  const update = useUpdateWebhook(gameId);
  const notify = useToast();
  const enable = () =>
    update.mutate(
      { endpointId: endpoint.id, change: { enabled: true } },
      {
        onSuccess: () => notify(`Webhook endpoint “${endpointName(endpoint)}” enabled again`),
        onError: (failure) => notify(failure instanceof ApiError ? `Not enabled: ${failure.message}` : 'Not enabled: the platform could not be reached', 'error'),
      },
    );
  return (
    <div className="callout danger" role="note" aria-label="Disabled by the platform">
      <p>
        <strong>Disabled by the platform</strong> <DateTime value={endpoint.disabledAt} />: {endpoint.disabledReason}
      </p>
      <p className="small">No event is sent to it until it is enabled again. Fix the endpoint first, then send a test event.</p>
      {canManage ? (
        <button type="button" className="button compact" onClick={enable} disabled={update.isPending}>
          {update.isPending ? 'Enabling…' : 'Enable again'}
        </button>
      ) : null}
    </div>
  );
}

function StatusBadge({ endpoint }: { endpoint: WebhookEndpointView }) {
  if (!endpoint.enabled) {
    return <span className={endpoint.disabledReason === null ? 'badge off' : 'badge failed'}>{endpoint.disabledReason === null ? 'Disabled' : 'Disabled by the platform'}</span>;
  }
  return endpoint.failingSince === null ? <span className="badge on">Enabled</span> : <span className="badge pending">Enabled, failing</span>;
}

/** The event types an endpoint receives: "All events", or each type. */
function EventTypes({ types }: { types: string[] }) {
  if (types.includes('*')) {
    return <span>All events</span>;
  }
  return (
    <ul className="event-type-list">
      {types.map((type) => (
        <li key={type}>
          <code>{type}</code>
        </li>
      ))}
    </ul>
  );
}

/** One endpoint: what it receives, its state, its actions, and its delivery log when shown. */
function EndpointCard({
  gameId,
  endpoint,
  logShown,
  onShowLog,
  onOpen,
}: {
  gameId: string;
  endpoint: WebhookEndpointView;
  logShown: boolean;
  onShowLog: (shown: boolean) => void;
  onOpen: (dialog: Opened['dialog']) => void;
}) {
  const can = usePermissions(gameId);
  const sendTest = useSendTestEvent(gameId);
  const notify = useToast();
  const titleId = useId();
  const logId = useId();
  const name = endpointName(endpoint);
  const test = () =>
    sendTest.mutate(endpoint.id, {
      onSuccess: () => {
        notify(`Test event sent to “${name}”`);
        onShowLog(true);
      },
      onError: (failure) => notify(failure instanceof ApiError ? `Not sent: ${failure.message}` : 'Not sent: the platform could not be reached', 'error'),
    });
  return (
    <article className="card webhook" aria-labelledby={titleId}>
      <header className="webhook-head">
        <div className="cell-stack">
          <h3 id={titleId} className="webhook-url wrap">
            {endpoint.url}
          </h3>
          {endpoint.description === '' ? null : <p className="muted">{endpoint.description}</p>}
        </div>
        <StatusBadge endpoint={endpoint} />
      </header>
      {!endpoint.enabled && endpoint.disabledReason !== null ? <DisabledByPlatform gameId={gameId} endpoint={endpoint} canManage={can.has('webhooks.manage')} /> : null}
      {endpoint.enabled && endpoint.failingSince !== null ? (
        <p className="callout warning">
          <strong>Failing since</strong> <DateTime value={endpoint.failingSince} />: each event is retried for a day, then the platform disables the endpoint. See the last answers in
          the delivery log.
        </p>
      ) : null}
      <dl className="facts">
        <Fact label="Events">
          <EventTypes types={endpoint.eventTypes} />
        </Fact>
        <Fact label="Signing secret">
          {endpoint.previousSecretUntil === null ? (
            <span>Shown only when made or rotated</span>
          ) : (
            <span>
              Rotated: the previous secret also signs until <DateTime value={endpoint.previousSecretUntil} />
            </span>
          )}
        </Fact>
        <Fact label="Added">
          <DateTime value={endpoint.createdAt} />
        </Fact>
      </dl>
      <div className="webhook-actions">
        <button type="button" className="button" aria-expanded={logShown} aria-controls={logShown ? logId : undefined} onClick={() => onShowLog(!logShown)}>
          {logShown ? 'Hide delivery log' : 'Delivery log'}
        </button>
        {can.has('webhooks.deliver') ? (
          <button type="button" className="button" aria-label={`Send test event to ${name}`} disabled={sendTest.isPending || !endpoint.enabled} onClick={test}>
            {sendTest.isPending ? 'Sending…' : 'Send test event'}
          </button>
        ) : null}
        {can.has('webhooks.manage') ? (
          <>
            <span className="spacer" />
            <button type="button" className="button" aria-label={`Edit ${name}`} onClick={() => onOpen('edit')}>
              Edit
            </button>
            <button type="button" className="button" aria-label={`Rotate secret of ${name}`} onClick={() => onOpen('rotate')}>
              Rotate secret
            </button>
            <button type="button" className="button danger-ghost" aria-label={`Delete ${name}`} onClick={() => onOpen('delete')}>
              Delete
            </button>
          </>
        ) : null}
      </div>
      {logShown ? <DeliveryLog gameId={gameId} endpoint={endpoint} canDeliver={can.has('webhooks.deliver')} id={logId} /> : null}
    </article>
  );
}

/** The game's webhook endpoints: each with its state (and why the platform disabled it), actions and delivery log. */
export function WebhooksTab() {
  const game = useCurrentGame();
  const webhooks = useWebhooks(game.id);
  const can = usePermissions(game.id);
  const [adding, setAdding] = useState(false);
  const [opened, setOpened] = useState<Opened | null>(null);
  const [logs, setLogs] = useState<ReadonlySet<string>>(new Set());
  const addButton = useRef<HTMLButtonElement>(null);
  const showLog = (endpointId: string, shown: boolean) =>
    setLogs((current) => {
      const next = new Set(current);
      if (shown) {
        next.add(endpointId);
      } else {
        next.delete(endpointId);
      }
      return next;
    });
  const close = () => setOpened(null);

  return (
    <div className="stack">
      <SectionHeader
        title="Webhooks"
        action={
          can.has('webhooks.manage') ? (
            <button ref={addButton} type="button" className="button primary" onClick={() => setAdding(true)}>
              Add endpoint
            </button>
          ) : undefined
        }
      >
        Your game backend gets each event of this game as a signed HTTP POST (Standard Webhooks), retried for a day until it answers 2xx.
      </SectionHeader>
      <QueryView
        query={webhooks}
        loading="Loading webhook endpoints…"
        isEmpty={(items) => items.length === 0}
        empty={
          <EmptyState title="No webhook endpoints">
            <p>Add an endpoint to hear of new players, signatures and changes as they happen.</p>
          </EmptyState>
        }
      >
        {(items) => (
          <div className="stack">
            {items.map((endpoint) => (
              <EndpointCard
                key={endpoint.id}
                gameId={game.id}
                endpoint={endpoint}
                logShown={logs.has(endpoint.id)}
                onShowLog={(shown) => showLog(endpoint.id, shown)}
                onOpen={(dialog) => setOpened({ dialog, endpoint })}
              />
            ))}
          </div>
        )}
      </QueryView>
      {adding ? <AddWebhookDialog gameId={game.id} onClose={() => setAdding(false)} /> : null}
      {opened?.dialog === 'edit' ? <EditWebhookDialog gameId={game.id} endpoint={opened.endpoint} onClose={close} /> : null}
      {opened?.dialog === 'rotate' ? <RotateSecretDialog gameId={game.id} endpoint={opened.endpoint} onClose={close} /> : null}
      {opened?.dialog === 'delete' ? <DeleteWebhookDialog gameId={game.id} endpoint={opened.endpoint} onClose={close} returnFocusTo={() => addButton.current} /> : null}
    </div>
  );
}

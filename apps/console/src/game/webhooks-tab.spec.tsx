import type { WebhookDeliveryView, WebhookEndpointView } from '@game-wallet/contracts/webhooks';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '../api/queries';
import { renderGameTab, sessionOf, stubApi } from '../test-utils';
import { WebhooksTab } from './webhooks-tab';

const game = { id: 'g1', name: 'Space Miners', createdAt: '2026-11-21T10:00:00.000Z' };
const endpoint: WebhookEndpointView = {
  id: 'w1',
  url: 'https://game.example.com/hooks',
  description: 'production backend',
  eventTypes: ['player.created', 'wallet.signed'],
  enabled: true,
  disabledReason: null,
  disabledAt: null,
  failingSince: null,
  previousSecretUntil: null,
  createdAt: '2026-11-21T10:00:00.000Z',
  updatedAt: '2026-11-21T10:00:00.000Z',
};
const disabled: WebhookEndpointView = {
  ...endpoint,
  id: 'w2',
  url: 'https://old.example.com/hooks',
  description: '',
  eventTypes: ['*'],
  enabled: false,
  disabledReason: 'Every attempt failed for 24 h (last: HTTP 502)',
  disabledAt: '2026-11-22T09:30:00.000Z',
  failingSince: '2026-11-21T09:30:00.000Z',
};
const delivery = (status: WebhookDeliveryView['status'], change: Partial<WebhookDeliveryView> = {}): WebhookDeliveryView => ({
  id: 'd1',
  eventId: '0193a2b4-5c6d-7e8f-9a0b-1c2d3e4f5a6b',
  eventType: 'webhook.test',
  status,
  attempts: 0,
  nextAttemptAt: '2026-11-22T10:00:00.000Z',
  lastAttemptAt: null,
  responseStatus: null,
  responseBody: null,
  error: null,
  createdAt: '2026-11-22T10:00:00.000Z',
  ...change,
});
const SECRET = `whsec_${'S'.repeat(43)}=`;
const NEW_SECRET = `whsec_${'N'.repeat(43)}=`;
const listed = (...items: WebhookEndpointView[]) => ({ 'GET /games/g1/webhooks': { status: 200, body: { items } } });
const render = (session = sessionOf()) => renderGameTab(<WebhooksTab />, game, session);
const cached = (queryClient: ReturnType<typeof render>['queryClient']) =>
  JSON.stringify([queryClient.getQueryCache().getAll().map((query) => query.state.data), queryClient.getMutationCache().getAll().map((mutation) => mutation.state)]);

describe(WebhooksTab.name, () => {
  it('shows each endpoint with its URL, description and events, and why and when the platform disabled one, first thing in its card', async () => {
    stubApi(listed(endpoint, disabled));
    render();
    const card = await screen.findByRole('article', { name: 'https://game.example.com/hooks' });
    expect(within(card).getByText('production backend')).toBeInTheDocument();
    expect(within(card).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['player.created', 'wallet.signed']);
    expect(within(card).getByText('Enabled')).toBeInTheDocument();
    const off = screen.getByRole('article', { name: 'https://old.example.com/hooks' });
    expect(within(off).getByText('All events')).toBeInTheDocument();
    const why = within(off).getByRole('note', { name: 'Disabled by the platform' });
    expect(why).toHaveTextContent('Every attempt failed for 24 h (last: HTTP 502)');
    expect(within(why).getByText((_, element) => element?.tagName === 'TIME' && element.getAttribute('datetime') === '2026-11-22T09:30:00.000Z')).toBeInTheDocument();
    expect(within(off).getByRole('button', { name: 'Send test event to https://old.example.com/hooks' })).toBeDisabled();
  });

  it('shows a viewer the endpoints and their delivery log, with no action their role does not allow', async () => {
    stubApi({ ...listed(endpoint, disabled), 'GET /games/g1/webhooks/w1/deliveries?limit=10': { status: 200, body: { items: [delivery('failed', { attempts: 8 })], nextCursor: null } } });
    render(sessionOf([{ role: 'viewer', gameId: 'g1' }]));
    const card = await screen.findByRole('article', { name: 'https://game.example.com/hooks' });
    await userEvent.click(within(card).getByRole('button', { name: 'Delivery log' }));
    expect(await within(card).findByText('Failed', { selector: '.badge' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add endpoint' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^(Send test event|Edit|Rotate secret|Delete|Redeliver|Enable again)/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: /Redeliver failed/ })).not.toBeInTheDocument();
  });

  it('adds an endpoint for the events ticked, shows its secret once, and drops it from the page and the cache when the dialog closes', async () => {
    const calls = stubApi({
      ...listed(),
      'POST /games/g1/webhooks': { status: 201, body: { ...endpoint, id: 'w3', eventTypes: ['player.created', 'wallet.signing_denied'], secret: SECRET } },
    });
    const { queryClient } = render();
    await userEvent.click(await screen.findByRole('button', { name: 'Add endpoint' }));
    const dialog = screen.getByRole('dialog', { name: 'Add webhook endpoint' });
    await userEvent.type(within(dialog).getByLabelText('Endpoint URL'), 'not a url');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /All events/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));
    expect(within(dialog).getByText('Enter an absolute URL, starting with https://.')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose at least one event, or all events.')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    await userEvent.clear(within(dialog).getByLabelText('Endpoint URL'));
    await userEvent.type(within(dialog).getByLabelText('Endpoint URL'), 'https://game.example.com/hooks');
    await userEvent.type(within(dialog).getByLabelText(/Description/), 'production backend');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'wallet.signing_denied' }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'player.created' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));
    const secret = await screen.findByLabelText(/Signing secret for/);
    expect(secret).toHaveValue(SECRET);
    expect(screen.getByText(/this secret will not be shown again/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy signing secret' })).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([
      { url: 'https://game.example.com/hooks', eventTypes: ['player.created', 'wallet.signing_denied'], description: 'production backend', enabled: true },
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(document.body.innerHTML).not.toContain(SECRET);
    expect(cached(queryClient)).not.toContain(SECRET);
    expect(await screen.findByRole('article', { name: 'https://game.example.com/hooks' })).toBeInTheDocument();
  });

  it('shows what the platform refused an endpoint for, in its own words', async () => {
    stubApi({ ...listed(), 'POST /games/g1/webhooks': { status: 409, body: { message: 'A game has at most 20 webhook endpoints', code: 'WEBHOOK_ENDPOINT_LIMIT' } } });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Add endpoint' }));
    await userEvent.type(screen.getByLabelText('Endpoint URL'), 'https://game.example.com/hooks{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('A game has at most 20 webhook endpoints');
  });

  it('saves only the fields an edit changed', async () => {
    const calls = stubApi({ ...listed(endpoint), 'PATCH /games/g1/webhooks/w1': (body) => ({ status: 200, body: { ...endpoint, ...(body as object) } }) });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit production backend' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit “production backend”' });
    expect(within(dialog).getByRole('checkbox', { name: 'wallet.signed' })).toBeChecked();
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'wallet.signed' }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /^Enabled/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual([{ eventTypes: ['player.created'], enabled: false }]);
    expect(within(screen.getByRole('article', { name: endpoint.url })).getByText('Disabled')).toBeInTheDocument();
  });

  it('enables an endpoint the platform disabled again, which clears the reason', async () => {
    const calls = stubApi({ ...listed(disabled), 'PATCH /games/g1/webhooks/w2': { status: 200, body: { ...disabled, enabled: true, disabledReason: null, disabledAt: null, failingSince: null } } });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Enable again' }));
    await waitFor(() => expect(screen.queryByRole('note', { name: 'Disabled by the platform' })).not.toBeInTheDocument());
    expect(calls.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual([{ enabled: true }]);
    expect(screen.getByText('Enabled')).toBeInTheDocument();
  });

  it('rotates the secret: the new one is shown once with until when the old one still signs, and is in no cache', async () => {
    const until = '2026-11-23T10:00:00.000Z';
    const calls = stubApi({ ...listed(endpoint), 'POST /games/g1/webhooks/w1/rotate-secret': { status: 200, body: { ...endpoint, previousSecretUntil: until, secret: NEW_SECRET } } });
    const { queryClient } = render();
    await userEvent.click(await screen.findByRole('button', { name: 'Rotate secret of production backend' }));
    await userEvent.selectOptions(screen.getByLabelText('The old secret keeps signing for'), '7 days (the most)');
    await userEvent.click(screen.getByRole('button', { name: 'Rotate secret' }));
    expect(await screen.findByLabelText(/Signing secret for/)).toHaveValue(NEW_SECRET);
    expect(screen.getByText(/keeps signing every event too/)).toHaveTextContent(new Date(until).getFullYear().toString());
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([{ overlapSeconds: 604800 }]);
    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(document.body.innerHTML).not.toContain(NEW_SECRET);
    expect(cached(queryClient)).not.toContain(NEW_SECRET);
    expect(queryClient.getQueryData<WebhookEndpointView[]>(queryKeys.webhooks('g1'))?.[0]?.previousSecretUntil).toBe(until);
    expect(screen.getByText(/the previous secret also signs until/)).toBeInTheDocument();
  });

  it('deletes an endpoint only after a confirmation that names it', async () => {
    const calls = stubApi({ ...listed(endpoint), 'DELETE /games/g1/webhooks/w1': { status: 204 } });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Delete production backend' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete webhook endpoint “production backend”?' });
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete endpoint' }));
    expect(await screen.findByText('No webhook endpoints')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual(['/games/g1/webhooks/w1']);
  });

  it('sends a test event and follows it in the log until it settles, with the answer; then redelivers it', async () => {
    let log: WebhookDeliveryView[] = [];
    const calls = stubApi({
      ...listed(endpoint),
      'GET /games/g1/webhooks/w1/deliveries?limit=10': () => ({ status: 200, body: { items: log, nextCursor: null } }),
      'POST /games/g1/webhooks/w1/test': () => {
        log = [delivery('pending')];
        setTimeout(() => {
          log = [delivery('succeeded', { attempts: 1, nextAttemptAt: null, lastAttemptAt: '2026-11-22T10:00:01.000Z', responseStatus: 200, responseBody: 'ok, got it' })];
        }, 500);
        return { status: 202, body: log[0] };
      },
      'POST /games/g1/webhooks/w1/deliveries/d1/redeliver': { status: 202, body: delivery('pending') },
    });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Send test event to production backend' }));
    const log$ = await screen.findByRole('region', { name: 'Delivery log of production backend' });
    expect(await within(log$).findByText('Pending', { selector: '.badge' })).toBeInTheDocument();
    expect(await within(log$).findByText('Succeeded', { selector: '.badge' }, { timeout: 4000 })).toBeInTheDocument();
    expect(within(log$).getByText('HTTP 200')).toBeInTheDocument();
    expect(within(log$).getByText('ok, got it')).toBeInTheDocument();
    await userEvent.click(within(log$).getByRole('button', { name: 'Redeliver webhook.test …3e4f5a6b' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual(['/games/g1/webhooks/w1/test', '/games/g1/webhooks/w1/deliveries/d1/redeliver']));
  });

  it('redelivers every failed delivery since the time given, and filters the log by status', async () => {
    const calls = stubApi({
      ...listed(endpoint),
      'GET /games/g1/webhooks/w1/deliveries?limit=10': { status: 200, body: { items: [delivery('succeeded')], nextCursor: null } },
      'GET /games/g1/webhooks/w1/deliveries?limit=10&status=failed': {
        status: 200,
        body: { items: [delivery('failed', { attempts: 8, nextAttemptAt: null, lastAttemptAt: '2026-11-22T10:00:00.000Z', error: 'connection refused' })], nextCursor: null },
      },
      'POST /games/g1/webhooks/w1/redeliver': { status: 202, body: { scheduled: 3 } },
    });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Delivery log' }));
    const log = await screen.findByRole('region', { name: 'Delivery log of production backend' });
    await userEvent.selectOptions(within(log).getByLabelText('Status'), 'Failed');
    expect(await within(log).findByText('connection refused')).toBeInTheDocument();
    expect(within(log).getByText('No answer')).toBeInTheDocument();
    const since = within(log).getByLabelText('Failed since');
    await userEvent.clear(since);
    await userEvent.type(since, '2026-11-20T08:30');
    await userEvent.click(within(log).getByRole('button', { name: 'Redeliver all failed' }));
    expect(await screen.findByText('3 failed deliveries sent again')).toBeInTheDocument();
    expect(calls.filter((call) => call.path === '/games/g1/webhooks/w1/redeliver').map((call) => call.body)).toEqual([{ since: new Date('2026-11-20T08:30').toISOString() }]);
  });
});

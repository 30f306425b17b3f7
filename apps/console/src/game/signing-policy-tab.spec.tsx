import type { PolicyDifferenceView, SigningPolicyDraftView, SigningPolicyView } from '@game-wallet/contracts/views';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderGameTab, stubApi } from '../test-utils';
import { SigningPolicyTab } from './signing-policy-tab';

const game = { id: 'g1', name: 'Space Miners', createdAt: '2026-11-21T10:00:00.000Z' };
const policy: SigningPolicyView = {
  version: 3,
  updatedAt: '2026-11-21T10:00:00.000Z',
  updatedBy: 'operator:o1',
  rules: [
    { id: 'shop', action: 'accept', operation: 'transaction', chains: ['evm'], criteria: [{ type: 'evmValue', operator: '<=', value: '10' }] },
    { id: 'messages', action: 'accept', operation: 'message', criteria: [] },
  ],
};
const draft: SigningPolicyDraftView = { rules: [policy.rules[1]!], baseVersion: 3, updatedAt: '2026-11-21T11:00:00.000Z', updatedBy: 'operator:o2' };
const difference: PolicyDifferenceView = {
  attemptId: 'a1',
  at: '2026-11-21T11:30:00.000Z',
  walletId: '0193a2b4-5c6d-7e8f-9a0b-1c2d3e4f5a6b',
  operation: 'transaction',
  chain: 'evm',
  active: { decision: 'accept', ruleId: 'shop' },
  draft: { decision: 'reject', ruleId: null },
};
const SESSION = { 'GET /session': { status: 200, body: { operator: { id: 'o1', email: 'operator@example.com' }, expiresAt: '2026-11-22T10:00:00.000Z' } } };
const NO_DRAFT = { 'GET /games/g1/signing-policy/draft': { status: 404, body: { code: 'NOT_FOUND', message: 'This game has no draft signing policy' } } };
const KEYS = { 'GET /games/g1/api-keys': { status: 200, body: { items: [] } } };

/** Stubs the API for the tab: the policy as `policy`, no draft, the operator and no keys, unless `answers` says otherwise. */
const stubPolicyApi = (answers: Parameters<typeof stubApi>[0]) =>
  stubApi({ 'GET /games/g1/signing-policy': { status: 200, body: policy }, ...NO_DRAFT, ...SESSION, ...KEYS, ...answers });

const activeColumn = () => screen.getByRole('region', { name: 'Active policy' });
const draftColumn = () => screen.getByRole('region', { name: 'Draft' });
/** The line under a column's title: version, when, by whom. */
const meta = async (column: HTMLElement) => {
  await within(column).findByRole('list');
  return column.querySelector('.policy-meta');
};

describe(SigningPolicyTab.name, () => {
  it('shows the active rules in order, each in its sentence, with the version and who changed it', async () => {
    stubPolicyApi({});
    renderGameTab(<SigningPolicyTab />, game);
    const rules = await screen.findByRole('list', { name: 'Active rules' });
    expect(within(rules).getAllByRole('listitem').map((item) => item.querySelector('.rule-sentence')?.textContent)).toEqual([
      'Accept transactions on evm when the value is at most 10 wei.',
      'Accept messages.',
    ]);
    expect(await meta(activeColumn())).toHaveTextContent(/^Version 3 · changed .* by you\.$/);
    expect(within(draftColumn()).getByRole('button', { name: 'Start a draft from the active rules' })).toBeInTheDocument();
  });

  it('saves the rules over the version read (If-Match); a stale version says so and reloads on request', async () => {
    let reads = 0;
    const newer: SigningPolicyView = { ...policy, version: 4, updatedBy: 'operator:o2', rules: [policy.rules[1]!] };
    const calls = stubPolicyApi({
      'GET /games/g1/signing-policy': () => ({ status: 200, body: reads++ === 0 ? policy : newer }),
      'PUT /games/g1/signing-policy': { status: 412, body: { code: 'PRECONDITION_FAILED', message: 'The signing policy is at version 4, not 3' } },
    });
    renderGameTab(<SigningPolicyTab />, game);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Move messages up' }));
    await user.click(screen.getByRole('button', { name: 'Save policy' }));
    const alert = await within(activeColumn()).findByRole('alert');
    expect(alert).toHaveTextContent(/Someone saved another version of the policy since you opened it/);
    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.body).toEqual({ rules: [policy.rules[1], policy.rules[0]] });
    expect(put?.headers['if-match']).toBe('"3"');
    await user.click(within(alert).getByRole('button', { name: 'Reload the policy' }));
    await within(activeColumn()).findByText(/Version 4/);
    expect(await meta(activeColumn())).toHaveTextContent(/^Version 4 · changed .* by operator o2…\.$/);
    expect(within(screen.getByRole('list', { name: 'Active rules' })).getAllByRole('listitem')).toHaveLength(1);
    expect(screen.queryByText('Unsaved changes')).not.toBeInTheDocument();
  });

  it("shows the platform's message naming the rule and field it refused", async () => {
    stubPolicyApi({
      'PUT /games/g1/signing-policy': { status: 400, body: { code: 'VALIDATION_FAILED', message: 'rules.1 (shop).criteria.0 (evmValue): value: must be a whole number' } },
    });
    renderGameTab(<SigningPolicyTab />, game);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Move shop down' }));
    await user.click(screen.getByRole('button', { name: 'Save policy' }));
    expect(await within(activeColumn()).findByRole('alert')).toHaveTextContent('rules.1 (shop).criteria.0 (evmValue): value: must be a whole number');
  });

  it('saves a new version and shows it', async () => {
    const calls = stubPolicyApi({
      'PUT /games/g1/signing-policy': (body) => ({ status: 200, body: { ...policy, ...(body as object), version: 4 } }),
    });
    renderGameTab(<SigningPolicyTab />, game);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete shop' }));
    await user.click(screen.getByRole('button', { name: 'Save policy' }));
    expect(await screen.findByText(/Signing policy saved as version 4/)).toBeInTheDocument();
    expect(within(activeColumn()).getByText(/Version 4/)).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'PUT')).toHaveLength(1);
  });

  it('starts a draft from the active rules', async () => {
    let started: SigningPolicyDraftView | null = null;
    const calls = stubPolicyApi({
      'GET /games/g1/signing-policy/draft': () => (started === null ? NO_DRAFT['GET /games/g1/signing-policy/draft'] : { status: 200, body: started }),
      'PUT /games/g1/signing-policy/draft': (body) => {
        started = { ...(body as { rules: SigningPolicyDraftView['rules'] }), baseVersion: 3, updatedAt: '2026-11-21T12:00:00.000Z', updatedBy: 'operator:o1' };
        return { status: 200, body: started };
      },
      'GET /games/g1/signing-policy/draft/differences?limit=20': { status: 200, body: { items: [], nextCursor: null } },
    });
    renderGameTab(<SigningPolicyTab />, game);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Start a draft from the active rules' }));
    expect(await within(draftColumn()).findByRole('list', { name: 'Draft rules' })).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ rules: policy.rules });
    expect(await meta(draftColumn())).toHaveTextContent(/Written against version 3 · saved .* by you\./);
    expect(await within(draftColumn()).findByText('None yet.')).toBeInTheDocument();
  });

  it('shows the draft beside the active policy with its differences, replays it, and activates it over the active version', async () => {
    const calls = stubPolicyApi({
      'GET /games/g1/signing-policy/draft': { status: 200, body: draft },
      'GET /games/g1/signing-policy/draft/differences?limit=20': { status: 200, body: { items: [difference], nextCursor: null } },
      'POST /games/g1/signing-policy/draft/replay': { status: 200, body: { evaluated: 120, changed: 1, newlyRejected: 1, newlyAccepted: 0, undecidable: 4, changes: [difference] } },
      'POST /games/g1/signing-policy/draft/activate': { status: 200, body: { ...policy, version: 4, rules: draft.rules } },
    });
    renderGameTab(<SigningPolicyTab />, game);
    const user = userEvent.setup();
    const column = await screen.findByRole('region', { name: 'Draft' });
    expect(within(await within(column).findByRole('list', { name: 'Draft rules' })).getAllByRole('listitem')).toHaveLength(1);
    expect(await meta(column)).toHaveTextContent(/Written against version 3 · saved .* by operator o2…\./);
    const differences = await within(column).findByRole('table', { name: 'Signing attempts the draft decides otherwise' });
    const row = within(differences).getAllByRole('row')[1]!;
    expect(row.querySelector('td[data-label="Attempt"]')).toHaveTextContent(/transaction on evm · wallet 0193a2b4…$/);
    expect(row.querySelector('td[data-label="Active"]')).toHaveTextContent('Accept shop');
    expect(row.querySelector('td[data-label="Draft"]')).toHaveTextContent('Reject no rule accepted');

    await user.type(within(column).getByLabelText('Since'), '2026-11-01T00:00');
    await user.click(within(column).getByRole('button', { name: 'Replay' }));
    const result = await within(column).findByLabelText('Replay result');
    expect([...result.querySelectorAll('div')].map((item) => item.textContent)).toEqual(['Evaluated120', 'Changed1', 'Newly rejected1', 'Newly accepted0', 'Undecidable4']);
    expect(calls.find((call) => call.path.endsWith('/replay'))?.body).toEqual({ since: new Date('2026-11-01T00:00').toISOString() });
    expect(within(column).getByRole('table', { name: 'Attempts whose decision the draft changes' })).toBeInTheDocument();

    await user.click(within(column).getByRole('button', { name: 'Activate draft' }));
    expect(within(column).getByText(/becomes version 4/)).toBeInTheDocument();
    await user.click(within(within(column).getByRole('group', { name: 'Activate draft' })).getByRole('button', { name: 'Activate draft' }));
    expect(await screen.findByText(/Draft activated as version 4/)).toBeInTheDocument();
    expect(calls.find((call) => call.path.endsWith('/activate'))?.headers['if-match']).toBe('"3"');
    expect(await within(draftColumn()).findByRole('button', { name: 'Start a draft from the active rules' })).toBeInTheDocument();
  });
});

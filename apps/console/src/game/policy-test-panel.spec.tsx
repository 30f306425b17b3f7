import type { PolicyEvaluationView } from '@game-wallet/contracts/views';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderGameTab, stubApi } from '../test-utils';
import { base64OfText, evaluationOfForm } from './evaluation-request';
import { PolicyTestPanel } from './policy-test-panel';

const game = { id: 'g1', name: 'Space Miners', createdAt: '2026-11-21T10:00:00.000Z' };
const KEY = '0193a2b4-5c6d-7e8f-9a0b-1c2d3e4f5a6b';
const form = { policy: 'active', operation: 'message', chain: 'evm', kind: 'apiKey', apiKeyId: '', walletId: '', payload: '' } as const;

describe(evaluationOfForm.name, () => {
  it('sends a message as UTF-8 in base64', () => {
    expect(base64OfText('héllo ✓')).toBe(Buffer.from('héllo ✓', 'utf8').toString('base64'));
    expect(evaluationOfForm({ ...form, payload: 'hello', walletId: ' w1 ' })).toEqual({
      ok: true,
      value: { operation: 'message', chain: 'evm', credential: { kind: 'apiKey' }, walletId: 'w1', payload: 'aGVsbG8=', policy: 'active' },
    });
  });

  it('reads an EVM transaction and typed data as JSON, and a Solana or Sui transaction as base64', () => {
    expect(evaluationOfForm({ ...form, operation: 'transaction', payload: '{"chainId": 8453, "value": "1"}', apiKeyId: KEY })).toMatchObject({
      ok: true,
      value: { chain: 'evm', credential: { kind: 'apiKey', apiKeyId: KEY }, payload: { chainId: 8453, value: '1' } },
    });
    expect(evaluationOfForm({ ...form, operation: 'typed-data', chain: 'sol', payload: '{"primaryType": "Order"}', policy: 'draft' })).toMatchObject({
      ok: true,
      value: { chain: 'evm', payload: { primaryType: 'Order' }, policy: 'draft' },
    });
    expect(evaluationOfForm({ ...form, operation: 'transaction', chain: 'sol', payload: ' AQID\nBA== ' })).toMatchObject({ ok: true, value: { chain: 'sol', payload: 'AQIDBA==' } });
    expect(evaluationOfForm({ ...form, kind: 'profile', apiKeyId: KEY, payload: 'x' })).toMatchObject({ ok: true, value: { credential: { kind: 'profile' } } });
  });

  it('says what keeps a payload from being sent', () => {
    expect(evaluationOfForm({ ...form, operation: 'transaction', payload: '{chainId: 1}' })).toMatchObject({ ok: false, problems: [expect.stringMatching(/^The transaction is not JSON: /)] });
    expect(evaluationOfForm({ ...form, operation: 'transaction', chain: 'sui', payload: '  ' })).toEqual({ ok: false, problems: ['Paste the transaction in base64'] });
  });
});

describe(PolicyTestPanel.name, () => {
  it('tests a request against the policy and shows the decision, the rule, why, and what the rules read', async () => {
    const result: PolicyEvaluationView = {
      decision: 'reject',
      ruleId: null,
      reason: 'no rule accepted the request',
      observed: 'value 11 wei',
      version: 3,
      facts: { value: '11', to: '0x1111111111111111111111111111111111111111' },
    };
    const calls = stubApi({
      'GET /games/g1/api-keys': { status: 200, body: { items: [{ id: KEY, name: 'game server', active: true, createdAt: '2026-11-21T10:00:00.000Z', lastUsedAt: null }] } },
      'POST /games/g1/signing-policy/evaluate': { status: 200, body: result },
    });
    renderGameTab(<PolicyTestPanel hasDraft={false} />, game);
    const user = userEvent.setup();
    expect(screen.getByRole('radio', { name: 'Draft (none)' })).toBeDisabled();
    await user.selectOptions(screen.getByLabelText('Operation'), 'transaction');
    await user.selectOptions(await screen.findByLabelText('API key'), `game server (${KEY.slice(0, 8)}…)`);
    await user.click(screen.getByRole('button', { name: 'Fill in an example' }));
    expect(screen.getByLabelText('Transaction, as JSON')).toHaveValue(JSON.stringify({ chainId: 8453, to: '0x1111111111111111111111111111111111111111', value: '1000' }, null, 2));
    await user.click(screen.getByRole('button', { name: 'Test' }));
    expect(await screen.findByText('Refused')).toBeInTheDocument();
    expect(screen.getByText('no rule accepted')).toBeInTheDocument();
    expect(screen.getByText('no rule accepted the request')).toBeInTheDocument();
    expect(screen.getByText('value 11 wei')).toBeInTheDocument();
    const facts = screen.getByText('What the rules read of the request').closest('details')!;
    expect(facts).not.toHaveAttribute('open');
    expect(facts.querySelector('pre')?.textContent).toBe(JSON.stringify(result.facts, null, 2));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      operation: 'transaction',
      chain: 'evm',
      credential: { kind: 'apiKey', apiKeyId: KEY },
      payload: { chainId: 8453, to: '0x1111111111111111111111111111111111111111', value: '1000' },
      policy: 'active',
    });
  });

  it("shows the platform's message for a request it cannot read, and the panel's own for a payload that is not JSON", async () => {
    stubApi({
      'GET /games/g1/api-keys': { status: 200, body: { items: [] } },
      'POST /games/g1/signing-policy/evaluate': { status: 400, body: { code: 'VALIDATION_FAILED', message: 'payload.chainId: must be a chain id' } },
    });
    renderGameTab(<PolicyTestPanel hasDraft />, game);
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: 'Draft' }));
    await user.selectOptions(screen.getByLabelText('Operation'), 'typed-data');
    expect(within(screen.getByLabelText('Chain')).getByRole('option', { name: 'Solana' })).toBeDisabled();
    await user.type(screen.getByLabelText('Typed data, as JSON'), 'not json');
    await user.click(screen.getByRole('button', { name: 'Test' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^The typed data is not JSON/);
    await user.clear(screen.getByLabelText('Typed data, as JSON'));
    await user.type(screen.getByLabelText('Typed data, as JSON'), '{{}');
    await user.click(screen.getByRole('button', { name: 'Test' }));
    expect(await screen.findByText('payload.chainId: must be a chain id')).toBeInTheDocument();
  });
});

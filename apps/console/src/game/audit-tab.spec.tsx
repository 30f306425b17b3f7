import type { AuditEntryView, SigningPolicy } from '@game-wallet/contracts/views';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderGameTab, stubApi } from '../test-utils';
import { AuditTab } from './audit-tab';

const game = { id: 'g1', name: 'Space Miners', createdAt: '2026-11-21T10:00:00.000Z' };
const before: SigningPolicy = {
  operations: { apiKey: ['message', 'transaction', 'typed-data'], profile: ['message'] },
  evm: { chainIds: null, maxValueWei: null, maxFeeWei: null, contracts: null, typedDataPrimaryTypes: null },
  sol: { programs: null, maxLamports: null, maxPriorityMicroLamports: null },
  sui: { packages: null, allowTransfers: true, maxGasBudget: null },
};
// In the order PostgreSQL gives it back (jsonb: shortest name first), not the form's.
const after: SigningPolicy = { evm: { ...before.evm, maxValueWei: '1000' }, sol: before.sol, sui: before.sui, operations: { ...before.operations, profile: ['message', 'transaction'] } };
const entry = (id: string, details: Record<string, unknown>): AuditEntryView => ({ id, at: '2026-11-21T10:00:00.000Z', actor: 'operator:o1', action: 'signing_policy.updated', target: 'game:g1', details });

describe(AuditTab.name, () => {
  it('shows a policy change as the fields it changed, from what to what, in the order of the form, with the address it came from', async () => {
    stubApi({
      'GET /games/g1/audit?limit=20': {
        status: 200,
        body: { items: [entry('e2', { ip: '198.51.100.7', before: after, after }), entry('e1', { ip: '198.51.100.7', before, after })], nextCursor: null },
      },
      'GET /session': { status: 200, body: { operator: { id: 'o1', email: 'operator@example.com' }, expiresAt: '2026-11-22T10:00:00.000Z' } },
      'GET /games/g1/api-keys': { status: 200, body: { items: [] } },
    });
    renderGameTab(<AuditTab />, game);
    const [again, first] = (await screen.findAllByRole('row')).slice(1);
    expect(within(first).getByText('Signing policy changed')).toBeInTheDocument();
    expect(within(first).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['operations.profile: message → message, transaction', 'evm.maxValueWei: any → 1000']);
    expect(within(first).getByText('ip: 198.51.100.7')).toBeInTheDocument();
    expect(first.textContent).not.toContain('"operations"');
    expect(within(again).getByText('No field changed')).toBeInTheDocument();
  });

  it('shows a change of the rules as the rules added, removed or changed, each in its sentence; and changes of the draft', async () => {
    const shop = { id: 'shop', action: 'accept', operation: 'transaction', chains: ['evm'], criteria: [{ type: 'evmValue', operator: '<=', value: '10' }] };
    const messages = { id: 'messages', action: 'accept', operation: 'message', criteria: [] };
    const at = (id: string, action: string, details: Record<string, unknown>): AuditEntryView => ({ ...entry(id, details), action });
    stubApi({
      'GET /games/g1/audit?limit=20': {
        status: 200,
        body: {
          items: [
            at('e3', 'signing_policy.draft_deleted', { ip: '198.51.100.7', before: [messages], after: null, difference: { added: [], removed: ['messages'], changed: [], reordered: false } }),
            at('e2', 'signing_policy.draft_updated', { ip: '198.51.100.7', before: null, after: [messages], difference: { added: ['messages'], removed: [], changed: [], reordered: false } }),
            at('e1', 'signing_policy.updated', { ip: '198.51.100.7', version: 2, before: [messages], after: [shop, messages], difference: { added: ['shop'], removed: [], changed: [], reordered: false } }),
          ],
          nextCursor: null,
        },
      },
      'GET /session': { status: 200, body: { operator: { id: 'o1', email: 'operator@example.com' }, expiresAt: '2026-11-22T10:00:00.000Z' } },
      'GET /games/g1/api-keys': { status: 200, body: { items: [] } },
    });
    renderGameTab(<AuditTab />, game);
    const [deleted, started, updated] = (await screen.findAllByRole('row')).slice(1);
    expect(within(updated!).getByText('Signing policy changed')).toBeInTheDocument();
    expect(within(updated!).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['version 2', 'added shop: Accept transactions on evm when the value is at most 10 wei.']);
    expect(within(updated!).getByText('ip: 198.51.100.7')).toBeInTheDocument();
    expect(updated!.textContent).not.toContain('"criteria"');
    expect(within(started!).getByText('Draft policy saved')).toBeInTheDocument();
    expect(within(started!).getByRole('listitem')).toHaveTextContent('draft started with 1 rule');
    expect(within(deleted!).getByText('Draft policy deleted')).toBeInTheDocument();
    expect(within(deleted!).getByRole('listitem')).toHaveTextContent('draft deleted, with its rule');
  });

  it("tells the changes of an API key's request signing: the setting, and each signing key added or removed by its fingerprint", async () => {
    const fingerprint = 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k';
    const at = (id: string, details: Record<string, unknown>): AuditEntryView => ({ ...entry(id, { name: 'server', ...details }), action: 'api_key.updated', target: 'api-key:k1' });
    stubApi({
      'GET /games/g1/audit?limit=20': {
        status: 200,
        body: {
          items: [
            at('e5', { signedRequests: 'off' }),
            at('e4', { signingKeyRemoved: fingerprint }),
            at('e3', { signedRequests: 'all' }),
            at('e2', { signedRequests: 'signing' }),
            at('e1', { signingKeyAdded: fingerprint, algorithm: 'ecdsa-p256-sha256' }),
          ],
          nextCursor: null,
        },
      },
      'GET /games/g1/api-keys': { status: 200, body: { items: [] } },
    });
    renderGameTab(<AuditTab />, game);
    await screen.findAllByRole('row');
    const cells = (label: string) => screen.getAllByRole('cell').filter((cell) => cell.dataset.label === label).map((cell) => cell.textContent);
    expect(cells('Action')).toEqual(['Signed requests turned off', 'Signing key removed', 'Signed requests required', 'Signed requests required', 'Signing key added']);
    expect(cells('Details')).toEqual([
      'off · name: server',
      `fingerprint ${fingerprint} · name: server`,
      'every request · name: server',
      'signing routes only · name: server',
      `P-256 key, fingerprint ${fingerprint} · name: server`,
    ]);
  });
});

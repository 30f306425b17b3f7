import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ApiKeyView } from '@game-wallet/contracts/views';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '../api/queries';
import { renderGameTab, stubApi } from '../test-utils';
import { ApiKeysTab } from './api-keys-tab';

const game = { id: 'g1', name: 'Space Miners', createdAt: '2026-11-21T10:00:00.000Z' };
const key: ApiKeyView = { id: 'k1', name: 'server', preview: 'gk_AbCd…wXyZ', active: true, createdAt: '2026-11-21T10:00:00.000Z', lastUsedAt: null, signedRequests: 'off', signingKeys: [] };
const SECRET = `gk_${'S'.repeat(40)}`;

const render = () => renderGameTab(<ApiKeysTab />, game);

describe(ApiKeysTab.name, () => {
  it('shows the new secret once and drops it from the page and the cache when the dialog closes', async () => {
    stubApi({
      'GET /games/g1/api-keys': { status: 200, body: { items: [key] } },
      'POST /games/g1/api-keys': { status: 201, body: { ...key, id: 'k2', name: 'ci', key: SECRET } },
    });
    const { queryClient } = render();
    await userEvent.click(await screen.findByRole('button', { name: 'Add API Key' }));
    await userEvent.type(screen.getByLabelText(/Key name/), 'ci{Enter}');
    const secret = await screen.findByLabelText(/Secret key/);
    expect(secret).toHaveValue(SECRET);
    expect(screen.getByText(/this key will not be shown again/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByDisplayValue(SECRET)).not.toBeInTheDocument();
    expect(document.body.innerHTML).not.toContain(SECRET);
    expect(JSON.stringify(queryClient.getQueryCache().getAll().map((query) => query.state.data))).not.toContain(SECRET);
    expect(JSON.stringify(queryClient.getMutationCache().getAll().map((mutation) => mutation.state))).not.toContain(SECRET);
    expect(await screen.findByText('ci')).toBeInTheDocument();
  });

  it('turns a key off at once and back on with a message when the platform refuses', async () => {
    stubApi({
      'GET /games/g1/api-keys': { status: 200, body: { items: [key] } },
      'PATCH /games/g1/api-keys/k1': { status: 503, body: { message: 'Identity is unavailable', code: 'SERVICE_UNAVAILABLE' } },
    });
    const { queryClient } = render();
    const toggle = await screen.findByRole('switch', { name: 'Active: server' });
    expect(toggle).toHaveAttribute('aria-checked', 'true');
    await userEvent.click(toggle);
    expect(await screen.findByText('Not changed: Identity is unavailable')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Active: server' })).toHaveAttribute('aria-checked', 'true'));
    expect(queryClient.getQueryData(queryKeys.apiKeys('g1'))).toEqual([key]);
  });

  it.each([
    ['leaves its tokens alone by default', false, '/games/g1/api-keys/k1'],
    ['revokes its tokens when asked to', true, '/games/g1/api-keys/k1?revokeTokens=true'],
  ])('deletes a key only after a confirmation that names it, and %s', async (_, revoke, path) => {
    const calls = stubApi({
      'GET /games/g1/api-keys': { status: 200, body: { items: [key] } },
      [`DELETE ${path}`]: { status: 204 },
    });
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Delete server' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete API key “server”?' });
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    if (revoke) {
      await userEvent.click(within(dialog).getByRole('checkbox', { name: /Also revoke the profile tokens this key issued/ }));
    }
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete key' }));
    await waitFor(() => expect(screen.queryByRole('switch', { name: 'Active: server' })).not.toBeInTheDocument());
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual([path]);
  });
});

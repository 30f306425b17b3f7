import { screen } from '@testing-library/react';
import type { ApiKeyView } from '@game-wallet/contracts/views';
import { Route } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ConsoleRoutes } from '../app';
import { ApiKeysTab } from '../game/api-keys-tab';
import { renderGameTab, renderRoutes, sessionOf, stubApi } from '../test-utils';
import { usePermissions } from './permissions';

const game = { id: 'g1', name: 'Space Miners', createdAt: '2026-11-21T10:00:00.000Z' };
const key: ApiKeyView = { id: 'k1', name: 'server', preview: 'gk_AbCd…wXyZ', active: true, createdAt: '2026-11-21T10:00:00.000Z', lastUsedAt: null, signedRequests: 'off', signingKeys: [] };
const games = { status: 200, body: { items: [{ ...game, apiKeyCount: 1 }], nextCursor: null } };

/** The whole console at `path`, signed in as `session`. */
const renderConsole = (path: string, session: ReturnType<typeof sessionOf>) => renderRoutes(<Route path="*" element={<ConsoleRoutes />} />, path, session);

describe(usePermissions.name, () => {
  it.each([
    ['viewer', false],
    ['support', false],
    ['developer', true],
  ] as const)('shows a %s the API keys with "Add API Key" and Delete only when the role allows them (%s)', async (role, allowed) => {
    stubApi({ 'GET /games/g1/api-keys': { status: 200, body: { items: [key] } } });
    renderGameTab(<ApiKeysTab />, game, sessionOf([{ role, gameId: 'g1' }]));
    const toggle = await screen.findByRole('switch', { name: 'Active: server' });
    expect(screen.queryByRole('button', { name: 'Add API Key' }) !== null).toBe(allowed);
    expect(screen.queryByRole('button', { name: 'Delete server' }) !== null).toBe(allowed);
    expect(toggle).toHaveProperty('disabled', !allowed);
  });

  it('shows a support operator the tabs their role opens, and a tab it does not as no such game', async () => {
    stubApi({ 'GET /games/g1': { status: 200, body: game }, 'GET /games?limit=50': games, 'GET /endpoints': { status: 200, body: { baseUrl: 'http://x', coreUrl: 'http://y' } } });
    renderConsole('/games/g1/api-keys', sessionOf([{ role: 'support', gameId: 'g1' }]));
    expect(await screen.findByText('No such game')).toBeInTheDocument();
    const tabs = screen.getByRole('navigation', { name: 'Game sections' });
    expect([...tabs.querySelectorAll('a')].map((tab) => tab.textContent)).toEqual(['Overview', 'Players', 'Audit']);
  });

  it('shows a game outside the operator’s grants as no such game, without asking for it', async () => {
    const calls = stubApi({ 'GET /games?limit=50': games });
    renderConsole('/games/g2', sessionOf([{ role: 'admin', gameId: 'g1' }]));
    expect(await screen.findByText('No such game')).toBeInTheDocument();
    expect(calls.map((call) => call.path)).not.toContain('/games/g2');
  });

  it('links Team in the header for owners only, and hides "Create game" from those who may not create games', async () => {
    stubApi({ 'GET /games?limit=50': games });
    const { unmount } = renderConsole('/', sessionOf([{ role: 'owner', gameId: null }]));
    expect(await screen.findByRole('link', { name: 'Team' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create game' })).toBeInTheDocument();
    unmount();
    renderConsole('/', sessionOf([{ role: 'developer', gameId: null }]));
    await screen.findByRole('link', { name: 'Space Miners' });
    expect(screen.queryByRole('link', { name: 'Team' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create game' })).not.toBeInTheDocument();
  });

  it('sends an operator without a second factor to the Account page when the instance requires two', async () => {
    stubApi({ 'GET /games?limit=50': games, 'GET /account/sessions': { status: 200, body: { items: [] } } });
    renderConsole('/games/g1', sessionOf([{ role: 'owner', gameId: null }], { required: true }));
    expect(await screen.findByRole('heading', { name: 'Account' })).toBeInTheDocument();
    expect(screen.getByText(/Your team requires two-step verification for every operator/)).toBeInTheDocument();
  });
});

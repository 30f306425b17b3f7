import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderAt, sessionOf, stubApi } from '../test-utils';
import { TeamPage } from './team-page';

const games = { status: 200, body: { items: [{ id: 'g1', name: 'Space Miners', createdAt: '2026-11-21T10:00:00.000Z', apiKeyCount: 0 }, { id: 'g2', name: 'Moon Base', createdAt: '2026-11-21T10:00:00.000Z', apiKeyCount: 0 }], nextCursor: null } };
const me = { id: 'o1', email: 'ops@example.com', displayName: 'Ops', status: 'active', grants: [{ role: 'owner', gameId: null }], twoFactor: { totp: true, passkeys: 1 }, createdAt: '2026-11-20T10:00:00.000Z', lastSignInAt: '2026-11-21T10:00:00.000Z' };
const dev = { id: 'o2', email: 'dev@example.com', displayName: '', status: 'active', grants: [{ role: 'developer', gameId: 'g2' }, { role: 'developer', gameId: 'g1' }], twoFactor: { totp: false, passkeys: 0 }, createdAt: '2026-11-20T10:00:00.000Z', lastSignInAt: null };
const invitation = { id: 'i1', email: 'new@example.com', grants: [{ role: 'viewer', gameId: null }], invitedBy: 'o1', createdAt: '2026-11-21T10:00:00.000Z', expiresAt: '2026-11-24T10:00:00.000Z', status: 'pending' };
const LINK = `http://localhost:3000/console/invitation#token=${'T'.repeat(43)}`;

const team = (extra: Parameters<typeof stubApi>[0] = {}) =>
  stubApi({
    'GET /games?limit=50': games,
    'GET /operators': { status: 200, body: { items: [me, dev] } },
    'GET /invitations': { status: 200, body: { items: [invitation] } },
    'GET /settings': { status: 200, body: { requireTwoFactor: false } },
    ...extra,
  });

describe(TeamPage.name, () => {
  it('lists operators with their role and games by name, status, second factors and last sign-in, and the invitations', async () => {
    team();
    renderAt(<TeamPage />, '/team', sessionOf());
    const operators = await screen.findByRole('table', { name: 'Operators' });
    const rows = within(operators).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent(/Ops \(you\).*ops@example.com.*Owner · all games.*Active.*Authenticator app and 1 passkey/);
    expect(rows[1]).toHaveTextContent(/dev@example.com.*Developer · Moon Base, Space Miners.*Active.*None.*Never/);
    const invitations = await screen.findByRole('table', { name: 'Invitations' });
    expect(within(invitations).getAllByRole('row')[1]).toHaveTextContent(/new@example.com.*Viewer · all games.*Pending.*Ops/);
    expect(screen.getByRole('switch', { name: 'Require two factors for every operator' })).toHaveAttribute('aria-checked', 'false');
  });

  it('invites an e-mail as a developer of chosen games and shows the link once: not in the page or the cache once closed', async () => {
    const calls = team({
      'POST /invitations': (body) => ({ status: 201, body: { ...invitation, id: 'i2', email: 'ada@example.com', grants: (body as { grants: unknown }).grants, link: LINK, mailed: false } }),
    });
    const { queryClient } = renderAt(<TeamPage />, '/team', sessionOf());
    await userEvent.click(await screen.findByRole('button', { name: 'Invite' }));
    const dialog = screen.getByRole('dialog', { name: 'Invite an operator' });
    await userEvent.type(within(dialog).getByLabelText('E-mail'), 'ada@example.com');
    await userEvent.selectOptions(within(dialog).getByLabelText('Role'), 'developer');
    expect(within(dialog).getByText(/^Developers may .*create an API key/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Chosen games' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create invitation' }));
    expect(calls.some((call) => call.path === '/invitations' && call.method === 'POST')).toBe(false);
    await userEvent.click(await within(dialog).findByRole('checkbox', { name: 'Moon Base' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create invitation' }));
    const link = await screen.findByLabelText('Invitation link for ada@example.com');
    expect(link).toHaveValue(LINK);
    expect(screen.getByText(/it will not be shown again/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy invitation link' })).toBeInTheDocument();
    expect(calls.find((call) => call.path === '/invitations' && call.method === 'POST')?.body).toEqual({ email: 'ada@example.com', grants: [{ role: 'developer', gameId: 'g2' }] });
    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(await screen.findByText('ada@example.com')).toBeInTheDocument();
    expect(document.body.innerHTML).not.toContain('TTTT');
    expect(JSON.stringify(queryClient.getQueryCache().getAll().map((query) => query.state.data))).not.toContain('TTTT');
  });

  it("changes an operator's role, suspends them, ends their sessions, and removes them only after a confirmation", async () => {
    const session = { id: 's9', createdAt: '2026-11-21T10:00:00.000Z', lastSeenAt: '2026-11-21T10:00:00.000Z', expiresAt: '2026-11-21T22:00:00.000Z', ip: '203.0.113.5', userAgent: 'curl/8.0', current: false };
    const calls = team({
      'PATCH /operators/o2': (body) => ({ status: 200, body: { ...dev, ...(body as object) } }),
      'GET /operators/o2/sessions': { status: 200, body: { items: [session] } },
      'DELETE /operators/o2/sessions/s9': { status: 204 },
      'DELETE /operators/o2': { status: 204 },
    });
    renderAt(<TeamPage />, '/team', sessionOf());
    await userEvent.click(await screen.findByRole('button', { name: 'Manage dev@example.com' }));
    const drawer = screen.getByRole('dialog', { name: 'dev@example.com' });
    const role = within(drawer).getByRole('form', { name: 'Role' });
    await userEvent.selectOptions(within(role).getByLabelText('Role'), 'admin');
    await userEvent.click(within(role).getByRole('radio', { name: 'All games, also those created later' }));
    await userEvent.click(within(role).getByRole('button', { name: 'Save role' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ grants: [{ role: 'admin', gameId: null }] }));
    await userEvent.click(within(drawer).getByRole('button', { name: 'Suspend' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'PATCH').map((call) => call.body)).toContainEqual({ status: 'suspended' }));
    await userEvent.click(await within(drawer).findByRole('button', { name: /^End the session in curl/ }));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE' && call.path === '/operators/o2/sessions/s9')).toBe(true));
    await userEvent.click(within(drawer).getByRole('button', { name: 'Remove from team' }));
    expect(calls.some((call) => call.method === 'DELETE' && call.path === '/operators/o2')).toBe(false);
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Remove dev@example.com?' })).getByRole('button', { name: 'Remove operator' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Manage dev@example.com' })).not.toBeInTheDocument());
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual(['/operators/o2/sessions/s9', '/operators/o2']);
  });

  it('revokes a pending invitation and turns on two factors for everyone', async () => {
    const calls = team({ 'DELETE /invitations/i1': { status: 204 }, 'PUT /settings': { status: 200, body: { requireTwoFactor: true } } });
    renderAt(<TeamPage />, '/team', sessionOf());
    await userEvent.click(await screen.findByRole('button', { name: 'Revoke the invitation for new@example.com' }));
    expect(await screen.findByText('Revoked')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('switch', { name: 'Require two factors for every operator' }));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Require two factors for every operator' })).toHaveAttribute('aria-checked', 'true'));
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ requireTwoFactor: true });
  });

  it('offers an owner of listed games only their games, and not the instance setting', async () => {
    team();
    renderAt(<TeamPage />, '/team', sessionOf([{ role: 'owner', gameId: 'g1' }]));
    await screen.findByRole('table', { name: 'Operators' });
    expect(screen.queryByRole('switch', { name: 'Require two factors for every operator' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Invite' }));
    const dialog = screen.getByRole('dialog', { name: 'Invite an operator' });
    expect(within(dialog).getByRole('radio', { name: 'All games, also those created later' })).toBeDisabled();
    expect(within(dialog).getAllByRole('checkbox').map((box) => box.closest('label')?.textContent)).toEqual(['Space Miners']);
  });

  it('shows an operator who may not see the team the page-does-not-exist state, asking nothing', async () => {
    const calls = team();
    renderAt(<TeamPage />, '/team', sessionOf([{ role: 'admin', gameId: null }]));
    expect(screen.getByText('This page does not exist')).toBeInTheDocument();
    expect(calls.map((call) => call.path)).not.toContain('/operators');
  });
});

import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderRoutes, stubApi } from '../test-utils';
import { InvitationPage } from './invitation-page';

const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz0123456789';
const preview = { email: 'ada@example.com', grants: [{ role: 'developer', gameId: 'g1' }, { role: 'developer', gameId: 'g2' }], expiresAt: '2026-11-24T10:00:00.000Z' };
const account = { operator: { id: 'o9', email: 'ada@example.com', displayName: 'Ada', grants: preview.grants }, twoFactor: { totp: false, passkeys: [], recoveryCodesLeft: 0, required: false } };

function Where() {
  const location = useLocation();
  return <p>At {`${location.pathname}${location.hash}`}</p>;
}

const renderInvitation = (hash: string) =>
  renderRoutes(
    <>
      <Route path="/invitation" element={<><InvitationPage /><Where /></>} />
      <Route path="/" element={<p>Games list</p>} />
    </>,
    `/invitation${hash}`,
  );

describe(InvitationPage.name, () => {
  it('reads the token from the fragment, sends it only in bodies, sets name and password, and lands signed in on the games', async () => {
    let accepted = false;
    const calls = stubApi({
      'POST /invitations/preview': { status: 200, body: preview },
      'POST /invitations/accept': () => {
        accepted = true;
        return { status: 200, body: { token: 'console-token', expiresAt: '2026-11-22T10:00:00.000Z' } };
      },
      'GET /session': () => (accepted ? { status: 200, body: account } : { status: 401, body: { message: 'no', code: 'UNAUTHENTICATED' } }),
    });
    renderInvitation(`#token=${TOKEN}`);
    expect(await screen.findByText('Developer for 2 games')).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toHaveValue('ada@example.com');
    expect(screen.getByText('At /invitation')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Your name'), 'Ada');
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse battery');
    await userEvent.type(screen.getByLabelText('Password, again'), 'correct horse batterY');
    await userEvent.click(screen.getByRole('button', { name: 'Accept and sign in' }));
    expect(screen.getByText('The two passwords differ.')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('Password, again'));
    await userEvent.type(screen.getByLabelText('Password, again'), 'correct horse battery{Enter}');
    expect(await screen.findByText('Games list')).toBeInTheDocument();
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual(['POST /invitations/preview', 'POST /invitations/accept']);
    expect(calls.every((call) => !call.path.includes(TOKEN))).toBe(true);
    expect(calls[0].body).toEqual({ token: TOKEN });
    expect(calls[1].body).toEqual({ token: TOKEN, password: 'correct horse battery', displayName: 'Ada' });
  });

  it('says clearly that an expired, used or revoked link cannot be used', async () => {
    stubApi({ 'POST /invitations/preview': { status: 404, body: { message: 'Not found', code: 'NOT_FOUND' } } });
    renderInvitation(`#token=${TOKEN}`);
    expect(await screen.findByRole('heading', { name: 'This invitation cannot be used' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('The link has expired, was already used, or was revoked.');
  });

  it('says a link without its token is incomplete, asking nothing', async () => {
    const calls = stubApi({});
    renderInvitation('');
    expect(screen.getByRole('heading', { name: 'This link is incomplete' })).toBeInTheDocument();
    expect(calls).toEqual([]);
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { queryKeys } from '../api/queries';
import { renderAt, sessionOf, stubApi } from '../test-utils';
import { AccountPage } from './account-page';

vi.mock('@simplewebauthn/browser', async (importOriginal) => ({ ...(await importOriginal<object>()), startRegistration: vi.fn() }));
const { startRegistration } = await import('@simplewebauthn/browser');

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const CODES = Array.from({ length: 10 }, (_, index) => `code${index}-abcde`);
const sessions = [
  { id: 's1', createdAt: '2026-11-21T10:00:00.000Z', lastSeenAt: '2026-11-21T11:00:00.000Z', expiresAt: '2026-11-21T22:00:00.000Z', ip: '127.0.0.1', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', current: true },
  { id: 's2', createdAt: '2026-11-20T10:00:00.000Z', lastSeenAt: '2026-11-20T11:00:00.000Z', expiresAt: '2026-11-20T22:00:00.000Z', ip: '198.51.100.7', userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1', current: false },
  { id: 's3', createdAt: '2026-11-19T10:00:00.000Z', lastSeenAt: '2026-11-19T11:00:00.000Z', expiresAt: '2026-11-19T22:00:00.000Z', ip: null, userAgent: null, current: false },
];

describe(AccountPage.name, () => {
  it('sets up an authenticator app: a QR code made here and the secret to type, a code to confirm, then the recovery codes once', async () => {
    let enabled = false;
    const calls = stubApi({
      'GET /account/sessions': { status: 200, body: { items: sessions } },
      'POST /account/totp': { status: 200, body: { secret: SECRET, uri: `otpauth://totp/Game%20Wallet:ops%40example.com?secret=${SECRET}&issuer=Game%20Wallet` } },
      'POST /account/totp/confirm': (body) => {
        enabled = JSON.stringify(body) === '{"code":"123456"}';
        return enabled ? { status: 200, body: { recoveryCodes: CODES } } : { status: 401, body: { message: 'Wrong code', code: 'INVALID_CREDENTIALS' } };
      },
      'GET /session': () => ({ status: 200, body: sessionOf(undefined, { totp: enabled, recoveryCodesLeft: enabled ? 10 : 0 }) }),
    });
    const { queryClient } = renderAt(<AccountPage />, '/account', sessionOf());
    await userEvent.click(screen.getByRole('button', { name: 'Set up an authenticator app' }));
    const dialog = await screen.findByRole('dialog', { name: 'Set up an authenticator app' });
    const qr = await within(dialog).findByRole('img', { name: /QR code/ });
    expect(qr.querySelector('path')?.getAttribute('d')).toMatch(/^M\d+ \d+h1v1h-1z/);
    expect(within(dialog).getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Code from the app'), '12345{Enter}');
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Enter the 6 digits the app shows.');
    await userEvent.type(within(dialog).getByLabelText('Code from the app'), '6{Enter}');
    const codes = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(codes).getAllByRole('listitem').map((item) => item.textContent)).toEqual(CODES);
    expect(screen.getByText(/They will not be shown again/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy recovery codes' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(await screen.findByText(/10 of 10/)).toBeInTheDocument();
    expect(document.body.innerHTML).not.toContain(CODES[0]);
    expect(document.body.innerHTML).not.toContain('JBSW');
    expect(JSON.stringify(queryClient.getQueryCache().getAll().map((query) => query.state.data))).not.toMatch(new RegExp(`${SECRET}|${CODES[0]}`));
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual(['/account/totp', '/account/totp/confirm']);
  });

  it('changes the password with the current one, checks the new one first, and says how many other sessions ended', async () => {
    const calls = stubApi({
      'GET /account/sessions': { status: 200, body: { items: sessions } },
      'PUT /account/password': { status: 200, body: { endedSessions: 2 } },
    });
    renderAt(<AccountPage />, '/account', sessionOf());
    const section = screen.getByRole('region', { name: 'Password' });
    await userEvent.type(within(section).getByLabelText('Current password'), 'old password 1');
    await userEvent.type(within(section).getByLabelText('New password'), 'too short');
    await userEvent.type(within(section).getByLabelText('New password, again'), 'too short');
    await userEvent.click(within(section).getByRole('button', { name: 'Change password' }));
    expect(within(section).getByText('At least 12 characters.')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
    await userEvent.clear(within(section).getByLabelText('New password'));
    await userEvent.type(within(section).getByLabelText('New password'), 'a much longer passphrase');
    await userEvent.click(within(section).getByRole('button', { name: 'Change password' }));
    expect(within(section).getByText('The two passwords differ.')).toBeInTheDocument();
    await userEvent.clear(within(section).getByLabelText('New password, again'));
    await userEvent.type(within(section).getByLabelText('New password, again'), 'a much longer passphrase');
    await userEvent.click(within(section).getByRole('button', { name: 'Change password' }));
    expect(await within(section).findByText('Password changed. 2 other sessions were ended.')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ currentPassword: 'old password 1', newPassword: 'a much longer passphrase' });
    expect(within(section).getByLabelText('Current password')).toHaveValue('');
  });

  it('lists the sessions with this one marked, ends one, then all others', async () => {
    const calls = stubApi({
      'GET /account/sessions': { status: 200, body: { items: sessions } },
      'DELETE /account/sessions/s2': { status: 204 },
      'DELETE /account/sessions': { status: 204 },
    });
    renderAt(<AccountPage />, '/account', sessionOf());
    const table = await screen.findByRole('table', { name: 'Your sessions' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.querySelector('td')?.textContent)).toEqual(['Chrome on LinuxThis session', 'Safari on iOS', 'Unknown']);
    expect(within(rows[0]).queryByRole('button')).not.toBeInTheDocument();
    expect(within(rows[1]).getByText('198.51.100.7')).toBeInTheDocument();
    await userEvent.click(within(rows[1]).getByRole('button', { name: /^End the session in Safari on iOS/ }));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE' && call.path === '/account/sessions/s2')).toBe(true));
    await userEvent.click(screen.getByRole('button', { name: 'End all other sessions' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE' && call.path === '/account/sessions')).toBe(true));
  });

  it('adds a passkey with a name through the browser, and removes one after a confirmation', async () => {
    const registration = { id: 'cred', rawId: 'cred', type: 'public-key', response: { attestationObject: 'x', clientDataJSON: 'y' }, clientExtensionResults: {} };
    vi.mocked(startRegistration).mockResolvedValueOnce(registration as never);
    const options = { challenge: 'c', rp: { id: 'localhost', name: 'Game Wallet' }, user: { id: 'u', name: 'ops@example.com', displayName: 'Ops' }, pubKeyCredParams: [] };
    const passkey = { id: 'p1', name: 'Work laptop', createdAt: '2026-11-21T10:00:00.000Z', lastUsedAt: null };
    const calls = stubApi({
      'GET /account/sessions': { status: 200, body: { items: sessions } },
      'POST /account/passkeys/options': { status: 200, body: options },
      'POST /account/passkeys': { status: 201, body: passkey },
      'GET /session': { status: 200, body: sessionOf(undefined, { passkeys: [passkey] }) },
      'DELETE /account/passkeys/p1': { status: 204 },
    });
    renderAt(<AccountPage />, '/account', sessionOf());
    await userEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    const dialog = screen.getByRole('dialog', { name: 'Add a passkey' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create passkey' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Name the passkey');
    await userEvent.type(within(dialog).getByLabelText('Passkey name'), 'Work laptop{Enter}');
    expect(await screen.findByRole('cell', { name: 'Work laptop' })).toBeInTheDocument();
    expect(startRegistration).toHaveBeenCalledWith({ optionsJSON: options });
    expect(calls.find((call) => call.path === '/account/passkeys' && call.method === 'POST')?.body).toEqual({ name: 'Work laptop', response: registration });
    await userEvent.click(screen.getByRole('button', { name: 'Remove passkey Work laptop' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Remove passkey “Work laptop”?' })).getByRole('button', { name: 'Remove passkey' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE' && call.path === '/account/passkeys/p1')).toBe(true));
  });

  it('saves the display name in the session', async () => {
    stubApi({
      'GET /account/sessions': { status: 200, body: { items: [] } },
      'PATCH /account': (body) => ({ status: 200, body: { ...sessionOf(), operator: { ...sessionOf().operator, displayName: (body as { displayName: string }).displayName } } }),
    });
    const { queryClient } = renderAt(<AccountPage />, '/account', sessionOf());
    const name = screen.getByLabelText('Display name');
    await userEvent.clear(name);
    await userEvent.type(name, '  Ada Lovelace {Enter}');
    await waitFor(() => expect(queryClient.getQueryData<ReturnType<typeof sessionOf>>(queryKeys.session)?.operator.displayName).toBe('Ada Lovelace'));
  });
});

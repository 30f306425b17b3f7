import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { renderAt, renderRoutes, stubApi } from '../test-utils';
import { SignInPage } from './sign-in-page';

vi.mock('@simplewebauthn/browser', async (importOriginal) => ({ ...(await importOriginal<object>()), startAuthentication: vi.fn() }));
const { startAuthentication } = await import('@simplewebauthn/browser');

const NO_SESSION = { status: 401, body: { message: 'A console session is required', code: 'UNAUTHENTICATED' } };
const challenge = (methods: string[], passkey: Record<string, unknown> | null = null) => ({
  status: 200,
  body: { secondFactor: { challenge: 'ch-1', methods, passkey, expiresAt: new Date(Date.now() + 300_000).toISOString() } },
});
const account = { operator: { id: 'o1', email: 'ops@example.com', displayName: '', grants: [{ role: 'owner', gameId: null }] }, twoFactor: { totp: true, passkeys: [], recoveryCodesLeft: 10, required: false } };

/** Sign-in with the page it goes to after (the `next` page). */
function renderSignIn() {
  return renderRoutes(
    <>
      <Route path="/sign-in" element={<SignInPage />} />
      <Route path="/games/g1" element={<p>Game page</p>} />
    </>,
    '/sign-in?next=%2Fgames%2Fg1',
  );
}

async function typePassword() {
  await userEvent.type(await screen.findByLabelText('E-mail'), 'ops@example.com');
  await userEvent.type(screen.getByLabelText('Password'), 'the password{Enter}');
}

describe(SignInPage.name, () => {
  it("shows the platform's message inline on wrong credentials and keeps nothing in storage", async () => {
    stubApi({
      'GET /session': { status: 401, body: { message: 'A console session is required', code: 'UNAUTHENTICATED' } },
      'POST /session': { status: 401, body: { message: 'Wrong e-mail or password', code: 'INVALID_CREDENTIALS' } },
    });
    renderAt(<SignInPage />, '/sign-in');
    await userEvent.type(await screen.findByLabelText('E-mail'), 'ops@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'nope{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong e-mail or password');
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(localStorage.length + sessionStorage.length).toBe(0);
  });

  it('says how long a lockout lasts and holds the button until then', async () => {
    stubApi({
      'GET /session': { status: 401, body: { message: 'A console session is required', code: 'UNAUTHENTICATED' } },
      'POST /session': { status: 429, body: { message: 'Too many failed sign-ins', code: 'RATE_LIMITED' }, headers: { 'retry-after': '37' } },
    });
    renderAt(<SignInPage />, '/sign-in');
    await userEvent.type(await screen.findByLabelText('E-mail'), 'ops@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'nope{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(/locked\. Try again in 3[67] s\./);
    await userEvent.type(screen.getByLabelText('Password'), 'again');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeDisabled();
  });
});

describe('the second step of sign-in', () => {
  it('asks for the code of the authenticator app, sends it with the challenge, and opens the page asked for', async () => {
    let signedIn = false;
    const calls = stubApi({
      'GET /session': () => (signedIn ? { status: 200, body: account } : NO_SESSION),
      'POST /session': challenge(['totp', 'recovery-code']),
      'POST /session/second-factor': (body) => {
        signedIn = JSON.stringify(body) === '{"challenge":"ch-1","totp":"123456"}';
        return signedIn ? { status: 200, body: { token: 'not-kept', expiresAt: '2026-11-22T10:00:00.000Z' } } : { status: 401, body: { message: 'Wrong code', code: 'INVALID_CREDENTIALS' } };
      },
    });
    renderSignIn();
    await typePassword();
    expect(await screen.findByRole('heading', { name: 'Two-step verification' })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Authentication code'), '654321{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong code');
    expect(screen.getByLabelText('Authentication code')).toHaveValue('');
    await userEvent.type(screen.getByLabelText('Authentication code'), '123 456{Enter}');
    expect(await screen.findByText('Game page')).toBeInTheDocument();
    expect(calls.filter((call) => call.path === '/session/second-factor').map((call) => call.body)).toEqual([
      { challenge: 'ch-1', totp: '654321' },
      { challenge: 'ch-1', totp: '123456' },
    ]);
    expect(localStorage.length + sessionStorage.length).toBe(0);
  });

  it('takes a recovery code instead', async () => {
    const calls = stubApi({
      'GET /session': NO_SESSION,
      'POST /session': challenge(['totp', 'recovery-code']),
      'POST /session/second-factor': { status: 401, body: { message: 'Wrong code', code: 'INVALID_CREDENTIALS' } },
    });
    renderSignIn();
    await typePassword();
    await userEvent.click(await screen.findByRole('button', { name: 'Use a recovery code instead' }));
    await userEvent.type(screen.getByLabelText('Recovery code'), 'abcde-12345{Enter}');
    await screen.findByRole('alert');
    expect(calls.find((call) => call.path === '/session/second-factor')?.body).toEqual({ challenge: 'ch-1', recoveryCode: 'abcde-12345' });
  });

  it("signs in with a passkey from the challenge's options", async () => {
    const options = { challenge: 'webauthn-challenge', rpId: 'localhost' };
    const assertion = { id: 'cred', rawId: 'cred', type: 'public-key', response: {}, clientExtensionResults: {} };
    vi.mocked(startAuthentication).mockResolvedValueOnce(assertion as never);
    let signedIn = false;
    const calls = stubApi({
      'GET /session': () => (signedIn ? { status: 200, body: account } : NO_SESSION),
      'POST /session': challenge(['passkey', 'recovery-code'], options),
      'POST /session/second-factor': () => {
        signedIn = true;
        return { status: 200, body: { token: 'not-kept', expiresAt: '2026-11-22T10:00:00.000Z' } };
      },
    });
    renderSignIn();
    await typePassword();
    await userEvent.click(await screen.findByRole('button', { name: 'Use a passkey' }));
    expect(await screen.findByText('Game page')).toBeInTheDocument();
    expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: options });
    expect(calls.find((call) => call.path === '/session/second-factor')?.body).toEqual({ challenge: 'ch-1', passkey: assertion });
  });

  it('goes back to the password once the challenge is over', async () => {
    stubApi({ 'GET /session': NO_SESSION, 'POST /session': { status: 200, body: { secondFactor: { challenge: 'ch-1', methods: ['totp'], passkey: null, expiresAt: '2020-01-01T00:00:00.000Z' } } } });
    renderSignIn();
    await typePassword();
    await userEvent.type(await screen.findByLabelText('Authentication code'), '123456{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('The sign-in took longer than 5 minutes. Enter your password again.');
    expect(screen.getByRole('heading', { name: 'Sign in to the console' })).toBeInTheDocument();
  });
});

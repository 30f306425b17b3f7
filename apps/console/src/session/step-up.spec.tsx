import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiKeysTab } from '../game/api-keys-tab';
import { renderGameTab, sessionOf, stubApi } from '../test-utils';
import { StepUpProvider } from './step-up';

vi.mock('@simplewebauthn/browser', async (importOriginal) => ({ ...(await importOriginal<object>()), startAuthentication: vi.fn() }));
const { startAuthentication } = await import('@simplewebauthn/browser');

const game = { id: 'g1', name: 'Space Miners', createdAt: '2026-11-21T10:00:00.000Z' };
const key = { id: 'k2', name: 'ci', preview: 'gk_AbCd…wXyZ', active: true, createdAt: '2026-11-21T10:00:00.000Z', lastUsedAt: null, signedRequests: 'off', signingKeys: [], key: `gk_${'S'.repeat(40)}` };
const STEP_UP = { status: 401, body: { message: 'This action needs a second factor given within the last 5 minutes', code: 'STEP_UP_REQUIRED' } };

/** The key creation is refused with STEP_UP_REQUIRED until a step-up was accepted. */
function stubStepUp(accept: (body: unknown) => boolean, extra: Parameters<typeof stubApi>[0] = {}) {
  let steppedUp = false;
  return stubApi({
    'GET /games/g1/api-keys': { status: 200, body: { items: [] } },
    'POST /games/g1/api-keys': () => (steppedUp ? { status: 201, body: key } : STEP_UP),
    'POST /session/step-up': (body) => {
      steppedUp = accept(body);
      return steppedUp ? { status: 200, body: { stepUpUntil: '2026-11-21T10:05:00.000Z' } } : { status: 401, body: { message: 'Wrong code', code: 'INVALID_CREDENTIALS' } };
    },
    ...extra,
  });
}

async function createKey() {
  await userEvent.click(await screen.findByRole('button', { name: 'Add API Key' }));
  await userEvent.type(screen.getByLabelText(/Key name/), 'ci{Enter}');
  return screen.findByRole('dialog', { name: 'Confirm it is you' });
}

describe(StepUpProvider.name, () => {
  it('asks for a code when an action needs a fresh second factor, then retries it once: the key is created as if nothing happened', async () => {
    const calls = stubStepUp((body) => JSON.stringify(body) === '{"totp":"123456"}');
    renderGameTab(<ApiKeysTab />, game, sessionOf(undefined, { totp: true, recoveryCodesLeft: 10 }));
    const dialog = await createKey();
    await userEvent.type(within(dialog).getByLabelText('Authentication code'), '000000{Enter}');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Wrong code');
    await userEvent.type(within(dialog).getByLabelText('Authentication code'), '123 456{Enter}');
    expect(await screen.findByLabelText(/Secret key/)).toHaveValue(key.key);
    expect(screen.queryByRole('dialog', { name: 'Confirm it is you' })).not.toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([
      '/games/g1/api-keys',
      '/session/step-up',
      '/session/step-up',
      '/games/g1/api-keys',
    ]);
  });

  it('takes a recovery code instead of the app', async () => {
    const calls = stubStepUp((body) => JSON.stringify(body) === '{"recoveryCode":"abcde-12345"}');
    renderGameTab(<ApiKeysTab />, game, sessionOf(undefined, { totp: true, recoveryCodesLeft: 3 }));
    const dialog = await createKey();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Use a recovery code instead' }));
    await userEvent.type(within(dialog).getByLabelText('Recovery code'), ' abcde-12345 {Enter}');
    expect(await screen.findByLabelText(/Secret key/)).toHaveValue(key.key);
    expect(calls.find((call) => call.path === '/session/step-up')?.body).toEqual({ recoveryCode: 'abcde-12345' });
  });

  it('asks an operator without a second factor for the password', async () => {
    const calls = stubStepUp((body) => JSON.stringify(body) === '{"password":"my long password"}');
    renderGameTab(<ApiKeysTab />, game, sessionOf());
    const dialog = await createKey();
    expect(within(dialog).queryByLabelText('Authentication code')).not.toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Password'), 'my long password{Enter}');
    expect(await screen.findByLabelText(/Secret key/)).toHaveValue(key.key);
    expect(calls.filter((call) => call.path === '/session/step-up')).toHaveLength(1);
  });

  it('uses a passkey: options first, then the assertion the browser made', async () => {
    const assertion = { id: 'cred', rawId: 'cred', type: 'public-key', response: { clientDataJSON: 'x' }, clientExtensionResults: {} };
    vi.mocked(startAuthentication).mockResolvedValueOnce(assertion as never);
    const options = { challenge: 'abc', rpId: 'localhost', allowCredentials: [] };
    const calls = stubStepUp((body) => JSON.stringify(body) === JSON.stringify({ passkey: assertion }), {
      'POST /session/step-up/options': { status: 200, body: { passkey: options } },
    });
    const passkeys = [{ id: 'p1', name: 'Laptop', createdAt: '2026-11-21T10:00:00.000Z', lastUsedAt: null }];
    renderGameTab(<ApiKeysTab />, game, sessionOf(undefined, { passkeys }));
    const dialog = await createKey();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Use a passkey' }));
    expect(await screen.findByLabelText(/Secret key/)).toHaveValue(key.key);
    expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: options });
    expect(calls.map((call) => call.path)).toContain('/session/step-up/options');
  });

  it('cancelling rejects the action with a message saying so, and keeps the session', async () => {
    const calls = stubStepUp(() => false);
    const { queryClient } = renderGameTab(<ApiKeysTab />, game, sessionOf(undefined, { totp: true }));
    const dialog = await createKey();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    const addDialog = screen.getByRole('dialog', { name: 'Add API Key' });
    expect(await within(addDialog).findByRole('alert')).toHaveTextContent(/^Not done: this action needs you to confirm it is you/);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Confirm it is you' })).not.toBeInTheDocument());
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual(['/games/g1/api-keys']);
    expect(queryClient.getQueryData(['session'])).not.toBeNull();
  });
});

import type { ApiKeyView, SigningKeyView } from '@game-wallet/contracts/views';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '../api/queries';
import { renderGameTab, sessionOf, stubApi } from '../test-utils';
import { ApiKeysTab } from './api-keys-tab';
import { RequestSigningDrawer } from './request-signing-drawer';

const game = { id: 'g1', name: 'Space Miners', createdAt: '2026-11-21T10:00:00.000Z' };
const FINGERPRINT = 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k';
const ed: SigningKeyView = {
  id: FINGERPRINT,
  name: 'build server',
  algorithm: 'ed25519',
  publicKey: { kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' },
  createdAt: '2026-11-21T10:00:00.000Z',
  lastUsedAt: null,
};
const p256: SigningKeyView = {
  id: 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs',
  name: 'P-256 key',
  algorithm: 'ecdsa-p256-sha256',
  publicKey: { kty: 'EC', crv: 'P-256', x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU', y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0' },
  createdAt: '2026-11-22T10:00:00.000Z',
  lastUsedAt: '2026-11-23T09:30:00.000Z',
};
const apiKey = (change: Partial<ApiKeyView> = {}): ApiKeyView => ({
  id: 'k1',
  name: 'server',
  preview: 'gk_AbCd…wXyZ',
  active: true,
  createdAt: '2026-11-21T10:00:00.000Z',
  lastUsedAt: null,
  signedRequests: 'off',
  signingKeys: [],
  ...change,
});
const PEM = '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=\n-----END PUBLIC KEY-----';
const listed = (...items: ApiKeyView[]) => ({ 'GET /games/g1/api-keys': { status: 200, body: { items } } });
const render = (session = sessionOf()) => renderGameTab(<ApiKeysTab />, game, session);

async function openDrawer(name = 'server') {
  await userEvent.click(await screen.findByRole('button', { name: `Request signing of ${name}` }));
  return screen.getByRole('dialog', { name: `Request signing: “${name}”` });
}

async function addKey(text: string, name = '') {
  const drawer = await openDrawer();
  await userEvent.click(within(drawer).getByRole('button', { name: 'Add signing key' }));
  const dialog = screen.getByRole('dialog', { name: 'Add signing key' });
  if (name !== '') {
    await userEvent.type(within(dialog).getByLabelText(/Name/), name);
  }
  // Typed as the user pastes it: `{` and `[` are special to userEvent.type.
  await userEvent.click(within(dialog).getByLabelText('Public key'));
  await userEvent.paste(text);
  await userEvent.click(within(dialog).getByRole('button', { name: 'Add signing key' }));
  return dialog;
}

describe(RequestSigningDrawer.name, () => {
  it.each([
    ['off', null],
    ['signing', 'Signed requests: signing routes'],
    ['all', 'Signed requests: every request'],
  ] as const)('shows in the list which requests of a key must be signed: %s', async (signedRequests, badge) => {
    stubApi(listed(apiKey({ signedRequests, signingKeys: signedRequests === 'off' ? [] : [ed] })));
    render();
    const name = await screen.findByRole('cell', { name: /^server/ });
    expect(name.querySelector('.badge')?.textContent ?? null).toBe(badge);
  });

  it('shows the setting, each choice in a line, and each signing key with its algorithm, fingerprint to copy, when it was added and last used', async () => {
    stubApi(listed(apiKey({ signedRequests: 'signing', signingKeys: [ed, p256] })));
    render();
    const drawer = await openDrawer();
    expect(within(drawer).getByRole('radio', { name: /^Signing routes only/ })).toBeChecked();
    expect(within(drawer).getByRole('radio', { name: /^Off/ })).toHaveAccessibleName(/No request with this key needs a signature/);
    expect(within(drawer).getByRole('radio', { name: /^Every request/ })).toHaveAccessibleName(/reads and player creation included/);
    expect(within(drawer).getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(within(drawer).getByText('(2 of 3)')).toBeInTheDocument();
    const [first, second] = within(within(drawer).getByRole('list', { name: 'Signing keys of server' })).getAllByRole('listitem');
    expect(first).toHaveAccessibleName('build server');
    expect(within(first).getByText('Ed25519')).toBeInTheDocument();
    expect(within(first).getByText(FINGERPRINT).tagName).toBe('CODE');
    expect(within(first).getByRole('button', { name: 'Copy fingerprint of build server' })).toBeInTheDocument();
    expect(within(first).getByText('Never')).toBeInTheDocument();
    expect(within(second).getByText('P-256')).toBeInTheDocument();
    expect(within(second).getByText((_, element) => element?.tagName === 'TIME' && element.getAttribute('datetime') === p256.lastUsedAt)).toBeInTheDocument();
  });

  it('requires signatures on signing routes: saved with the choice, and the list shows it', async () => {
    const calls = stubApi({
      ...listed(apiKey({ signingKeys: [ed] })),
      'PATCH /games/g1/api-keys/k1': (body) => ({ status: 200, body: apiKey({ signingKeys: [ed], ...(body as object) }) }),
    });
    const { queryClient } = render();
    const drawer = await openDrawer();
    await userEvent.click(within(drawer).getByRole('radio', { name: /^Signing routes only/ }));
    await userEvent.click(within(drawer).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Signed requests of “server”: signing routes only')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual([{ signedRequests: 'signing' }]);
    expect(within(drawer).getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(queryClient.getQueryData<ApiKeyView[]>(queryKeys.apiKeys('g1'))?.[0]?.signedRequests).toBe('signing');
    await userEvent.click(within(drawer).getByRole('button', { name: 'Close' }));
    expect(screen.getByText('Signed requests: signing routes')).toBeInTheDocument();
  });

  it("offers only Off to a key with no signing key, and shows the platform's refusal of a setting in its words", async () => {
    stubApi({
      ...listed(apiKey(), apiKey({ id: 'k2', name: 'ci', signingKeys: [ed] })),
      'PATCH /games/g1/api-keys/k2': { status: 409, body: { message: 'Register a request-signing key before requiring signed requests', code: 'SIGNING_KEY_REQUIRED' } },
    });
    render();
    const drawer = await openDrawer();
    expect(within(drawer).getByRole('radio', { name: /^Every request/ })).toBeDisabled();
    expect(within(drawer).getByText(/Requiring signatures needs a signing key/)).toBeInTheDocument();
    await userEvent.click(within(drawer).getByRole('button', { name: 'Close' }));
    const other = await openDrawer('ci');
    await userEvent.click(within(other).getByRole('radio', { name: /^Every request/ }));
    await userEvent.click(within(other).getByRole('button', { name: 'Save' }));
    expect(await within(other).findByRole('alert')).toHaveTextContent('Register a request-signing key before requiring signed requests');
  });

  it('adds a key pasted as a JWK as the JSON object it is, with its name; it shows at once', async () => {
    const calls = stubApi({ ...listed(apiKey()), 'POST /games/g1/api-keys/k1/signing-keys': { status: 201, body: ed } });
    render();
    const dialog = await addKey(JSON.stringify(ed.publicKey, null, 2), 'build server');
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([{ name: 'build server', publicKey: ed.publicKey }]);
    expect(screen.getByText('Signing key “build server” (Ed25519) added to “server”')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Signing keys of server' })).getByText(FINGERPRINT)).toBeInTheDocument();
  });

  it('adds a key pasted as a PEM as its text, with no name when none was given', async () => {
    const calls = stubApi({ ...listed(apiKey()), 'POST /games/g1/api-keys/k1/signing-keys': { status: 201, body: { ...ed, name: 'Ed25519 key' } } });
    render();
    await addKey(`  ${PEM}\n`);
    await screen.findByText('Signing key “Ed25519 key” (Ed25519) added to “server”');
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([{ publicKey: PEM }]);
  });

  it.each([
    ['not a public key', 400, { message: 'publicKey must be a PEM public key (-----BEGIN PUBLIC KEY-----) or a JWK object', code: 'VALIDATION_FAILED' }],
    ['already registered', 409, { message: `This public key is already registered (fingerprint ${FINGERPRINT})`, code: 'SIGNING_KEY_EXISTS' }],
  ])("shows the platform's refusal of a key (%s) in the dialog, in its words", async (_, status, body) => {
    stubApi({ ...listed(apiKey()), 'POST /games/g1/api-keys/k1/signing-keys': { status, body } });
    render();
    const dialog = await addKey(PEM);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(body.message);
  });

  it.each([
    ['a PEM private key', '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIJ+DYvh6SEqVTm50DFtMDoQikTmiCqirVv9mWG9qfSnF\n-----END PRIVATE KEY-----'],
    ['a private JWK', JSON.stringify({ ...ed.publicKey, d: 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU' })],
  ])('sends nothing for %s, and says to make a new pair', async (_, text) => {
    const calls = stubApi(listed(apiKey()));
    render();
    const dialog = await addKey(text);
    expect(within(dialog).getByText(/This is a private key: it must never leave the server that signs/)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Public key')).toHaveAttribute('aria-invalid', 'true');
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('sends nothing for text that starts like a JWK but is not JSON', async () => {
    const calls = stubApi(listed(apiKey()));
    render();
    const dialog = await addKey('{"kty": "OKP",');
    expect(within(dialog).getByText('This starts like a JWK but is not valid JSON.')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('removes a key only after a confirmation that names it; the last key of a key whose requests must be signed stays', async () => {
    const calls = stubApi({ ...listed(apiKey({ signedRequests: 'all', signingKeys: [ed, p256] })), [`DELETE /games/g1/api-keys/k1/signing-keys/${p256.id}`]: { status: 204 } });
    render();
    const drawer = await openDrawer();
    await userEvent.click(within(drawer).getByRole('button', { name: 'Remove P-256 key' }));
    const confirm = screen.getByRole('dialog', { name: 'Remove signing key “P-256 key”?' });
    expect(within(confirm).getByText(p256.id)).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Remove signing key' }));
    await waitFor(() => expect(within(drawer).queryByText(p256.id)).not.toBeInTheDocument());
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual([`/games/g1/api-keys/k1/signing-keys/${p256.id}`]);

    await userEvent.click(within(drawer).getByRole('button', { name: 'Remove build server' }));
    const last = screen.getByRole('dialog', { name: 'Remove signing key “build server”?' });
    expect(within(last).getByText(/this is its only signing key/)).toBeInTheDocument();
    expect(within(last).queryByRole('button', { name: 'Remove signing key' })).not.toBeInTheDocument();
  });

  it('shows a viewer the setting and the keys, read-only', async () => {
    stubApi(listed(apiKey({ signedRequests: 'signing', signingKeys: [ed] })));
    render(sessionOf([{ role: 'viewer', gameId: 'g1' }]));
    const drawer = await openDrawer();
    expect(within(drawer).getByText(FINGERPRINT)).toBeInTheDocument();
    expect(within(drawer).getAllByRole('radio').every((radio) => (radio as HTMLInputElement).disabled)).toBe(true);
    expect(within(drawer).getByRole('radio', { name: /^Signing routes only/ })).toBeChecked();
    expect(within(drawer).queryByRole('button', { name: /^(Save|Add signing key|Remove)/ })).not.toBeInTheDocument();
  });

  it('asks for a second factor when the platform wants one, then saves the setting as if nothing happened', async () => {
    let steppedUp = false;
    const calls = stubApi({
      ...listed(apiKey({ signingKeys: [ed] })),
      'PATCH /games/g1/api-keys/k1': () =>
        steppedUp
          ? { status: 200, body: apiKey({ signingKeys: [ed], signedRequests: 'all' }) }
          : { status: 401, body: { message: 'This action needs a second factor given within the last 5 minutes', code: 'STEP_UP_REQUIRED' } },
      'POST /session/step-up': () => {
        steppedUp = true;
        return { status: 200, body: { stepUpUntil: '2026-11-21T10:05:00.000Z' } };
      },
    });
    render();
    const drawer = await openDrawer();
    await userEvent.click(within(drawer).getByRole('radio', { name: /^Every request/ }));
    await userEvent.click(within(drawer).getByRole('button', { name: 'Save' }));
    const stepUp = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    await userEvent.type(within(stepUp).getByLabelText('Password'), 'the password{Enter}');
    expect(await screen.findByText('Signed requests of “server”: every request')).toBeInTheDocument();
    expect(calls.filter((call) => call.method !== 'GET').map((call) => `${call.method} ${call.path}`)).toEqual([
      'PATCH /games/g1/api-keys/k1',
      'POST /session/step-up',
      'PATCH /games/g1/api-keys/k1',
    ]);
  });
});

import { REPO_ROOT, TEST_OPERATOR, TestPlatform, consoleToken, createGame, createPlayer, http, waitFor } from '@game-wallet/testing';
import { copyFileSync, mkdirSync } from 'node:fs';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { SCREENSHOTS, VIEWPORTS, WatchedPage, checkScreen, launchChromium, openPage, openSignedIn, staleSecondFactor, startTogether } from './browser';

/** A random (version 4) UUID as a Structured Field String, as the IETF draft writes an `Idempotency-Key`. */
const QUOTED_UUID = /^"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"$/;

/** A new Ed25519 key pair's public key as a PEM, and its RFC 7638 thumbprint, computed here from the JWK. */
function ed25519PublicKey(): { pem: string; thumbprint: string } {
  const { publicKey } = generateKeyPairSync('ed25519');
  const { x } = publicKey.export({ format: 'jwk' });
  // RFC 7638 §3.2: the required members in lexicographic order, no whitespace; SHA-256, base64url.
  const thumbprint = createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest('base64url');
  return { pem: publicKey.export({ type: 'spki', format: 'pem' }).toString(), thumbprint };
}

/**
 * Request signing of an API key in Chromium against the real platform: an operator pastes the PEM of an Ed25519 public
 * key made here, the console shows its fingerprint (the RFC 7638 thumbprint computed here), and after a step-up
 * requires signatures on signing routes; the game's key then gets 401 `SIGNATURE_REQUIRED` for a plain sign and 200
 * for a plain read, and the audit trail tells each change. Every write carries its own `Idempotency-Key`. At desktop
 * and phone width: no serious or critical axe-core violation, nothing wider than the window. `UPDATE_SCREENSHOTS=1`
 * also copies the drawer's screenshots to docs/.
 */
describe('web console: API key request signing (Chromium)', () => {
  let platform: TestPlatform;
  let browser: Browser;
  let token: string;
  const opened: WatchedPage[] = [];

  beforeAll(async () => {
    await startTogether(TestPlatform.start('console-api-key-signing').then((started) => (platform = started)), launchChromium().then((launched) => (browser = launched)));
    token = await consoleToken(platform);
  });

  afterEach(async () => {
    const pages = opened.splice(0);
    await Promise.all(pages.map((watched) => watched.context.close()));
    expect(pages.flatMap((watched) => [...watched.problems, ...watched.dialogs.map((message) => `dialog: ${message}`)])).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  const newPage = async (viewport: { width: number; height: number }): Promise<WatchedPage> => {
    const watched = await openPage(browser, viewport);
    opened.push(watched);
    return watched;
  };
  const tab = (page: Page, name: string) => page.getByRole('navigation', { name: 'Game sections' }).getByRole('link', { name, exact: true });
  /** Waits for the confirmations to fade (4 s), so that a screenshot shows the page alone. */
  const noToasts = (page: Page) => page.locator('.toast').first().waitFor({ state: 'detached', timeout: 6000 });

  it.each(Object.entries(VIEWPORTS))(
    '%s: a pasted Ed25519 public key shows its RFC 7638 fingerprint; "signing routes only" (after a step-up) refuses a plain sign and lets a plain read through; the audit trail tells it',
    async (label, viewport) => {
      const game = await createGame(platform, token, `Signed Quest ${label}`);
      const { walletId } = await createPlayer(platform, game.key);
      const { pem, thumbprint } = ed25519PublicKey();
      const plainSign = () => http<{ code?: string }>('POST', `${platform.baseUrl}/v1/wallet/${walletId}/sign`, { apiKey: game.key, body: { chain: 'evm', message: `hello from ${label}` } });
      expect((await plainSign()).status).toBe(200);

      const { page } = await newPage(viewport);
      const writes: { method: string; path: string; idempotencyKey: string | undefined }[] = [];
      page.on('request', (request) => {
        if (request.method() !== 'GET' && request.url().includes('/api-keys/')) {
          writes.push({ method: request.method(), path: new URL(request.url()).pathname, idempotencyKey: request.headers()['idempotency-key'] });
        }
      });
      await openSignedIn(page, platform, `/games/${game.gameId}/api-keys`);
      const row = page.getByRole('row').filter({ hasText: 'test key' });
      await expect(row.locator('.badge.signed').count()).resolves.toBe(0);
      await row.getByRole('button', { name: 'Request signing of test key' }).click();
      const drawer = page.getByRole('dialog', { name: 'Request signing: “test key”' });
      await drawer.getByText('No signing key yet.').waitFor();
      await expect(drawer.getByRole('radio', { name: /^Signing routes only/ }).isDisabled()).resolves.toBe(true);

      await drawer.getByRole('button', { name: 'Add signing key' }).click();
      const add = page.getByRole('dialog', { name: 'Add signing key' });
      await add.getByLabel(/Name/).fill('game server');
      await add.getByLabel('Public key').fill(pem);
      await add.getByRole('button', { name: 'Add signing key' }).click();
      await add.waitFor({ state: 'detached' });
      const item = drawer.getByRole('listitem', { name: 'game server' });
      await expect(item.locator('code').textContent()).resolves.toBe(thumbprint);
      await expect(item.locator('.badge').textContent()).resolves.toBe('Ed25519');
      await expect(item.locator('dd').last().textContent()).resolves.toBe('Never');

      // The same key again: the platform's refusal, in its words, in the dialog.
      await drawer.getByRole('button', { name: 'Add signing key' }).click();
      await add.getByLabel('Public key').fill(pem);
      await add.getByRole('button', { name: 'Add signing key' }).click();
      await add.getByRole('alert').getByText(`This public key is already registered (fingerprint ${thumbprint})`).waitFor();
      await checkScreen(page, `${label}-41-add-signing-key-refused`, false);
      await add.getByRole('button', { name: 'Cancel' }).click();

      // Five minutes after the sign-in: the change asks for the password again, then goes through.
      await staleSecondFactor(platform, TEST_OPERATOR.email);
      await drawer.getByRole('radio', { name: /^Signing routes only/ }).check();
      await drawer.getByRole('button', { name: 'Save' }).click();
      const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
      await stepUp.getByLabel('Password').fill(TEST_OPERATOR.password);
      await stepUp.getByRole('button', { name: 'Confirm' }).click();
      await page.getByText('Signed requests of “test key”: signing routes only').waitFor();
      await expect(drawer.getByRole('button', { name: 'Save' }).isDisabled()).resolves.toBe(true);

      // The gateways follow within a second: a plain sign is refused, a plain read is not.
      const refused = await waitFor(async () => {
        const answer = await plainSign();
        return answer.status === 200 ? null : answer;
      }, 3000, 'a plain sign to be refused');
      expect([refused.status, refused.body.code]).toEqual([401, 'SIGNATURE_REQUIRED']);
      expect((await http('GET', `${platform.baseUrl}/v1/wallet/${walletId}`, { apiKey: game.key })).status).toBe(200);

      // Each write its own key; the change refused for the step-up was sent again under a new one.
      const keyPath = `/v1/console/games/${game.gameId}/api-keys/${game.keyId}`;
      expect(writes.map(({ method, path }) => `${method} ${path}`)).toEqual([`POST ${keyPath}/signing-keys`, `POST ${keyPath}/signing-keys`, `PATCH ${keyPath}`, `PATCH ${keyPath}`]);
      expect(writes.map((write) => write.idempotencyKey)).toEqual(Array(4).fill(expect.stringMatching(QUOTED_UUID)));
      expect(new Set(writes.map((write) => write.idempotencyKey)).size).toBe(4);

      await noToasts(page);
      await checkScreen(page, `${label}-40-api-key-signing`, false);
      if (process.env.UPDATE_SCREENSHOTS === '1') {
        mkdirSync(join(REPO_ROOT, 'docs'), { recursive: true });
        copyFileSync(join(SCREENSHOTS, `${label}-40-api-key-signing.png`), join(REPO_ROOT, 'docs', `console-api-key-signing-${label}.png`));
      }

      await drawer.getByRole('button', { name: 'Close' }).click();
      await row.locator('.badge.signed', { hasText: 'Signed requests: signing routes' }).waitFor();
      await checkScreen(page, `${label}-42-api-keys-signed`);

      await tab(page, 'Audit').click();
      const actions = page.locator('td[data-label="Action"]');
      await actions.first().waitFor();
      // Between them, the signatures the plain signs made ("Signed").
      const changes = (await actions.allTextContents()).filter((action) => action !== 'Signed');
      expect(changes).toEqual(['Signed requests required', 'Signing key added', 'API key created', 'Game created']);
      const detailsOf = (action: string) => page.getByRole('row').filter({ has: page.locator('td[data-label="Action"]', { hasText: action }) }).locator('td[data-label="Details"]').textContent();
      await expect(detailsOf('Signed requests required')).resolves.toMatch(/^signing routes only · name: test key/);
      await expect(detailsOf('Signing key added')).resolves.toMatch(new RegExp(`^Ed25519 key, fingerprint ${thumbprint} · name: test key`));
      await checkScreen(page, `${label}-43-audit-signing`);
    },
  );
});

import { CreatedWebhookEndpointView } from '@game-wallet/contracts';
import { REPO_ROOT, TestPlatform, WebhookReceiver, consoleToken, createGame, createPlayer, http, queryOnce, waitFor } from '@game-wallet/testing';
import { copyFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { SCREENSHOTS, VIEWPORTS, WatchedPage, checkScreen, launchChromium, openPage, openSignedIn, startTogether } from './browser';

/** A port nothing listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * The Webhooks tab in Chromium against the real platform and a game backend's receiver on loopback (which verifies
 * every request with the `standardwebhooks` package): an endpoint added, its secret shown once, a test event sent and
 * seen to succeed in the delivery log, then redelivered; and the tab at desktop and phone width with an endpoint the
 * platform disabled. No serious or critical axe-core violation, nothing wider than the window. `UPDATE_SCREENSHOTS=1`
 * also copies the tab's screenshots to docs/.
 */
describe('web console: webhooks (Chromium)', () => {
  let platform: TestPlatform;
  let browser: Browser;
  let receiver: WebhookReceiver;
  let token: string;
  const opened: WatchedPage[] = [];

  beforeAll(async () => {
    await startTogether(
      // Two quick retries: a delivery to an endpoint that refuses fails within seconds.
      TestPlatform.start('console-webhooks', { env: { WEBHOOK_RETRY_SCHEDULE: '1,1', WEBHOOK_TIMEOUT_MS: '1000' } }).then((started) => (platform = started)),
      launchChromium().then((launched) => (browser = launched)),
      WebhookReceiver.start().then((started) => (receiver = started)),
    );
    receiver.answer = () => ({ status: 200, body: '{"received":true}', headers: { 'content-type': 'application/json' } });
    token = await consoleToken(platform);
  });

  afterEach(async () => {
    const pages = opened.splice(0);
    await Promise.all(pages.map((watched) => watched.context.close()));
    expect(pages.flatMap((watched) => [...watched.problems, ...watched.dialogs.map((message) => `dialog: ${message}`)])).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    await receiver?.stop();
    await platform?.stop();
  });

  const newPage = async (viewport: { width: number; height: number } = VIEWPORTS.desktop): Promise<WatchedPage> => {
    const watched = await openPage(browser, viewport);
    opened.push(watched);
    return watched;
  };
  const tab = (page: Page, name: string) => page.getByRole('navigation', { name: 'Game sections' }).getByRole('link', { name, exact: true });
  /** Waits for the confirmations ("Test event sent") to fade (4 s), so that a screenshot shows the page alone. */
  const noToasts = (page: Page) => page.locator('.toast').first().waitFor({ state: 'detached', timeout: 6000 });

  it('adds an endpoint at a local receiver, shows its secret once, sends a test event that succeeds in the log, and redelivers it', async () => {
    const game = await createGame(platform, token, 'Hooked game');
    const { page } = await newPage();
    await openSignedIn(page, platform, `/games/${game.gameId}`);
    await tab(page, 'Webhooks').click();
    await page.getByText('No webhook endpoints').waitFor();

    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add webhook endpoint' });
    await dialog.getByLabel('Endpoint URL').fill(receiver.url('/game-events'));
    await dialog.getByLabel(/Description/).fill('game backend');
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    const secretField = page.getByLabel(/Signing secret for/);
    const secret = await secretField.inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    receiver.secrets = [secret];
    await page.getByRole('button', { name: 'Done' }).click();
    await secretField.waitFor({ state: 'detached' });
    await expect(page.content()).resolves.not.toContain(secret);

    const card = page.getByRole('article', { name: receiver.url('/game-events') });
    await expect(card.locator('.badge').textContent()).resolves.toBe('Enabled');
    await card.getByRole('button', { name: 'Send test event to game backend' }).click();
    const log = card.getByRole('region', { name: 'Delivery log of game backend' });
    const row = log.getByRole('row').filter({ hasText: 'webhook.test' });
    await row.locator('.badge', { hasText: 'Succeeded' }).waitFor({ timeout: 15_000 });
    await expect(row.locator('td[data-label="Answer"]').textContent()).resolves.toBe('HTTP 200{"received":true}');
    await expect(row.locator('td[data-label="Attempts"]').textContent()).resolves.toBe('1');
    const [test] = receiver.ofType('webhook.test');
    expect(test.verifiedBy).toEqual([true]);
    expect(test.event).toMatchObject({ type: 'webhook.test', gameId: game.gameId, data: { endpointId: expect.any(String) } });

    await row.getByRole('button', { name: /^Redeliver webhook\.test/ }).click();
    await waitFor(() => receiver.of(test.id).length === 2, 15_000, 'the test event delivered again');
    expect(receiver.of(test.id).map((request) => request.verifiedBy)).toEqual([[true], [true]]);
    await row.locator('.badge', { hasText: 'Succeeded' }).waitFor({ timeout: 15_000 });
    await noToasts(page);
    await checkScreen(page, 'desktop-webhooks-test-event');
  });

  it.each(Object.entries(VIEWPORTS))('%s: endpoints (one the platform disabled, and why), their delivery logs, the endpoint form and a rotated secret', async (label, viewport) => {
    const game = await createGame(platform, token, 'Space Miners');
    const api = <T>(method: string, path: string, body?: unknown) => http<T>(method, `${platform.baseUrl}/v1/console/games/${game.gameId}${path}`, { bearer: token, body });
    const live = await api<CreatedWebhookEndpointView>('POST', '/webhooks', { url: receiver.url(`/${label}/events`), eventTypes: ['*'], description: 'production game backend' });
    const staging = await api<CreatedWebhookEndpointView>('POST', '/webhooks', {
      url: `http://127.0.0.1:${await closedPort()}/hooks`,
      eventTypes: ['player.created', 'wallet.signed', 'wallet.signing_denied'],
      description: 'staging backend',
    });
    expect([live.status, staging.status]).toEqual([201, 201]);
    await createPlayer(platform, game.key, 'ada');
    await createPlayer(platform, game.key, 'grace');
    await waitFor(
      async () => (await api<{ items: { status: string }[] }>('GET', `/webhooks/${staging.body.id}/deliveries?status=failed`)).body.items.length === 2,
      20_000,
      'the staging deliveries to fail',
    );
    await waitFor(
      async () => (await api<{ items: { eventType: string }[] }>('GET', `/webhooks/${live.body.id}/deliveries?status=succeeded`)).body.items.filter((item) => item.eventType === 'player.created').length === 2,
      20_000,
      'the live deliveries',
    );
    // The platform disables an endpoint after a day of failures: that day is written here, as the dispatcher writes it.
    await queryOnce(
      platform.databaseUrl,
      `UPDATE identity.webhook_endpoints SET enabled = false, disabled_at = now(), disabled_reason = 'Every attempt failed for 24 h (last: connection refused)' WHERE id = $1`,
      [staging.body.id],
    );

    const { page } = await newPage(viewport);
    await openSignedIn(page, platform, `/games/${game.gameId}/webhooks`);
    const liveCard = page.getByRole('article', { name: receiver.url(`/${label}/events`) });
    const stagingCard = page.getByRole('article', { name: staging.body.url });
    await stagingCard.getByRole('note', { name: 'Disabled by the platform' }).getByText(/Every attempt failed for 24 h/).waitFor();
    await liveCard.getByRole('button', { name: 'Send test event to production game backend' }).click();
    await liveCard.getByRole('row').filter({ hasText: 'webhook.test' }).locator('.badge', { hasText: 'Succeeded' }).waitFor({ timeout: 15_000 });
    await stagingCard.getByRole('button', { name: 'Delivery log' }).click();
    await stagingCard.getByText('connection refused').first().waitFor();
    await noToasts(page);
    await checkScreen(page, `${label}-11-webhooks`);
    if (process.env.UPDATE_SCREENSHOTS === '1') {
      mkdirSync(join(REPO_ROOT, 'docs'), { recursive: true });
      copyFileSync(join(SCREENSHOTS, `${label}-11-webhooks.png`), join(REPO_ROOT, 'docs', `console-webhooks-${label}.png`));
    }

    await stagingCard.getByRole('button', { name: 'Edit staging backend' }).click();
    await page.getByRole('dialog', { name: 'Edit “staging backend”' }).getByText(/Ticked, it gets events again/).waitFor();
    await checkScreen(page, `${label}-11b-webhook-edit`, false);
    await page.keyboard.press('Escape');

    await liveCard.getByRole('button', { name: 'Rotate secret of production game backend' }).click();
    await page.getByRole('dialog', { name: 'Rotate the secret of “production game backend”?' }).getByRole('button', { name: 'Rotate secret', exact: true }).click();
    await page.getByLabel(/Signing secret for/).waitFor();
    await page.getByText(/The old secret keeps signing every event too/).waitFor();
    await checkScreen(page, `${label}-11c-webhook-secret-rotated`, false);
    await page.getByRole('button', { name: 'Done' }).click();
    await liveCard.getByText(/the previous secret also signs until/).waitFor();
  });
});

import { GameFixture, TestPlatform, consoleToken, createGame, http, waitFor } from '@game-wallet/testing';
import { Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { WatchedPage, launchChromium, openPage, openSignedIn, signInThroughForm } from './browser';

const HOSTILE = '<img src=x onerror=alert(1)>';
/** A 1×1 PNG. */
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/** An image host on loopback that records the headers each image request came with. */
async function startImageHost(): Promise<{ url: string; requests: Record<string, string | string[] | undefined>[]; server: Server }> {
  const requests: Record<string, string | string[] | undefined>[] = [];
  const server = createServer((request, response) => {
    requests.push(request.headers);
    response.writeHead(200, { 'content-type': 'image/png' }).end(PIXEL);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, server };
}

/** The web console in Debian's Chromium against the real platform, used as a person would: by roles and labels. */
describe('web console (Chromium)', () => {
  let platform: TestPlatform;
  let browser: Browser;
  let operatorToken: string;
  const opened: WatchedPage[] = [];

  beforeAll(async () => {
    [platform, browser] = await Promise.all([TestPlatform.start('console-ui'), launchChromium()]);
    operatorToken = await consoleToken(platform);
  });

  // Every test fails on a page error, a Content-Security-Policy violation or a JavaScript dialog in a page it opened.
  afterEach(() => {
    const pages = opened.splice(0);
    expect(pages.flatMap((watched) => [...watched.problems, ...watched.dialogs.map((message) => `dialog: ${message}`)])).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  const newPage = async (): Promise<WatchedPage> => {
    const watched = await openPage(browser);
    opened.push(watched);
    return watched;
  };
  const tab = (page: Page, name: string) => page.getByRole('navigation', { name: 'Game sections' }).getByRole('link', { name, exact: true });
  const createPlayer = (key: string, body: unknown) => http<{ id: string; walletId: string; code?: string }>('POST', `${platform.coreUrl}/v1/player/create`, { apiKey: key, body });

  it('signs in (a wrong password shows the error), opens the page that was asked for, and signs out back to sign-in', async () => {
    const game = await createGame(platform, operatorToken, 'Sign-in game');
    const { page } = await newPage();
    await page.goto(`${platform.baseUrl}/console/games/${game.gameId}/audit`);
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');

    await signInThroughForm(page, { email: 'operator@example.com', password: 'not-the-password' });
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Wrong e-mail or password');

    await signInThroughForm(page);
    await page.getByRole('heading', { name: 'Audit' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/console/games/${game.gameId}/audit`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Sign-in game');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    await page.goto(`${platform.baseUrl}/console/`);
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    const storage = await page.evaluate(() => localStorage.length + sessionStorage.length);
    expect(storage).toBe(0);
  });

  it('creates a game, shows a new API key once, turns it off and on (the platform follows within 1 s), deletes it after confirmation, and lists the player and the audit trail', async () => {
    const { page } = await newPage();
    await openSignedIn(page, platform);

    await page.getByRole('button', { name: 'Create game', exact: true }).click();
    const name = page.getByRole('dialog', { name: 'Create game' }).getByLabel('Game name');
    await name.fill('x'.repeat(101));
    await page.getByText('Use at most 100 characters').waitFor();
    await expect(name.getAttribute('aria-invalid')).resolves.toBe('true');
    await name.fill('Browser Quest');
    await name.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Browser Quest' }).waitFor();
    const gameId = /\/console\/games\/([0-9a-f-]{36})$/.exec(page.url())?.[1] as string;
    expect(gameId).toBeDefined();

    await tab(page, 'API Keys').click();
    const addButton = page.getByRole('button', { name: 'Add API Key' });
    await addButton.click();
    await page.getByLabel(/Key name/).fill('browser server');
    await page.getByLabel(/Key name/).press('Enter');
    const secretField = page.getByLabel(/Secret key/);
    const secret = await secretField.inputValue();
    expect(secret).toMatch(/^gk_[0-9A-Za-z]{40}$/);
    await page.getByText('this key will not be shown again').waitFor();
    await page.keyboard.press('Escape');
    await secretField.waitFor({ state: 'detached' });
    await expect(page.content()).resolves.not.toContain(secret);
    await expect(addButton.evaluate((element) => element === document.activeElement)).resolves.toBe(true);
    await page.getByText(`${secret.slice(0, 7)}…${secret.slice(-4)}`).waitFor();

    const created = await createPlayer(secret, { uniqueId: 'browser-player', userData: { level: 7 } });
    expect(created.status).toBe(201);
    const wallet = await http<{ addresses: Record<'evm' | 'sol' | 'sui', string> }>('GET', `${platform.baseUrl}/v1/wallet/${created.body.walletId}`, { apiKey: secret });

    /** Toggles the key in the console and returns how long after the change was saved the platform agreed. */
    const toggleAndTime = async (to: 'Active' | 'Inactive', expectedStatus: number[]): Promise<number> => {
      const saved = page.waitForResponse((response) => response.request().method() === 'PATCH' && response.url().includes('/api-keys/'));
      await page.getByRole('switch', { name: 'Active: browser server' }).click();
      await expect(saved.then((response) => response.status())).resolves.toBe(200);
      const savedAt = Date.now();
      await expect(page.getByRole('switch', { name: 'Active: browser server' }).getAttribute('aria-checked')).resolves.toBe(String(to === 'Active'));
      await waitFor(async () => expectedStatus.includes((await createPlayer(secret, { uniqueId: 'browser-player' })).status), 3000, `the key to be ${to}`, 25);
      return Date.now() - savedAt;
    };
    expect(await toggleAndTime('Inactive', [403])).toBeLessThan(1000);
    const refused = await createPlayer(secret, { uniqueId: 'browser-player' });
    expect([refused.status, refused.body.code]).toEqual([403, 'API_KEY_INACTIVE']);
    expect(await toggleAndTime('Active', [200])).toBeLessThan(1000);

    await page.getByRole('button', { name: 'Delete browser server' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete API key “browser server”?' });
    await confirm.getByRole('button', { name: 'Delete key' }).click();
    await page.getByRole('switch', { name: 'Active: browser server' }).waitFor({ state: 'detached' });
    await page.getByText('No API keys').waitFor();
    await waitFor(async () => (await createPlayer(secret, { uniqueId: 'browser-player' })).status === 401, 3000, 'the deleted key to be refused');

    await tab(page, 'Players').click();
    await page.getByText('browser-player', { exact: true }).waitFor();
    for (const address of Object.values(wallet.body.addresses)) {
      await page.getByText(address, { exact: true }).waitFor();
    }

    await tab(page, 'Audit').click();
    await page.getByRole('heading', { name: 'Audit' }).waitFor();
    const actions = page.locator('td[data-label="Action"]');
    await actions.first().waitFor();
    await expect(actions.allTextContents()).resolves.toEqual([
      'API key deleted',
      'API key activated',
      'API key deactivated',
      'API key created',
      'Game created',
    ]);
  });

  it("edits a game's signing policy: a refused value shows the platform's message, a saved one is what the API answers and the form shows after a reload, and the audit trail shows what changed", async () => {
    const game = await createGame(platform, operatorToken, 'Policy game');
    const { page } = await newPage();
    await openSignedIn(page, platform, `/games/${game.gameId}/signing-policy`);
    const clients = page.getByRole('group', { name: 'Profile JWTs (game clients) may sign' });
    await expect(clients.getByRole('checkbox', { name: 'Messages' }).isChecked()).resolves.toBe(true);
    await expect(clients.getByRole('checkbox', { name: 'Transactions' }).isChecked()).resolves.toBe(false);

    await page.getByLabel('Most wei per transaction').fill('a lot');
    await page.getByRole('button', { name: 'Save policy' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('evm.maxValueWei: must be a whole number in decimal digits');

    await page.getByLabel('Most wei per transaction').fill('1000');
    await clients.getByRole('checkbox', { name: 'Transactions' }).check();
    await page.getByLabel('Allowed chain ids').fill('1, 8453');
    await page.getByLabel('Most fees per transaction, in wei').fill('21000000000000');
    await page.getByLabel('Allowed typed-data primary types').fill('Order\nPermit');
    await page.getByLabel('Most priority fee per transaction, in micro-lamports').fill('5000000');
    await page.getByLabel('Most gas budget per transaction, in MIST').fill('50000000');
    await page.getByRole('checkbox', { name: 'Allow transferring, splitting and merging coins' }).uncheck();
    await page.getByRole('button', { name: 'Save policy' }).click();
    await page.getByText(/Signing policy saved/).waitFor();
    const saved = await http<Record<string, unknown>>('GET', `${platform.baseUrl}/v1/console/games/${game.gameId}/signing-policy`, { bearer: operatorToken });
    expect(saved.body).toEqual({
      operations: { apiKey: ['message', 'transaction', 'typed-data'], profile: ['message', 'transaction'] },
      evm: { chainIds: ['1', '8453'], maxValueWei: '1000', maxFeeWei: '21000000000000', contracts: null, typedDataPrimaryTypes: ['Order', 'Permit'] },
      sol: { programs: null, maxLamports: null, maxPriorityMicroLamports: '5000000' },
      sui: { packages: null, allowTransfers: false, maxGasBudget: '50000000' },
    });

    await page.reload();
    await expect(page.getByLabel('Most fees per transaction, in wei').inputValue()).resolves.toBe('21000000000000');
    await expect(page.getByLabel('Allowed typed-data primary types').inputValue()).resolves.toBe('Order\nPermit');
    await expect(page.getByLabel('Most priority fee per transaction, in micro-lamports').inputValue()).resolves.toBe('5000000');
    await expect(page.getByLabel('Most gas budget per transaction, in MIST').inputValue()).resolves.toBe('50000000');
    await expect(page.getByRole('checkbox', { name: 'Allow transferring, splitting and merging coins' }).isChecked()).resolves.toBe(false);

    // The refused value changed nothing; the saved policy is one entry, its changed fields in the form's order.
    await tab(page, 'Audit').click();
    const change = page.getByRole('row').filter({ hasText: 'Signing policy changed' });
    await change.waitFor();
    await expect(page.locator('td[data-label="Action"]').allTextContents()).resolves.toEqual(['Signing policy changed', 'API key created', 'Game created']);
    await expect(change.getByRole('listitem').allTextContents()).resolves.toEqual([
      'operations.profile: message → message, transaction',
      'evm.chainIds: any → 1, 8453',
      'evm.maxValueWei: any → 1000',
      'evm.maxFeeWei: any → 21000000000000',
      'evm.typedDataPrimaryTypes: any → Order, Permit',
      'sol.maxPriorityMicroLamports: any → 5000000',
      'sui.maxGasBudget: any → 50000000',
      'sui.allowTransfers: true → false',
    ]);
    await expect(change.locator('td[data-label="Actor"]').textContent()).resolves.toBe('You');
    await expect(change.locator('td[data-label="Target"]').textContent()).resolves.toBe('Game “Policy game”');
    await expect(change.textContent()).resolves.toMatch(/ip: 127\.0\.0\.1/);
  });

  it('shows what a game stored (uniqueId, userData, image URL) as text, no injected script runs, and the image is fetched without a referrer', async () => {
    const images = await startImageHost();
    const game: GameFixture = await createGame(platform, operatorToken, 'Hostile game');
    const stored = await createPlayer(game.key, {
      uniqueId: HOSTILE,
      image: `${images.url}/avatar.png?"><script>alert(2)</script>`,
      userData: { bio: HOSTILE, html: '<script>alert(3)</script>' },
    });
    expect(stored.status).toBe(201);
    const watched = await newPage();
    const { page } = watched;
    await openSignedIn(page, platform, `/games/${game.gameId}/players`);
    await page.getByText(HOSTILE, { exact: true }).waitFor();
    await page.getByRole('button', { name: `Details of ${HOSTILE}` }).click();
    const drawer = page.getByRole('dialog', { name: `Player ${HOSTILE}` });
    await expect(drawer.getByLabel('userData as JSON').textContent()).resolves.toContain('"html": "<script>alert(3)</script>"');
    await expect(page.locator('img[src="x"]').count()).resolves.toBe(0);
    await expect(page.locator('script:not([src])').count()).resolves.toBe(0);
    const image = drawer.getByRole('img', { name: `Image of player ${HOSTILE}` });
    await expect(image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).resolves.toBe(1);
    await expect(image.getAttribute('referrerpolicy')).resolves.toBe('no-referrer');
    expect(images.requests).toHaveLength(1);
    expect(images.requests[0].referer).toBeUndefined();
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    await expect(page.getByRole('button', { name: `Details of ${HOSTILE}` }).evaluate((element) => element === document.activeElement)).resolves.toBe(true);
    expect(watched.dialogs).toEqual([]);
    images.server.close();
  });

});

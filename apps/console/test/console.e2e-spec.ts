import { GameFixture, TestPlatform, consoleToken, createGame, http, waitFor } from '@game-wallet/testing';
import { Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Locator, Page } from 'playwright-core';
import { WatchedPage, launchChromium, openPage, openSignedIn, signInThroughForm, signOutThroughMenu, startTogether } from './browser';

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
    await startTogether(TestPlatform.start('console-ui').then((started) => (platform = started)), launchChromium().then((launched) => (browser = launched)));
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

    await signOutThroughMenu(page);
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

  it("edits a game's signing policy as rules: a rule added and moved to the top by keyboard alone is saved over the version read and shown in its sentence; a rule the platform refuses shows its message; a request tested shows the decision; the audit trail tells the change", async () => {
    const game = await createGame(platform, operatorToken, 'Policy game');
    const { page } = await newPage();
    await openSignedIn(page, platform, `/games/${game.gameId}/signing-policy`);
    const active = page.getByRole('region', { name: 'Active policy' });
    const ruleIds = () => active.getByRole('list', { name: 'Active rules' }).locator('.rule-id').allTextContents();
    const press = async (control: Locator, key = 'Enter') => {
      await control.focus();
      await page.keyboard.press(key);
    };
    await active.getByRole('list', { name: 'Active rules' }).waitFor();
    await expect(ruleIds()).resolves.toEqual(['apiKey-message', 'apiKey-transaction-evm', 'apiKey-transaction-sol', 'apiKey-transaction-sui', 'apiKey-typed-data', 'profile-message']);
    await expect(active.locator('.policy-meta').textContent()).resolves.toBe('Version 0: the default policy, never changed.');

    // Keyboard only: add the rule, move it to the top with Alt+↑ from its focused Edit button, save.
    await press(active.getByRole('button', { name: 'Add a rule' }));
    const editor = active.getByRole('form', { name: 'New rule' });
    await expect(editor.getByLabel('Rule id').evaluate((input) => input === document.activeElement)).resolves.toBe(true);
    await editor.getByLabel('Rule id').fill('no-transfer-talk');
    await press(editor.getByRole('radio', { name: 'Reject' }), 'Space');
    await press(editor.getByRole('button', { name: 'Add a criterion' }));
    await expect(editor.getByLabel('Type').inputValue()).resolves.toBe('messagePattern');
    await editor.getByLabel('Pattern').fill('transfer');
    await editor.getByLabel('Pattern').press('Enter');
    await expect(ruleIds()).resolves.toEqual(['apiKey-message', 'apiKey-transaction-evm', 'apiKey-transaction-sol', 'apiKey-transaction-sui', 'apiKey-typed-data', 'profile-message', 'no-transfer-talk']);
    await expect(page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).resolves.toBe('Edit no-transfer-talk');
    for (let step = 0; step < 6; step++) {
      await page.keyboard.press('Alt+ArrowUp');
    }
    await expect(ruleIds()).resolves.toEqual(['no-transfer-talk', 'apiKey-message', 'apiKey-transaction-evm', 'apiKey-transaction-sol', 'apiKey-transaction-sui', 'apiKey-typed-data', 'profile-message']);
    await expect(active.getByRole('status').textContent()).resolves.toBe('Rule no-transfer-talk moved to position 1 of 7.');
    await expect(page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).resolves.toBe('Edit no-transfer-talk');
    await press(active.getByRole('button', { name: 'Save policy' }));
    await page.getByText(/Signing policy saved as version 1/).waitFor();
    await expect(active.locator('.rule').first().locator('.rule-sentence').textContent()).resolves.toBe('Reject messages when the message matches /transfer/.');
    await expect(active.locator('.policy-meta').textContent()).resolves.toMatch(/^Version 1 · changed .+ by you\.$/);
    const saved = await http<{ version: number; rules: unknown[] }>('GET', `${platform.baseUrl}/v1/console/games/${game.gameId}/signing-policy`, { bearer: operatorToken });
    expect([saved.body.version, saved.body.rules[0]]).toEqual([1, { id: 'no-transfer-talk', action: 'reject', operation: 'message', criteria: [{ type: 'messagePattern', pattern: 'transfer', match: true }] }]);

    // A rule the wallet service refuses: its message names the rule and the field, next to Save.
    await active.getByRole('button', { name: 'Add a rule' }).click();
    await editor.getByLabel('Rule id').fill('bad-call');
    await editor.getByLabel('Operation').selectOption('transaction');
    await editor.getByRole('checkbox', { name: 'EVM' }).check();
    await editor.getByRole('button', { name: 'Add a criterion' }).click();
    await editor.getByLabel('Type').selectOption('evmData');
    await editor.getByLabel('Function').fill('transfer(');
    await editor.getByRole('button', { name: 'Add rule' }).click();
    await active.getByRole('button', { name: 'Save policy' }).click();
    await expect(active.getByRole('alert').textContent()).resolves.toMatch(/^rules\.7 \(bad-call\)\.criteria\.0 \(evmData\): /);
    await active.getByRole('button', { name: 'Discard changes' }).click();
    await expect(ruleIds()).resolves.toHaveLength(7);

    // Test a request: the message the new rule refuses, then one it lets through.
    const panel = page.getByRole('region', { name: 'Test a request' });
    await panel.getByLabel('Message, as text').fill('please transfer 5 coins');
    await panel.getByRole('button', { name: 'Test' }).click();
    await expect(panel.locator('.evaluation-decision').textContent()).resolves.toBe('Refused by rule no-transfer-talk');
    await panel.getByLabel('Message, as text').fill('hello');
    await panel.getByRole('button', { name: 'Test' }).click();
    await panel.getByText('by rule apiKey-message').waitFor();
    await expect(panel.locator('.evaluation-decision').textContent()).resolves.toBe('Accepted by rule apiKey-message');

    await page.reload();
    await active.getByRole('list', { name: 'Active rules' }).waitFor();
    await expect(ruleIds()).resolves.toEqual(['no-transfer-talk', 'apiKey-message', 'apiKey-transaction-evm', 'apiKey-transaction-sol', 'apiKey-transaction-sui', 'apiKey-typed-data', 'profile-message']);

    await tab(page, 'Audit').click();
    const change = page.getByRole('row').filter({ hasText: 'Signing policy changed' });
    await change.waitFor();
    await expect(page.locator('td[data-label="Action"]').allTextContents()).resolves.toEqual(['Signing policy changed', 'API key created', 'Game created']);
    await expect(change.getByRole('listitem').allTextContents()).resolves.toEqual(['version 1', 'added no-transfer-talk: Reject messages when the message matches /transfer/.']);
    await expect(change.locator('td[data-label="Actor"]').textContent()).resolves.toBe('You');
    await expect(change.textContent()).resolves.toMatch(/ip: 127\.0\.0\.1/);
  });

  it("tries a draft beside the active policy: started from the active rules, edited, its differences listed, replayed over past attempts, tested, then activated as the next version", async () => {
    const game = await createGame(platform, operatorToken, 'Draft game');
    const player = await createPlayer(game.key, { uniqueId: 'ada' });
    const rules = [
      { id: 'no-transfer-talk', action: 'reject', operation: 'message', criteria: [{ type: 'messagePattern', pattern: 'transfer', match: true }] },
      { id: 'messages', action: 'accept', operation: 'message', criteria: [] },
    ];
    expect((await http('PUT', `${platform.baseUrl}/v1/console/games/${game.gameId}/signing-policy`, { bearer: operatorToken, body: { rules } })).status).toBe(200);
    const { page } = await newPage();
    await openSignedIn(page, platform, `/games/${game.gameId}/signing-policy`);
    const draft = page.getByRole('region', { name: 'Draft' });
    await draft.getByRole('button', { name: 'Start a draft from the active rules' }).click();
    await draft.getByRole('button', { name: 'Delete no-transfer-talk' }).click();
    await draft.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText(/Draft saved/).waitFor();
    await expect(draft.locator('.policy-meta').textContent()).resolves.toMatch(/^Written against version 1 · saved .+ by you\./);

    // The active policy refuses the second message; the draft would sign it.
    const sign = (message: string) => http('POST', `${platform.baseUrl}/v1/wallet/${player.body.walletId}/sign`, { apiKey: game.key, body: { chain: 'evm', message } });
    expect([(await sign('hello')).status, (await sign('transfer 5 coins')).status]).toEqual([200, 403]);
    await waitFor(
      async () => (await http<{ items: unknown[] }>('GET', `${platform.baseUrl}/v1/console/games/${game.gameId}/signing-policy/draft/differences`, { bearer: operatorToken })).body.items.length === 1,
      15_000,
      "the draft's difference",
    );
    await page.reload();
    const differences = draft.getByRole('table', { name: 'Signing attempts the draft decides otherwise' });
    await differences.waitFor();
    const row = differences.getByRole('row').nth(1);
    await expect(row.locator('td[data-label="Attempt"]').textContent()).resolves.toMatch(/message on evm · wallet [0-9a-f]{8}…$/);
    await expect(row.locator('td[data-label="Active"]').textContent()).resolves.toBe('Reject no-transfer-talk');
    await expect(row.locator('td[data-label="Draft"]').textContent()).resolves.toBe('Accept messages');

    await draft.getByRole('button', { name: 'Replay' }).click();
    const counts = draft.getByLabel('Replay result');
    await counts.waitFor();
    await expect(counts.locator('div').allTextContents()).resolves.toEqual(['Evaluated2', 'Changed1', 'Newly rejected0', 'Newly accepted1', 'Undecidable0']);
    await expect(draft.getByRole('table', { name: 'Attempts whose decision the draft changes' }).getByRole('row').count()).resolves.toBe(2);

    const panel = page.getByRole('region', { name: 'Test a request' });
    await panel.getByRole('radio', { name: 'Draft' }).check();
    await panel.getByLabel('Message, as text').fill('transfer 5 coins');
    await panel.getByRole('button', { name: 'Test' }).click();
    await panel.getByText('Accepted').waitFor();
    await expect(panel.locator('.evaluation').textContent()).resolves.toContain('Policythe draft');

    await draft.getByRole('button', { name: 'Activate draft' }).click();
    await draft.getByRole('group', { name: 'Activate draft' }).getByRole('button', { name: 'Activate draft' }).click();
    await page.getByText(/Draft activated as version 2/).waitFor();
    await draft.getByRole('button', { name: 'Start a draft from the active rules' }).waitFor();
    const active = page.getByRole('region', { name: 'Active policy' });
    await expect(active.locator('.rule-id').allTextContents()).resolves.toEqual(['messages']);
    await active.getByText('Versions', { exact: true }).click();
    await expect(active.locator('.version-list > li summary').first().textContent()).resolves.toMatch(/^Version 2 · .+ · activated from a draft by you · 1 rule$/);
    expect(await sign('transfer 5 coins').then((answer) => answer.status)).toBe(200);
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

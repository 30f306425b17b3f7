import { TestPlatform, consoleToken, createGame, http } from '@game-wallet/testing';
import type { Browser, Page } from 'playwright-core';
import { AxeViolation, VIEWPORTS, launchChromium, openPage, openSignedIn, screenshot, seriousAxeViolations } from './browser';

/**
 * Every screen of the console, at desktop (1280 px) and phone (390 px) width: no serious or critical axe-core
 * violation, nothing wider than the window, and a screenshot under `test-output/console` for a person to look at.
 */
describe('web console screens (axe-core, screenshots)', () => {
  let platform: TestPlatform;
  let browser: Browser;
  let gameId: string;

  beforeAll(async () => {
    [platform, browser] = await Promise.all([TestPlatform.start('console-screens'), launchChromium()]);
    const token = await consoleToken(platform);
    const game = await createGame(platform, token, 'Space Miners');
    gameId = game.gameId;
    const staging = await http<{ id: string }>('POST', `${platform.baseUrl}/v1/console/games/${gameId}/api-keys`, { bearer: token, body: { name: 'staging server' } });
    await http('PATCH', `${platform.baseUrl}/v1/console/games/${gameId}/api-keys/${staging.body.id}`, { bearer: token, body: { active: false } });
    // A policy with every kind of field set: the policy screen shows them filled, the audit screen the change.
    const policy = await http('PUT', `${platform.baseUrl}/v1/console/games/${gameId}/signing-policy`, {
      bearer: token,
      body: {
        operations: { apiKey: ['message', 'transaction', 'typed-data'], profile: ['message', 'typed-data'] },
        evm: { chainIds: ['8453'], maxValueWei: '10000000000000000', maxFeeWei: '2000000000000000', contracts: ['0x1111111111111111111111111111111111111111'], typedDataPrimaryTypes: ['Order'] },
        sol: { programs: null, maxLamports: '50000000', maxPriorityMicroLamports: null },
        sui: { packages: ['0x2'], allowTransfers: false, maxGasBudget: '50000000' },
      },
    });
    expect(policy.status).toBe(200);
    for (const [index, uniqueId] of ['ada', 'grace', 'linus'].entries()) {
      const player = await http<{ walletId: string }>('POST', `${platform.coreUrl}/v1/player/create`, {
        apiKey: game.key,
        body: { uniqueId, userData: { username: uniqueId, level: index + 3, premium: index % 2 === 0 } },
      });
      await http('POST', `${platform.baseUrl}/v1/wallet/${player.body.walletId}/sign`, { apiKey: game.key, body: { chain: 'evm', message: `hello ${uniqueId}` } });
    }
  });

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  const describeViolations = (violations: AxeViolation[]) => violations.map((violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);

  /** Checks the screen as it shows now and saves its screenshot. */
  const check = async (page: Page, name: string, fullPage = true): Promise<void> => {
    await page.waitForLoadState('networkidle');
    await page.locator('.spinner').first().waitFor({ state: 'detached' });
    expect({ screen: name, violations: describeViolations(await seriousAxeViolations(page)) }).toEqual({ screen: name, violations: [] });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect({ screen: name, overflowPx: overflow }).toEqual({ screen: name, overflowPx: 0 });
    await screenshot(page, name, fullPage);
  };

  it.each(Object.entries(VIEWPORTS))('%s: sign-in, games, create game, overview, API keys, new key, players, player, audit', async (label, viewport) => {
    const watched = await openPage(browser, viewport);
    const { page } = watched;
    const tab = (name: string) => page.getByRole('navigation', { name: 'Game sections' }).getByRole('link', { name, exact: true });

    await page.goto(`${platform.baseUrl}/console/`);
    await page.getByLabel('E-mail').fill('operator@example.com');
    await page.getByLabel('Password').fill('a-wrong-password');
    await page.getByLabel('Password').press('Enter');
    await page.getByRole('alert').waitFor();
    await check(page, `${label}-01-sign-in`);

    await openSignedIn(page, platform);
    await page.getByRole('heading', { name: 'Games', exact: true }).waitFor();
    await check(page, `${label}-02-games`);

    await page.getByRole('button', { name: 'Create game', exact: true }).click();
    await page.getByLabel('Game name').fill(' ');
    await page.getByLabel('Game name').blur();
    await page.getByText('Enter a name.').waitFor();
    await check(page, `${label}-03-create-game`, false);
    await page.keyboard.press('Escape');

    await page.goto(`${platform.baseUrl}/console/games/${gameId}`);
    await page.getByRole('heading', { name: 'Create a player' }).waitFor();
    await check(page, `${label}-04-overview`);

    await tab('API Keys').click();
    await page.getByRole('switch').first().waitFor();
    await check(page, `${label}-05-api-keys`);

    await page.getByRole('button', { name: 'Delete staging server' }).click();
    await page.getByRole('checkbox', { name: /Also revoke the profile tokens/ }).check();
    await check(page, `${label}-05b-delete-key`, false);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Add API Key' }).click();
    await page.getByLabel(/Key name/).fill(`${label} screenshot`);
    await page.getByLabel(/Key name/).press('Enter');
    await page.getByLabel(/Secret key/).waitFor();
    await check(page, `${label}-06-new-key`, false);
    await page.getByRole('button', { name: 'Done' }).click();

    await tab('Players').click();
    await page.getByText('linus', { exact: true }).waitFor();
    await check(page, `${label}-07-players`);

    await page.getByRole('button', { name: 'Details of grace' }).click();
    await page.getByRole('dialog', { name: 'Player grace' }).waitFor();
    await check(page, `${label}-08-player`, false);
    await page.keyboard.press('Escape');

    await tab('Audit').click();
    await page.getByText('Signed', { exact: true }).first().waitFor();
    await page.getByText('evm.maxFeeWei: any → 2000000000000000').waitFor();
    await check(page, `${label}-09-audit`);

    await tab('Signing policy').click();
    await page.getByRole('button', { name: 'Save policy' }).waitFor();
    await check(page, `${label}-09b-signing-policy`);

    await page.getByRole('button', { name: /^Game/ }).click();
    await page.getByRole('link', { name: 'All games', exact: true }).waitFor();
    await check(page, `${label}-10-game-switcher`, false);

    expect(watched.problems).toEqual([]);
  });
});

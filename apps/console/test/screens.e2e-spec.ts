import { TestPlatform, consoleToken, createGame, http, waitFor } from '@game-wallet/testing';
import type { Browser } from 'playwright-core';
import { VIEWPORTS, checkScreen, launchChromium, openPage, openSignedIn, startTogether } from './browser';

/**
 * Every screen of the console, at desktop (1280 px) and phone (390 px) width: no serious or critical axe-core
 * violation, nothing wider than the window, and a screenshot under `test-output/console` for a person to look at.
 */
describe('web console screens (axe-core, screenshots)', () => {
  let platform: TestPlatform;
  let browser: Browser;
  let gameId: string;

  beforeAll(async () => {
    await startTogether(TestPlatform.start('console-screens').then((started) => (platform = started)), launchChromium().then((launched) => (browser = launched)));
    const token = await consoleToken(platform);
    const game = await createGame(platform, token, 'Space Miners');
    gameId = game.gameId;
    const staging = await http<{ id: string }>('POST', `${platform.baseUrl}/v1/console/games/${gameId}/api-keys`, { bearer: token, body: { name: 'staging server' } });
    await http('PATCH', `${platform.baseUrl}/v1/console/games/${gameId}/api-keys/${staging.body.id}`, { bearer: token, body: { active: false } });
    // Rules of every kind of operation and chain, and a draft that refuses what the players sign below: the policy
    // screen shows the sentences, the draft's differences, a replay and a dry run; the audit screen the change.
    const shop = '0x1111111111111111111111111111111111111111';
    const rules = [
      { id: 'no-transfer-talk', description: 'Players never sign a message about transfers', action: 'reject', operation: 'message', criteria: [{ type: 'messagePattern', pattern: 'transfer', match: true }] },
      { id: 'messages', action: 'accept', operation: 'message', criteria: [{ type: 'messageLength', operator: '<=', value: '256' }] },
      {
        id: 'shop',
        description: 'Purchases in the Base shop, at most 20 a day per wallet',
        action: 'accept',
        operation: 'transaction',
        chains: ['evm'],
        credentials: { kinds: ['apiKey'] },
        criteria: [
          { type: 'evmChainId', operator: 'in', values: ['8453'] },
          { type: 'evmValue', operator: '<=', value: '10000000000000000' },
          { type: 'evmAddress', operator: 'in', values: [shop] },
          { type: 'velocity', scope: 'wallet', windowSeconds: 86_400, maxCount: 20 },
        ],
      },
      {
        id: 'sol-transfers',
        action: 'accept',
        operation: 'transaction',
        chains: ['sol'],
        criteria: [
          { type: 'solInstruction', allowed: [{ program: 'system', instruction: 'transferSol' }] },
          { type: 'solLamports', operator: '<=', value: '50000000' },
        ],
      },
      { id: 'orders', action: 'accept', operation: 'typed-data', chains: ['evm'], credentials: { kinds: ['profile'] }, criteria: [{ type: 'evmTypedDataPrimaryType', operator: 'in', values: ['Order'] }] },
    ];
    const policyUrl = `${platform.baseUrl}/v1/console/games/${gameId}/signing-policy`;
    expect((await http('PUT', policyUrl, { bearer: token, body: { rules } })).status).toBe(200);
    const draft = [rules[1], ...rules.slice(2)].map((rule) => (rule.id === 'messages' ? { ...rule, criteria: [{ type: 'messageLength', operator: '<=', value: '8' }] } : rule));
    expect((await http('PUT', `${policyUrl}/draft`, { bearer: token, body: { rules: draft } })).status).toBe(200);
    for (const [index, uniqueId] of ['ada', 'grace', 'linus'].entries()) {
      const player = await http<{ walletId: string }>('POST', `${platform.coreUrl}/v1/player/create`, {
        apiKey: game.key,
        body: { uniqueId, userData: { username: uniqueId, level: index + 3, premium: index % 2 === 0 } },
      });
      await http('POST', `${platform.baseUrl}/v1/wallet/${player.body.walletId}/sign`, { apiKey: game.key, body: { chain: 'evm', message: `hello ${uniqueId}` } });
    }
    await waitFor(async () => (await http<{ items: unknown[] }>('GET', `${policyUrl}/draft/differences`, { bearer: token })).body.items.length === 3, 15_000, "the draft's differences");
  });

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  const check = checkScreen;

  it.each(Object.entries(VIEWPORTS))('%s: sign-in, games, create game, overview, API keys, new key, players, player, audit, signing policy, rule editor', async (label, viewport) => {
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
    await page.getByText(/^added shop: Accept transactions on evm/).waitFor();
    await check(page, `${label}-09-audit`);

    // The policy with its draft beside it: the differences, a replay and a request tested.
    await tab('Signing policy').click();
    const draft = page.getByRole('region', { name: 'Draft' });
    await draft.getByRole('table', { name: 'Signing attempts the draft decides otherwise' }).waitFor();
    await draft.getByRole('button', { name: 'Replay' }).click();
    await draft.getByLabel('Replay result').waitFor();
    const panel = page.getByRole('region', { name: 'Test a request' });
    await panel.getByLabel('Operation').selectOption('transaction');
    await panel.getByRole('button', { name: 'Fill in an example' }).click();
    await panel.getByRole('button', { name: 'Test' }).click();
    await panel.getByText('What the rules read of the request').click();
    await panel.locator('.evaluation pre').waitFor();
    await check(page, `${label}-09b-signing-policy`);

    await page.getByRole('region', { name: 'Active policy' }).getByRole('button', { name: 'Edit shop' }).click();
    await page.getByRole('form', { name: 'Edit rule shop' }).waitFor();
    await check(page, `${label}-09c-rule-editor`);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: /^Game/ }).click();
    await page.getByRole('link', { name: 'All games', exact: true }).waitFor();
    await check(page, `${label}-10-game-switcher`, false);

    expect(watched.problems).toEqual([]);
  });
});

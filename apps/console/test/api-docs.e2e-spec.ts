import { TestPlatform } from '@game-wallet/testing';
import type { Browser } from 'playwright-core';
import { launchChromium, openPage, startTogether } from './browser';

/** The API reference pages the gateway serves, in Debian's Chromium: offline, under the console's security policy. */
describe('API reference at /docs (Chromium)', () => {
  let platform: TestPlatform;
  let browser: Browser;

  beforeAll(async () => {
    await startTogether(TestPlatform.start('api-docs', { apps: ['gateway', 'identity'] }).then((started) => (platform = started)), launchChromium().then((launched) => (browser = launched)));
  });

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it.each([
    ['base_url', () => platform.baseUrl, ['POST /v1/profile/{id}/authenticate', 'GET /v1/wallet/{walletId}', 'POST /v1/console/session']],
    ['core_url', () => platform.coreUrl, ['POST /v1/player/create', 'GET /v1/player/{playerId}']],
  ])("shows every operation of %s's document, loading nothing from another host and breaking no security rule", async (_, url, operations) => {
    const watched = await openPage(browser);
    const origins = new Set<string>();
    watched.page.on('request', (request) => origins.add(new URL(request.url()).origin));
    try {
      await watched.page.goto(`${url()}/docs`);
      await watched.page.locator('.opblock').first().waitFor();
      const shown = await watched.page.locator('.opblock-summary').evaluateAll((nodes) =>
        nodes.map((node) => `${node.querySelector('.opblock-summary-method')?.textContent ?? ''} ${node.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? ''}`),
      );
      for (const operation of operations) {
        expect(shown).toContain(operation);
      }
      expect([...origins]).toEqual([url()]);
      expect(watched.problems).toEqual([]);
    } finally {
      await watched.context.close();
    }
  });
});

import { REPO_ROOT, TEST_OPERATOR, TestPlatform, queryOnce } from '@game-wallet/testing';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, BrowserContext, Page, chromium } from 'playwright-core';

/** Debian's Chromium, never a downloaded one; no background traffic (this machine reaches no other host). */
export const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** Where the browser suites write their screenshots (`test-output/console`, not committed). */
export const SCREENSHOTS = join(REPO_ROOT, 'test-output', 'console');

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
}

export const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

/**
 * A page in a fresh browser profile that records what must never happen: a JavaScript dialog (an injected
 * `alert`), a page error, or a Content-Security-Policy violation.
 */
export interface WatchedPage {
  context: BrowserContext;
  page: Page;
  dialogs: string[];
  problems: string[];
}

export async function openPage(browser: Browser, viewport: { width: number; height: number } = VIEWPORTS.desktop): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport, locale: 'en-GB', timezoneId: 'Europe/Berlin' });
  const page = await context.newPage();
  const watched: WatchedPage = { context, page, dialogs: [], problems: [] };
  page.on('dialog', (dialog) => {
    watched.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => watched.problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (/Content.Security.Policy|Refused to/i.test(message.text())) {
      watched.problems.push(`CSP: ${message.text()}`);
    }
  });
  return watched;
}

/** Signs in through the sign-in screen (the page must be showing it). */
export async function signInThroughForm(page: Page, credentials = TEST_OPERATOR): Promise<void> {
  await page.getByLabel('E-mail').fill(credentials.email);
  await page.getByLabel('Password').fill(credentials.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Opens `path` of the console signed in as the test operator. */
export async function openSignedIn(page: Page, platform: TestPlatform, path = '/'): Promise<void> {
  await page.goto(`${platform.baseUrl}/console${path}`);
  await page.getByLabel('E-mail').waitFor();
  await signInThroughForm(page);
  await page.getByRole('button', { name: 'Account menu' }).waitFor();
}

/** Moves the second factor of `email`'s newest session 10 minutes back: its next step-up action asks for a new one. */
export async function staleSecondFactor(platform: TestPlatform, email: string): Promise<void> {
  const rows = await queryOnce(
    platform.databaseUrl,
    `UPDATE identity.console_sessions SET second_factor_at = now() - interval '10 minutes'
      WHERE id = (SELECT s.id FROM identity.console_sessions s JOIN identity.operators o ON o.id = s.operator_id WHERE o.email = $1 ORDER BY s.created_at DESC LIMIT 1)
      RETURNING id`,
    [email],
  );
  expect(rows).toHaveLength(1);
}

/** Signs out through the header's user menu. */
export async function signOutThroughMenu(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
}

/** Saves a screenshot: the whole page, or what the window shows while a dialog is open (`fullPage: false`). */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  if (fullPage) {
    // From the top: the sticky header would otherwise be drawn where the window was scrolled to.
    await page.evaluate(() => window.scrollTo(0, 0));
  }
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage });
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core's serious and critical violations on the page as it is now. The script is evaluated through the DevTools
 * protocol, which the page's CSP does not govern, so the page keeps its own policy while it is checked.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.map(({ target }) => ({ target })) }));
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

/**
 * Waits for things started together (the platform and the browser, each kept by its own `.then` as it starts), and
 * only once all have settled throws the first failure: `afterAll` then stops what did start, so a browser that fails
 * to launch leaves no platform (its database, its Redis keys) behind.
 */
export async function startTogether(...starts: Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(starts)).find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed !== undefined) {
    throw failed.reason;
  }
}

export const describeViolations = (violations: AxeViolation[]): string[] =>
  violations.map((violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);

/**
 * Checks the screen as it shows now (no serious or critical axe-core violation, nothing wider than the window) and
 * saves its screenshot: the whole page, or what the window shows while a dialog is open (`fullPage: false`).
 */
export async function checkScreen(page: Page, name: string, fullPage = true): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.locator('.spinner').first().waitFor({ state: 'detached' });
  expect({ screen: name, violations: describeViolations(await seriousAxeViolations(page)) }).toEqual({ screen: name, violations: [] });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect({ screen: name, overflowPx: overflow }).toEqual({ screen: name, overflowPx: 0 });
  await screenshot(page, name, fullPage);
}

import { REPO_ROOT, TEST_OPERATOR, TestPlatform, consoleToken, createGame, createOperator, http, invitationToken, waitFor } from '@game-wallet/testing';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { SCREENSHOTS, VIEWPORTS, WatchedPage, checkScreen, launchChromium, openPage, signInThroughForm, signOutThroughMenu, staleSecondFactor, startTogether } from './browser';

const PASSWORD = 'a long test passphrase 1';

/**
 * The console's operator screens in Chromium at desktop and phone width, against the real platform: the Account page
 * (an authenticator app set up from its QR code's secret, recovery codes, a passkey made by Chromium's virtual
 * authenticator, sessions ended), sign-in with a TOTP code and with a passkey, the step-up dialog that lets an API key
 * creation through, and the Team page (an invitation accepted in a second browser by an operator who then sees only
 * what their role allows). Every screen: no serious or critical axe-core violation, nothing wider than the window.
 * `UPDATE_SCREENSHOTS=1` also copies the Team and Account screenshots to docs/ for the README.
 */
describe('web console: operators, second factors, step-up (Chromium)', () => {
  let platform: TestPlatform;
  let browser: Browser;
  let origin: string;
  let gameId: string;
  let otherGameId: string;
  const opened: WatchedPage[] = [];

  beforeAll(async () => {
    await startTogether(TestPlatform.start('console-operators').then((started) => (platform = started)), launchChromium().then((launched) => (browser = launched)));
    // WebAuthn needs a domain for its relying party (never an IP address): the console is opened at localhost.
    origin = platform.baseUrl.replace('127.0.0.1', 'localhost');
    const token = await consoleToken(platform);
    gameId = (await createGame(platform, token, 'Space Miners')).gameId;
    otherGameId = (await createGame(platform, token, 'Moon Base')).gameId;
  });

  // Every test fails on a page error, a Content-Security-Policy violation or a JavaScript dialog in a page it opened;
  // its browsers close after it (a passkey ceremony needs the page in front, with no other test's page open).
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
  const consoleUrl = (path: string) => `${origin}/console${path}`;

  /** A code of the app for a 30-second step after `afterStep` (a code is accepted once per step): waits for the clock when needed. */
  const codeAfter = async (totp: TOTP, afterStep: number): Promise<{ code: string; step: number }> => {
    const step = await waitFor(() => {
      const now = Math.floor(Date.now() / 30_000);
      return now > afterStep ? now : null;
    }, 35_000, 'the next TOTP step', 250);
    return { code: totp.generate({ timestamp: step * 30_000 + 1_000 }), step };
  };
  const currentStep = () => Math.floor(Date.now() / 30_000);
  /** A screenshot the README shows, copied to docs/ when asked for (`UPDATE_SCREENSHOTS=1`). */
  const forReadme = (name: string, file: string) => {
    if (process.env.UPDATE_SCREENSHOTS === '1') {
      mkdirSync(join(REPO_ROOT, 'docs'), { recursive: true });
      copyFileSync(join(SCREENSHOTS, `${name}.png`), join(REPO_ROOT, 'docs', file));
    }
  };
  /** Waits for the confirmations ("Passkey added") to fade (4 s), so that a screenshot shows the page alone. */
  const noToasts = (page: Page) => page.locator('.toast').first().waitFor({ state: 'detached', timeout: 6000 });
  const openAccount = async (page: Page) => {
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('link', { name: 'Account', exact: true }).click();
    await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
  };
  const signIn = async (page: Page, email: string) => {
    await page.goto(consoleUrl('/'));
    await signInThroughForm(page, { email, password: PASSWORD });
  };

  it.each(Object.entries(VIEWPORTS))(
    '%s: Account — an authenticator app from its QR code, recovery codes, a passkey, a session ended; sign-in with a code and with the passkey; the step-up dialog lets an API key creation through',
    async (label, viewport) => {
      const email = `ada-${label}@example.com`;
      const { token: otherSession } = await createOperator(platform, await consoleToken(platform), [{ role: 'developer', gameId }], { email, password: PASSWORD });
      const { page, context } = await newPage(viewport);
      const cdp = await context.newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
      });

      await page.bringToFront();
      await signIn(page, email);
      await page.getByRole('heading', { name: 'Games', exact: true }).waitFor();
      await openAccount(page);

      // The authenticator app: the secret typed from the dialog (as a person would), a code from it.
      await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
      const setup = page.getByRole('dialog', { name: 'Set up an authenticator app' });
      await setup.getByRole('img', { name: /QR code/ }).waitFor();
      const secret = (await setup.locator('.totp-secret').textContent())?.replace(/\s/g, '') as string;
      const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
      await checkScreen(page, `${label}-20-totp-setup`, false);
      const confirmedAt = currentStep();
      await setup.getByLabel('Code from the app').fill(totp.generate());
      await setup.getByRole('button', { name: 'Turn on' }).click();
      const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
      await codes.first().waitFor();
      const recoveryCodes = await codes.allTextContents();
      expect(recoveryCodes).toHaveLength(10);
      await checkScreen(page, `${label}-21-recovery-codes`, false);
      await page.getByRole('button', { name: 'Done' }).click();
      await page.getByText(/10 of 10/).waitFor();
      await expect(page.content()).resolves.not.toContain(recoveryCodes[0]);

      // A passkey, made by Chromium's virtual authenticator.
      await page.getByRole('button', { name: 'Add a passkey' }).click();
      await page.getByRole('dialog', { name: 'Add a passkey' }).getByLabel('Passkey name').fill('Virtual key');
      await page.getByRole('button', { name: 'Create passkey' }).click();
      // By its text: on a phone a cell's name also holds its column's label (CSS generated content).
      const added = page.getByRole('table', { name: 'Your passkeys' }).getByText('Virtual key', { exact: true });
      const refused = page.getByRole('dialog', { name: 'Add a passkey' }).getByRole('alert');
      await added.or(refused).waitFor();
      await expect(refused.count().then(async (count) => (count === 0 ? null : refused.textContent()))).resolves.toBeNull();

      // The other session (the one accepting the invitation opened) is ended here, and refused at once.
      const sessions = page.getByRole('table', { name: 'Your sessions' });
      await expect(sessions.getByRole('row').count()).resolves.toBe(3);
      await sessions.getByRole('button', { name: /^End the session/ }).click();
      await waitFor(async () => (await http('GET', `${platform.baseUrl}/v1/console/session`, { bearer: otherSession })).status === 401, 1000, 'the ended session to be refused');
      await waitFor(async () => (await sessions.getByRole('row').count()) === 2, 3000, 'the ended session to leave the list');
      await noToasts(page);
      await checkScreen(page, `${label}-22-account`);
      forReadme(`${label}-22-account`, `console-account-${label}.png`);

      // Sign-in asks for the second step; a code of the app (of a later step than the one that confirmed it).
      await signOutThroughMenu(page);
      await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
      await signInThroughForm(page, { email, password: PASSWORD });
      await page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
      await checkScreen(page, `${label}-23-second-step`);
      const signInCode = await codeAfter(totp, confirmedAt);
      await page.getByLabel('Authentication code').fill(signInCode.code);
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByRole('heading', { name: 'Games', exact: true }).waitFor();

      // Step-up: the second factor is older than 5 minutes; creating a key asks for one, then goes through.
      await staleSecondFactor(platform, email);
      await page.goto(consoleUrl(`/games/${gameId}/api-keys`));
      await page.getByRole('button', { name: 'Add API Key' }).click();
      await page.getByLabel(/Key name/).fill(`${label} stepped up`);
      await page.getByRole('button', { name: 'Create key' }).click();
      const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
      await stepUp.waitFor();
      await checkScreen(page, `${label}-24-step-up`, false);
      if (label === 'desktop') {
        await stepUp.getByRole('button', { name: 'Use a recovery code instead' }).click();
        await stepUp.getByLabel('Recovery code').fill(recoveryCodes[0]);
        await stepUp.getByRole('button', { name: 'Confirm' }).click();
      } else {
        await stepUp.getByRole('button', { name: 'Use a passkey' }).click();
      }
      await expect(page.getByLabel(/Secret key/).inputValue()).resolves.toMatch(/^gk_/);
      await stepUp.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Done' }).click();
      await page.locator('td[data-label="Name"]').getByText(`${label} stepped up`, { exact: true }).waitFor();

      // Sign-in with the passkey instead of a code.
      await signOutThroughMenu(page);
      await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
      await signInThroughForm(page, { email, password: PASSWORD });
      await page.getByRole('button', { name: 'Use a passkey' }).click();
      await page.getByRole('heading', { name: 'Games', exact: true }).waitFor();
    },
    180_000,
  );

  it.each(Object.entries(VIEWPORTS))(
    '%s: Team — an owner invites a support operator for one game (after a step-up with the password); accepted in another browser, the new operator sees only that game and what support may do',
    async (label, viewport) => {
      const invitee = `sam-${label}@example.com`;
      const { page } = await newPage(viewport);
      await page.goto(consoleUrl('/team'));
      await signInThroughForm(page, TEST_OPERATOR);
      await page.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
      await page.getByRole('table', { name: 'Operators' }).waitFor();

      await staleSecondFactor(platform, TEST_OPERATOR.email);
      await page.getByRole('button', { name: 'Invite', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Invite an operator' });
      await dialog.getByLabel('E-mail').fill(invitee);
      await dialog.getByLabel('Role').selectOption('support');
      await dialog.getByRole('radio', { name: 'Chosen games' }).check();
      await dialog.getByRole('checkbox', { name: 'Space Miners' }).check();
      await checkScreen(page, `${label}-30-invite`, false);
      await dialog.getByRole('button', { name: 'Create invitation' }).click();
      // The operator has no second factor: the step-up asks for the password.
      const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
      await stepUp.getByLabel('Password').fill(TEST_OPERATOR.password);
      await stepUp.getByRole('button', { name: 'Confirm' }).click();
      const linkField = page.getByLabel(`Invitation link for ${invitee}`);
      const link = await linkField.inputValue();
      const token = invitationToken(link);
      await checkScreen(page, `${label}-31-invitation-link`, false);
      await page.getByRole('button', { name: 'Done' }).click();
      await linkField.waitFor({ state: 'detached' });
      await expect(page.content()).resolves.not.toContain(token);
      await page.getByRole('table', { name: 'Invitations' }).getByRole('row').filter({ hasText: invitee }).getByText('Pending').waitFor();
      await noToasts(page);
      await checkScreen(page, `${label}-32-team`);
      forReadme(`${label}-32-team`, `console-team-${label}.png`);

      // The invitee, in a browser of their own.
      const second = await newPage(viewport);
      await second.page.goto(consoleUrl(`/invitation${new URL(link).hash}`));
      await second.page.getByRole('heading', { name: 'Join the console' }).waitFor();
      expect(new URL(second.page.url()).hash).toBe('');
      await expect(second.page.getByText('Support for 1 game').count()).resolves.toBe(1);
      await checkScreen(second.page, `${label}-33-invitation`);
      await second.page.getByLabel('Your name').fill(`Sam ${label}`);
      await second.page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await second.page.getByLabel('Password, again').fill(PASSWORD);
      await second.page.getByRole('button', { name: 'Accept and sign in' }).click();
      await second.page.getByRole('heading', { name: 'Games', exact: true }).waitFor();
      await expect(second.page.locator('td[data-label="Name"]').allTextContents()).resolves.toEqual(['Space Miners']);
      await expect(second.page.getByRole('button', { name: 'Create game' }).count()).resolves.toBe(0);
      await expect(second.page.getByRole('link', { name: 'Team' }).count()).resolves.toBe(0);
      await second.page.getByRole('link', { name: 'Space Miners' }).click();
      const tabs = second.page.getByRole('navigation', { name: 'Game sections' });
      await tabs.waitFor();
      await expect(tabs.getByRole('link').allTextContents()).resolves.toEqual(['Overview', 'Players', 'Audit']);
      await second.page.goto(consoleUrl(`/games/${gameId}/api-keys`));
      await second.page.getByText('No such game').waitFor();
      await second.page.goto(consoleUrl(`/games/${otherGameId}`));
      await second.page.getByText('No such game').waitFor();
      // The link works once.
      const again = await newPage(viewport);
      await again.page.goto(consoleUrl(`/invitation${new URL(link).hash}`));
      await again.page.getByRole('heading', { name: 'This invitation cannot be used' }).waitFor();

      // The owner sees the new operator and ends their sessions.
      await page.reload();
      const row = page.getByRole('table', { name: 'Operators' }).getByRole('row').filter({ hasText: invitee });
      await row.getByText('Support · Space Miners').waitFor();
      await row.getByRole('button', { name: `Manage ${invitee}` }).click();
      const drawer = page.getByRole('dialog', { name: `Sam ${label}` });
      await drawer.getByRole('table', { name: `Sessions of ${invitee}` }).waitFor();
      await checkScreen(page, `${label}-34-operator`, false);
      await drawer.getByRole('button', { name: 'End all their sessions' }).click();
      await drawer.getByText('Not signed in anywhere.').waitFor();
      await second.page.reload();
      await second.page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    },
    120_000,
  );
});

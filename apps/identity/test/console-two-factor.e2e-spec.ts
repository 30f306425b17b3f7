import { ConsoleAccountView, ConsoleSessionEntryView, consolePasswordDigest } from '@game-wallet/contracts';
import { HttpResult, TEST_OPERATOR, TestPlatform, consoleToken, http, queryOnce, waitFor } from '@game-wallet/testing';
import { Secret, TOTP } from 'otpauth';
import { createHash, randomUUID } from 'node:crypto';
import { hashPassword } from '../src/operators/passwords';

type Answer = HttpResult<Record<string, unknown> & { code?: string }>;
type Challenge = { secondFactor: { challenge: string; methods: string[]; passkey: unknown; expiresAt: string } };

/**
 * Two-factor sign-in (TOTP, recovery codes), step-up, the operator's own account and sessions, and the lockout that
 * cannot lock the owner out (docs/console-sign-in.md). Requests come through a trusted proxy (loopback) that saw the
 * client address each test names, so each test's failures count against addresses of its own.
 */
describe('console two-factor sign-in, step-up and own account', () => {
  let platform: TestPlatform;
  /** The owner (TEST_OPERATOR), who sets up TOTP below. */
  let owner: string;
  let totpSecret: string;
  let recoveryCodes: string[];
  /** Another owner of every game, who never sets up a second factor. */
  const PLAIN = { email: 'plain@example.com', password: 'plain-operator-password-1' };
  let plainId: string;

  const post = (path: string, body: unknown, ip: string, bearer?: string): Promise<Answer> =>
    http('POST', `${platform.baseUrl}/v1/console${path}`, { body, bearer, headers: { 'x-forwarded-for': ip } });
  const api = (token: string, method: string, path: string, body?: unknown, baseUrl = platform.baseUrl): Promise<Answer> =>
    http(method, `${baseUrl}/v1/console${path}`, { bearer: token, body, headers: { 'x-forwarded-for': '198.51.100.250' } });
  const signIn = (credentials: { email: string; password: string }, ip: string) => post('/session', credentials, ip);
  const codeAt = (at: number) => TOTP.generate({ secret: Secret.fromBase32(totpSecret), timestamp: at });
  const step = (at: number) => Math.floor(at / 30_000);
  /** A TOTP code identity has not accepted yet: the next step's (±1 is accepted), once the clock has passed the last one taken. */
  const freshTotp = async (): Promise<string> => {
    const [{ totp_last_step: last }] = await queryOnce<{ totp_last_step: string }>(platform.databaseUrl, `SELECT totp_last_step FROM identity.operators WHERE email = $1`, [TEST_OPERATOR.email]);
    await waitFor(() => step(Date.now() + 30_000) > Number(last), 35_000, 'a TOTP step not taken yet');
    return codeAt(Date.now() + 30_000);
  };
  /** A code of the secret that is surely wrong now (ten steps away). */
  const wrongTotp = () => codeAt(Date.now() - 300_000);
  const sessionIdOf = async (token: string): Promise<string> => ((await api(token, 'GET', '/session')).body as unknown as ConsoleAccountView).sessionId;
  const setStepUpBack = (sessionId: string) =>
    queryOnce(platform.databaseUrl, `UPDATE identity.console_sessions SET second_factor_at = now() - interval '6 minutes' WHERE id = $1`, [sessionId]);
  const audited = (action: string) =>
    queryOnce<{ actor: string; details: Record<string, unknown> }>(platform.databaseUrl, `SELECT actor, details FROM identity.audit_events WHERE action = $1 ORDER BY at`, [action]);

  beforeAll(async () => {
    platform = await TestPlatform.start('twofactor', { apps: ['gateway', 'identity'], env: { TRUST_PROXY: 'loopback' } });
    owner = await consoleToken(platform);
    plainId = randomUUID();
    await queryOnce(platform.databaseUrl, `INSERT INTO identity.operators (id, email, password_hash, created_at) VALUES ($1, $2, $3, now())`, [
      plainId,
      PLAIN.email,
      await hashPassword(consolePasswordDigest(PLAIN.email, PLAIN.password)),
    ]);
    await queryOnce(platform.databaseUrl, `INSERT INTO identity.operator_grants (id, operator_id, game_id, role) VALUES ($1, $2, NULL, 'owner')`, [randomUUID(), plainId]);
  });

  afterAll(async () => {
    await platform?.stop();
  });

  describe('TOTP', () => {
    it('sets up: a secret kept sealed (never plain) while pending; a wrong code refused; the right one enables it and answers 10 recovery codes stored as SHA-256', async () => {
      const started = await api(owner, 'POST', '/account/totp');
      expect(started.status).toBe(200);
      totpSecret = started.body.secret as string;
      expect(totpSecret).toMatch(/^[A-Z2-7]{32}$/);
      expect(started.body.uri).toContain(`secret=${totpSecret}`);
      const [pending] = await queryOnce<{ totp_secret: string | null; totp_pending_secret: string }>(
        platform.databaseUrl,
        `SELECT totp_secret, totp_pending_secret FROM identity.operators WHERE email = $1`,
        [TEST_OPERATOR.email],
      );
      expect(pending.totp_secret).toBeNull();
      expect(pending.totp_pending_secret).toMatch(/^v1\./);
      expect(pending.totp_pending_secret).not.toContain(totpSecret);

      const wrong = await api(owner, 'POST', '/account/totp/confirm', { code: wrongTotp() });
      expect([wrong.status, wrong.body.code]).toEqual([401, 'INVALID_CREDENTIALS']);
      expect((await api(owner, 'POST', '/account/totp/confirm', { code: 'abc' })).status).toBe(400);

      const confirmed = await api(owner, 'POST', '/account/totp/confirm', { code: codeAt(Date.now()) });
      expect(confirmed.status).toBe(200);
      recoveryCodes = confirmed.body.recoveryCodes as string[];
      expect(recoveryCodes).toHaveLength(10);
      expect(new Set(recoveryCodes).size).toBe(10);
      const stored = await queryOnce<{ code_hash: string }>(
        platform.databaseUrl,
        `SELECT r.code_hash FROM identity.operator_recovery_codes r JOIN identity.operators o ON o.id = r.operator_id WHERE o.email = $1`,
        [TEST_OPERATOR.email],
      );
      expect(stored.map((row) => row.code_hash).sort()).toEqual(recoveryCodes.map((code) => createHash('sha256').update(code.replace(/-/g, '')).digest('hex')).sort());
      const [enabled] = await queryOnce<{ totp_secret: string; totp_pending_secret: string | null }>(
        platform.databaseUrl,
        `SELECT totp_secret, totp_pending_secret FROM identity.operators WHERE email = $1`,
        [TEST_OPERATOR.email],
      );
      expect(enabled.totp_secret).not.toContain(totpSecret);
      expect(enabled.totp_pending_secret).toBeNull();
      const account = (await api(owner, 'GET', '/session')).body as unknown as ConsoleAccountView;
      expect(account.twoFactor).toMatchObject({ totp: true, recoveryCodesLeft: 10 });
      expect((await audited('operator.second_factor_added')).map((entry) => entry.details.method)).toEqual(['totp']);
    });

    it('signs in in two steps: the password answers a challenge (no token, no cookie); a TOTP code completes it once, never twice', async () => {
      const first = await signIn(TEST_OPERATOR, '203.0.113.10');
      expect(first.status).toBe(200);
      expect(first.body.token).toBeUndefined();
      expect(first.headers.get('set-cookie')).toBeNull();
      const { secondFactor } = first.body as unknown as Challenge;
      expect(secondFactor.methods).toEqual(['totp', 'recovery-code']);
      expect(secondFactor.passkey).toBeNull();
      const code = await freshTotp();
      const done = await post('/session/second-factor', { challenge: secondFactor.challenge, totp: code }, '203.0.113.10');
      expect(done.status).toBe(200);
      expect(done.headers.get('set-cookie')).toMatch(/^console_session=/);
      expect((await api(done.body.token as string, 'GET', '/session')).status).toBe(200);
      // The same code on another sign-in (within its window): refused.
      const again = (await signIn(TEST_OPERATOR, '203.0.113.10')).body as unknown as Challenge;
      const replayed = await post('/session/second-factor', { challenge: again.secondFactor.challenge, totp: code }, '203.0.113.10');
      expect([replayed.status, replayed.body.code]).toEqual([401, 'INVALID_CREDENTIALS']);
      // The challenge that signed in does not sign in again.
      const reused = await post('/session/second-factor', { challenge: secondFactor.challenge, recoveryCode: recoveryCodes[9] }, '203.0.113.10');
      expect([reused.status, reused.body.code]).toEqual([401, 'INVALID_CREDENTIALS']);
      const signedIn = await audited('operator.signed_in');
      expect(signedIn[signedIn.length - 1].details).toMatchObject({ method: 'totp', ip: '203.0.113.10', role: 'owner' });
    });

    it('takes a recovery code once; a challenge takes at most 5 factors; second-factor failures never count against the e-mail', async () => {
      const challenge = async (ip: string) => ((await signIn(TEST_OPERATOR, ip)).body as unknown as Challenge).secondFactor.challenge;
      // Two challenges from two addresses, 5 wrong factors each: 10 failures in all, as many as lock an e-mail.
      for (const ip of ['203.0.113.21', '203.0.113.22']) {
        const exhausted = await challenge(ip);
        for (let attempt = 0; attempt < 5; attempt += 1) {
          expect((await post('/session/second-factor', { challenge: exhausted, totp: wrongTotp() }, ip)).status).toBe(401);
        }
        // The sixth factor is refused even though it is right (and the code is not spent: it works below).
        expect((await post('/session/second-factor', { challenge: exhausted, recoveryCode: recoveryCodes[0] }, ip)).status).toBe(401);
      }
      // The e-mail was not counted: the password still answers a challenge, and the recovery code signs in, once.
      const used = await post('/session/second-factor', { challenge: await challenge('203.0.113.23'), recoveryCode: recoveryCodes[0].toUpperCase() }, '203.0.113.23');
      expect(used.status).toBe(200);
      const spent = await post('/session/second-factor', { challenge: await challenge('203.0.113.23'), recoveryCode: recoveryCodes[0] }, '203.0.113.23');
      expect([spent.status, spent.body.code]).toEqual([401, 'INVALID_CREDENTIALS']);
      const account = (await api(used.body.token as string, 'GET', '/session')).body as unknown as ConsoleAccountView;
      expect(account.twoFactor.recoveryCodesLeft).toBe(9);
    });

    it('refuses a body without exactly one factor (400) and an unknown challenge (401)', async () => {
      const both = await post('/session/second-factor', { challenge: 'x', totp: '123456', recoveryCode: 'a' }, '203.0.113.30');
      expect([both.status, both.body.code]).toEqual([400, 'VALIDATION_FAILED']);
      const none = await post('/session/second-factor', { challenge: 'x' }, '203.0.113.30');
      expect(none.status).toBe(400);
      const unknown = await post('/session/second-factor', { challenge: 'no-such-challenge', recoveryCode: recoveryCodes[1] }, '203.0.113.30');
      expect([unknown.status, unknown.body.code]).toEqual([401, 'INVALID_CREDENTIALS']);
    });
  });

  describe('step-up', () => {
    it('creating an API key answers 401 STEP_UP_REQUIRED once the second factor is 5 minutes old, and works after a step-up (password, without a second factor)', async () => {
      const token = (await signIn(PLAIN, '203.0.113.40')).body.token as string;
      const game = await api(token, 'POST', '/games', { name: 'Step-up game' });
      expect((await api(token, 'POST', `/games/${game.body.id as string}/api-keys`, { name: 'fresh' })).status).toBe(201);
      await setStepUpBack(await sessionIdOf(token));
      const refused = await api(token, 'POST', `/games/${game.body.id as string}/api-keys`, { name: 'stale' });
      expect([refused.status, refused.body.code]).toEqual([401, 'STEP_UP_REQUIRED']);
      expect(((await api(token, 'GET', '/session')).body as unknown as ConsoleAccountView).stepUpUntil).toBeNull();
      const wrong = await api(token, 'POST', '/session/step-up', { password: 'not-the-password' });
      expect([wrong.status, wrong.body.code]).toEqual([401, 'INVALID_CREDENTIALS']);
      const steppedUp = await api(token, 'POST', '/session/step-up', { password: PLAIN.password });
      expect(steppedUp.status).toBe(200);
      expect(Date.parse(steppedUp.body.stepUpUntil as string)).toBeGreaterThan(Date.now() + 4 * 60_000);
      expect((await api(token, 'POST', `/games/${game.body.id as string}/api-keys`, { name: 'after step-up' })).status).toBe(201);
      expect((await audited('operator.stepped_up')).map((entry) => entry.details.method)).toContain('password');
    });

    it('takes no password from an operator with a second factor, but their second factor', async () => {
      const token = owner;
      await setStepUpBack(await sessionIdOf(token));
      const game = await api(token, 'POST', '/games', { name: 'Owner step-up game' });
      expect((await api(token, 'POST', `/games/${game.body.id as string}/api-keys`, {})).body.code).toBe('STEP_UP_REQUIRED');
      const byPassword = await api(token, 'POST', '/session/step-up', { password: TEST_OPERATOR.password });
      expect([byPassword.status, byPassword.body.code]).toEqual([401, 'INVALID_CREDENTIALS']);
      expect((await api(token, 'POST', '/session/step-up', { totp: wrongTotp() })).status).toBe(401);
      expect((await api(token, 'POST', '/session/step-up', { recoveryCode: recoveryCodes[2] })).status).toBe(200);
      expect((await api(token, 'POST', `/games/${game.body.id as string}/api-keys`, {})).status).toBe(201);
      expect((await api(token, 'POST', '/session/step-up/options')).body).toEqual({ passkey: null });
    });

    it('asks for a step-up before a second factor is removed or recovery codes renewed', async () => {
      await setStepUpBack(await sessionIdOf(owner));
      for (const [method, path] of [['DELETE', '/account/totp'], ['POST', '/account/recovery-codes'], ['POST', '/account/totp'], ['POST', '/account/passkeys/options']]) {
        const answer = await api(owner, method, path);
        expect({ path, status: answer.status, code: answer.body.code }).toEqual({ path, status: 401, code: 'STEP_UP_REQUIRED' });
      }
      expect((await api(owner, 'POST', '/session/step-up', { recoveryCode: recoveryCodes[3] })).status).toBe(200);
      const renewed = await api(owner, 'POST', '/account/recovery-codes');
      expect(renewed.status).toBe(200);
      const old = await api(owner, 'POST', '/session/step-up', { recoveryCode: recoveryCodes[4] });
      expect(old.status).toBe(401);
      recoveryCodes = renewed.body.recoveryCodes as string[];
    });
  });

  describe('own account and sessions', () => {
    let second: { baseUrl: string };

    beforeAll(async () => {
      second = await platform.startSecondGateway();
    });

    it('changes the display name (PATCH /v1/console/account), audited', async () => {
      const token = (await signIn(PLAIN, '203.0.113.50')).body.token as string;
      const updated = await api(token, 'PATCH', '/account', { displayName: '  Plain Operator ' });
      expect(updated.status).toBe(200);
      expect((updated.body as unknown as ConsoleAccountView).operator.displayName).toBe('Plain Operator');
      expect((await api(token, 'PATCH', '/account', { displayName: 'x'.repeat(101) })).status).toBe(400);
      expect((await audited('operator.account_updated')).at(-1)?.actor).toBe(`operator:${plainId}`);
    });

    it('lists its sessions; ending one is refused on a second gateway within 1 s and stays refused after that gateway restarts', async () => {
      const current = (await signIn(PLAIN, '203.0.113.51')).body.token as string;
      const other = (await signIn(PLAIN, '203.0.113.52')).body.token as string;
      const otherId = await sessionIdOf(other);
      const listed = (await api(current, 'GET', '/account/sessions')).body.items as unknown as ConsoleSessionEntryView[];
      expect(listed.find((entry) => entry.id === otherId)).toMatchObject({ current: false, ip: '203.0.113.52' });
      expect(listed.filter((entry) => entry.current)).toHaveLength(1);
      // /endpoints is answered by the gateway alone: only its own list of ended sessions refuses there.
      expect((await api(other, 'GET', '/endpoints', undefined, second.baseUrl)).status).toBe(200);
      // Not mine, unknown, malformed: 404.
      expect((await api(owner, 'DELETE', `/account/sessions/${otherId}`)).status).toBe(404);
      expect((await api(current, 'DELETE', `/account/sessions/${randomUUID()}`)).status).toBe(404);
      expect((await api(current, 'DELETE', '/account/sessions/not-a-session')).status).toBe(404);

      expect((await api(current, 'DELETE', `/account/sessions/${otherId}`)).status).toBe(204);
      const started = Date.now();
      await waitFor(async () => (await api(other, 'GET', '/endpoints', undefined, second.baseUrl)).status === 401, 3000, 'the second gateway refusing the ended session');
      expect(Date.now() - started).toBeLessThanOrEqual(1000);
      await platform.restartApp('gateway#2');
      const afterRestart = await api(other, 'GET', '/endpoints', undefined, second.baseUrl);
      expect([afterRestart.status, afterRestart.body.code]).toEqual([401, 'TOKEN_REVOKED']);
      expect((await api(current, 'GET', '/endpoints', undefined, second.baseUrl)).status).toBe(200);
      expect((await audited('operator.sessions_ended')).at(-1)?.details).toMatchObject({ sessionIds: [otherId] });
    });

    it('changing the password checks the current one, wants 12 to 1024 characters, and ends every other session on every gateway', async () => {
      const current = (await signIn(PLAIN, '203.0.113.60')).body.token as string;
      const other = (await signIn(PLAIN, '203.0.113.61')).body.token as string;
      const short = await api(current, 'PUT', '/account/password', { currentPassword: PLAIN.password, newPassword: 'too-short' });
      expect([short.status, short.body.code]).toEqual([400, 'VALIDATION_FAILED']);
      expect((await api(current, 'PUT', '/account/password', { currentPassword: PLAIN.password, newPassword: 'x'.repeat(1025) })).status).toBe(400);
      const wrong = await api(current, 'PUT', '/account/password', { currentPassword: 'not-the-password', newPassword: 'a-new-password-of-mine' });
      expect([wrong.status, wrong.body.code]).toEqual([401, 'INVALID_CREDENTIALS']);
      const changed = await api(current, 'PUT', '/account/password', { currentPassword: PLAIN.password, newPassword: 'a-new-password-of-mine' });
      expect(changed.status).toBe(200);
      expect(changed.body.endedSessions).toBeGreaterThanOrEqual(1);
      await waitFor(async () => (await api(other, 'GET', '/endpoints', undefined, second.baseUrl)).status === 401, 1000, 'the other session refused on the second gateway');
      expect((await api(current, 'GET', '/session')).status).toBe(200);
      expect((await signIn(PLAIN, '203.0.113.62')).status).toBe(401);
      PLAIN.password = 'a-new-password-of-mine';
      expect((await signIn(PLAIN, '203.0.113.62')).status).toBe(200);
      expect((await api(current, 'DELETE', '/account/sessions')).status).toBe(204);
      expect(((await api(current, 'GET', '/account/sessions')).body.items as unknown[]).length).toBe(1);
      expect((await audited('operator.password_changed')).at(-1)?.details).toMatchObject({ endedSessions: changed.body.endedSessions });
    });

    it('with two factors required, an operator without one signs in but reaches only their own account', async () => {
      await queryOnce(platform.databaseUrl, `UPDATE identity.console_settings SET require_two_factor = true`);
      try {
        const token = (await signIn(PLAIN, '203.0.113.70')).body.token as string;
        expect(token).toBeDefined();
        const games = await api(token, 'GET', '/games');
        expect([games.status, games.body.code]).toEqual([403, 'FORBIDDEN']);
        expect((await api(token, 'GET', '/session')).status).toBe(200);
        expect((await api(token, 'GET', '/account/sessions')).status).toBe(200);
        expect((await api(token, 'POST', '/account/totp')).status).toBe(200);
      } finally {
        await queryOnce(platform.databaseUrl, `UPDATE identity.console_settings SET require_two_factor = false`);
      }
    });
  });

  describe('the locked-out owner (docs/console-sign-in.md)', () => {
    /** 15 wrong passwords for the e-mail, each from an address of its own: the e-mail is locked (10 failures a minute). */
    const lock = async (email: string, prefix: string) => {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 15; attempt += 1) {
        statuses.push((await signIn({ email, password: `wrong-${attempt}` }, `${prefix}.${attempt + 1}`)).status);
      }
      // (Failures earlier in the suite may have locked it a little sooner.)
      expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
      expect(statuses.slice(10)).toEqual(Array(5).fill(429));
    };

    it('signs the owner in from a clean address with the right password and TOTP, though the e-mail is locked', async () => {
      await lock(TEST_OPERATOR.email, '192.0.2');
      const challenge = await signIn(TEST_OPERATOR, '198.18.5.1');
      expect(challenge.status).toBe(200);
      const { secondFactor } = challenge.body as unknown as Challenge;
      const done = await post('/session/second-factor', { challenge: secondFactor.challenge, totp: await freshTotp() }, '198.18.5.1');
      expect(done.status).toBe(200);
      expect((await api(done.body.token as string, 'GET', '/session')).status).toBe(200);
    });

    it('answers 429 to a wrong password from a clean address while the e-mail is locked, and counts it against that address', async () => {
      const wrong = await signIn({ email: TEST_OPERATOR.email, password: 'still-wrong' }, '198.18.5.2');
      expect([wrong.status, wrong.body.code]).toEqual([429, 'RATE_LIMITED']);
      // The address is no longer clean: even the right password waits now.
      expect((await signIn(TEST_OPERATOR, '198.18.5.2')).status).toBe(429);
      // A clean one still gets the challenge (the sentinel: the refusal above is the address's, not the e-mail's).
      expect((await signIn(TEST_OPERATOR, '198.18.5.3')).status).toBe(200);
    });

    it('keeps an operator without a second factor limited, whatever the address', async () => {
      await lock(PLAIN.email, '192.0.3');
      const locked = await signIn(PLAIN, '198.18.6.1');
      expect([locked.status, locked.body.code]).toEqual([429, 'RATE_LIMITED']);
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  });
});

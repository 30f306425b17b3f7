import { ConsoleSessionEntryView, ConsoleSettingsView, CreatedInvitationView, InvitationPreview, InvitationView, OperatorView, RoleGrant } from '@game-wallet/contracts';
import { OperatorFixture, TEST_OPERATOR, TestPlatform, consoleToken, createOperator, freePort, http, invitationToken, queryOnce, waitFor } from '@game-wallet/testing';
import { createHash, randomBytes } from 'node:crypto';

interface SmtpSink {
  captureOne(recipient: string): Promise<{ email: { body: string; headers: Record<string, unknown> } }>;
  stop(callback: () => void): void;
}
// smtp-tester ships no types.
const smtpTester = require('smtp-tester') as { init(port: number): SmtpSink };

type Answer<T> = T & { code?: string; message?: string };
const EVERY_GAME_OWNER: RoleGrant = { role: 'owner', gameId: null };

/**
 * The console's team (issue 32): invitations (single use, expiry, revocation, mailed through a local SMTP sink),
 * what an owner of listed games reaches, the last owner of every game, removal ending sessions on a second gateway
 * within 1 s, sessions owners end, the instance's settings, the audit trail, and the rate limit of the public routes.
 */
describe('console team', () => {
  let platform: TestPlatform;
  let sink: SmtpSink;
  let second: { baseUrl: string };
  let gameA: string;
  let gameB: string;

  /** Each call from an address of its own, unless one is given: the suite's expected 404s never add up to a 429. */
  const call = <T = unknown>(method: string, path: string, options: { bearer?: string; body?: unknown; ip?: string; baseUrl?: string } = {}) =>
    http<Answer<T>>(method, `${options.baseUrl ?? platform.baseUrl}/v1/console${path}`, {
      bearer: options.bearer,
      body: options.body,
      headers: { 'x-forwarded-for': options.ip ?? `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}` },
    });
  /** A fresh sign-in of the first owner (of every game): fresh enough for step-up actions for 5 minutes. */
  const owner = (): Promise<string> => consoleToken(platform);
  const invite = async (bearer: string, email: string, grants: RoleGrant[]) => call<CreatedInvitationView>('POST', '/invitations', { bearer, body: { email, grants } });
  const accept = (token: string, password = 'a new operator password', displayName = 'New Operator', ip?: string) =>
    call<{ token: string; expiresAt: string }>('POST', '/invitations/accept', { body: { token, password, displayName }, ip });
  const signIn = (email: string, password: string) => http<Answer<{ token: string }>>('POST', `${platform.baseUrl}/v1/console/session`, { body: { email, password } });
  const auditOf = (action: string) =>
    queryOnce<{ actor: string; target: string; details: Record<string, unknown>; application_id: string | null }>(
      platform.databaseUrl,
      'SELECT actor, target, details, application_id FROM identity.audit_events WHERE action = $1 ORDER BY at',
      [action],
    );
  const uniqueEmail = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.com`;

  beforeAll(async () => {
    const smtpPort = await freePort();
    sink = smtpTester.init(smtpPort);
    platform = await TestPlatform.start('team', {
      env: { TRUST_PROXY: 'loopback', RATE_LIMIT_AUTH_FAILURES_PER_IP: '5' },
      appEnv: { identity: { SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, SMTP_FROM: 'Game Wallet <console@example.com>' } },
    });
    second = await platform.startSecondGateway();
    const token = await owner();
    const games = await Promise.all(['Game A', 'Game B'].map((name) => http<{ id: string }>('POST', `${platform.baseUrl}/v1/console/games`, { bearer: token, body: { name } })));
    [gameA, gameB] = games.map((game) => game.body.id);
  });

  afterAll(async () => {
    await platform?.stop();
    await new Promise<void>((resolve) => (sink ? sink.stop(resolve) : resolve()));
  });

  describe('invitations', () => {
    it('gives a single-use link, shown once, mailed through SMTP; accepting it sets the password, the roles and signs in', async () => {
      const email = uniqueEmail('Invited').toLowerCase();
      const mail = sink.captureOne(email);
      const created = await invite(await owner(), email, [{ role: 'viewer', gameId: gameA }]);
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        email,
        grants: [{ role: 'viewer', gameId: gameA }],
        invitedBy: TEST_OPERATOR.email,
        createdAt: expect.any(String),
        expiresAt: expect.any(String),
        status: 'pending',
        link: expect.stringMatching(new RegExp(`^${platform.baseUrl}/console/invitation#token=[A-Za-z0-9_-]{43}$`)),
        mailed: true,
      });
      expect(Date.parse(created.body.expiresAt) - Date.parse(created.body.createdAt)).toBe(72 * 3600_000);
      // The mail carries the same link, and the link in the mail is what works.
      const { email: received } = await mail;
      expect(received.body).toContain(created.body.link);
      const token = invitationToken(received.body.match(/https?:\/\/\S+#token=[A-Za-z0-9_-]+/)?.[0] ?? '');
      // Stored as its SHA-256 only; the link is in no audit entry.
      const [row] = await queryOnce<{ token_hash: string }>(platform.databaseUrl, 'SELECT token_hash FROM identity.operator_invitations WHERE id = $1', [created.body.id]);
      expect(row.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
      const preview = await call<InvitationPreview>('POST', '/invitations/preview', { body: { token } });
      expect(preview.status).toBe(200);
      expect(preview.body).toEqual({ email, grants: [{ role: 'viewer', gameId: gameA }], expiresAt: created.body.expiresAt });

      const response = await fetch(`${platform.baseUrl}/v1/console/invitations/accept`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.77' },
        body: JSON.stringify({ token, password: 'the invitee password', displayName: '  Ada Lovelace ' }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('set-cookie')).toMatch(/^console_session=[^;]+;.*HttpOnly.*SameSite=Strict/i);
      const session = (await response.json()) as { token: string };
      const me = await call<{ operator: { email: string; displayName: string; grants: RoleGrant[] } }>('GET', '/session', { bearer: session.token });
      expect(me.body.operator).toMatchObject({ email, displayName: 'Ada Lovelace', grants: [{ role: 'viewer', gameId: gameA }] });
      expect((await signIn(email, 'the invitee password')).status).toBe(200);

      // Once: a second accept, and a preview, answer 404.
      expect((await accept(token)).body.code).toBe('NOT_FOUND');
      expect((await call('POST', '/invitations/preview', { body: { token } })).body.code).toBe('NOT_FOUND');
      const list = await call<{ items: InvitationView[] }>('GET', '/invitations', { bearer: await owner() });
      expect(list.body.items.find((item) => item.id === created.body.id)?.status).toBe('accepted');

      const audit = JSON.stringify([...(await auditOf('operator.invited')), ...(await auditOf('invitation.accepted'))]);
      expect(audit).toContain(created.body.id);
      expect(audit).not.toContain(token);
      expect(audit).not.toContain(row.token_hash);
      expect(platform.allOutput()).not.toContain(token);
      const [accepted] = (await auditOf('invitation.accepted')).filter((entry) => entry.target === `invitation:${created.body.id}`);
      expect(accepted.details).toMatchObject({ email, ip: '198.51.100.77' });
    });

    it('lets exactly one of two simultaneous accepts of a link through', async () => {
      const created = await invite(await owner(), uniqueEmail('race'), [{ role: 'support', gameId: null }]);
      const token = invitationToken(created.body.link);
      const answers = await Promise.all([accept(token, 'first racer password'), accept(token, 'second racer password')]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 404]);
      const rows = await queryOnce<{ count: number }>(platform.databaseUrl, 'SELECT count(*)::int AS count FROM identity.operators WHERE email = $1', [created.body.email]);
      expect(rows[0].count).toBe(1);
    });

    it('refuses an expired link (404), and lists the invitation as expired', async () => {
      const created = await invite(await owner(), uniqueEmail('late'), [{ role: 'viewer', gameId: null }]);
      const token = invitationToken(created.body.link);
      expect((await call('POST', '/invitations/preview', { body: { token } })).status).toBe(200);
      await queryOnce(platform.databaseUrl, `UPDATE identity.operator_invitations SET expires_at = now() - interval '1 second' WHERE id = $1`, [created.body.id]);
      expect((await call('POST', '/invitations/preview', { body: { token } })).body.code).toBe('NOT_FOUND');
      expect((await accept(token)).body.code).toBe('NOT_FOUND');
      const list = await call<{ items: InvitationView[] }>('GET', '/invitations', { bearer: await owner() });
      expect(list.body.items.find((item) => item.id === created.body.id)?.status).toBe('expired');
    });

    it('revokes a link: it stops working at once; a second revocation is 404; audited', async () => {
      const bearer = await owner();
      const created = await invite(bearer, uniqueEmail('revoked'), [{ role: 'viewer', gameId: null }]);
      const token = invitationToken(created.body.link);
      expect((await call('DELETE', `/invitations/${created.body.id}`, { bearer })).status).toBe(204);
      expect((await accept(token)).body.code).toBe('NOT_FOUND');
      expect((await call('DELETE', `/invitations/${created.body.id}`, { bearer })).body.code).toBe('NOT_FOUND');
      expect((await call('DELETE', '/invitations/not-an-id', { bearer })).body.code).toBe('NOT_FOUND');
      const list = await call<{ items: InvitationView[] }>('GET', '/invitations', { bearer });
      expect(list.body.items.find((item) => item.id === created.body.id)?.status).toBe('revoked');
      const [entry] = (await auditOf('invitation.revoked')).filter((row) => row.target === `invitation:${created.body.id}`);
      expect(entry).toMatchObject({ actor: expect.stringMatching(/^operator:/), application_id: null, details: { email: created.body.email, role: 'owner' } });
    });

    it("refuses an e-mail that belongs to an active or suspended operator (400), unknown games and roles, and more than 100 grants", async () => {
      const bearer = await owner();
      const taken = await invite(bearer, TEST_OPERATOR.email.toUpperCase(), [{ role: 'viewer', gameId: null }]);
      expect([taken.status, taken.body.code]).toEqual([400, 'VALIDATION_FAILED']);
      expect(taken.body.message).toMatch(/already belongs to an operator/);
      const unknownGame = await invite(bearer, uniqueEmail('x'), [{ role: 'viewer', gameId: '00000000-0000-7000-8000-000000000000' }]);
      expect([unknownGame.status, unknownGame.body.message]).toEqual([400, 'A grant names a game that does not exist']);
      expect((await invite(bearer, uniqueEmail('x'), [{ role: 'root' as never, gameId: null }])).status).toBe(400);
      expect((await invite(bearer, uniqueEmail('x'), [])).status).toBe(400);
      const many = Array.from({ length: 101 }, () => ({ role: 'viewer' as const, gameId: gameA }));
      expect((await invite(bearer, uniqueEmail('x'), many)).status).toBe(400);
      expect((await call('POST', '/invitations', { bearer, body: { email: uniqueEmail('x'), grants: [{ role: 'viewer', gameId: null }], extra: 1 } })).status).toBe(400);
    });

    it('needs a fresh factor to invite (401 STEP_UP_REQUIRED), and the owner role', async () => {
      const bearer = await owner();
      await queryOnce(platform.databaseUrl, `UPDATE identity.console_sessions SET second_factor_at = now() - interval '6 minutes' WHERE revoked_at IS NULL AND operator_id = (SELECT id FROM identity.operators WHERE email = $1)`, [TEST_OPERATOR.email]);
      const stale = await invite(bearer, uniqueEmail('stale'), [{ role: 'viewer', gameId: null }]);
      expect([stale.status, stale.body.code]).toEqual([401, 'STEP_UP_REQUIRED']);
      const admin = await createOperator(platform, await owner(), [{ role: 'admin', gameId: null }]);
      expect((await invite(admin.token, uniqueEmail('x'), [{ role: 'viewer', gameId: null }])).body.code).toBe('FORBIDDEN');
      expect((await call('GET', '/operators', { bearer: admin.token })).body.code).toBe('FORBIDDEN');
      expect((await call('GET', '/invitations', { bearer: admin.token })).body.code).toBe('FORBIDDEN');
    });

    it('counts unknown tokens against the client address like failed sign-ins: past the limit, 429 even for a good link', async () => {
      const created = await invite(await owner(), uniqueEmail('guessed'), [{ role: 'viewer', gameId: null }]);
      const ip = '203.0.113.201';
      const answers: number[] = [];
      for (let attempt = 0; attempt < 8; attempt += 1) {
        answers.push((await call('POST', '/invitations/preview', { body: { token: randomBytes(32).toString('base64url') }, ip })).status);
      }
      expect(answers).toContain(429);
      const blocked = await accept(invitationToken(created.body.link), undefined, undefined, ip);
      expect([blocked.status, blocked.body.code]).toEqual([429, 'RATE_LIMITED']);
      expect((await accept(invitationToken(created.body.link), undefined, undefined, '203.0.113.202')).status).toBe(200);
    });
  });

  describe('roles', () => {
    let ownerOfA: OperatorFixture;
    let inBoth: OperatorFixture;
    let onlyB: OperatorFixture;

    beforeAll(async () => {
      const bearer = await owner();
      ownerOfA = await createOperator(platform, bearer, [{ role: 'owner', gameId: gameA }]);
      inBoth = await createOperator(platform, bearer, [
        { role: 'admin', gameId: gameA },
        { role: 'viewer', gameId: gameB },
      ]);
      onlyB = await createOperator(platform, bearer, [{ role: 'viewer', gameId: gameB }]);
    });

    it('shows an owner of listed games the operators with a role in their games, and only those roles', async () => {
      const seen = await call<{ items: OperatorView[] }>('GET', '/operators', { bearer: ownerOfA.token });
      expect(seen.status).toBe(200);
      const ids = seen.body.items.map((item) => item.id);
      expect(ids).toEqual(expect.arrayContaining([ownerOfA.operatorId, inBoth.operatorId]));
      expect(ids).not.toContain(onlyB.operatorId);
      expect(seen.body.items.find((item) => item.id === inBoth.operatorId)?.grants).toEqual([{ role: 'admin', gameId: gameA }]);
      expect(JSON.stringify(seen.body)).not.toContain(gameB);
      const everyone = await call<{ items: OperatorView[] }>('GET', '/operators', { bearer: await owner() });
      expect(everyone.body.items.find((item) => item.id === inBoth.operatorId)).toMatchObject({
        email: inBoth.email,
        status: 'active',
        grants: expect.arrayContaining([
          { role: 'admin', gameId: gameA },
          { role: 'viewer', gameId: gameB },
        ]),
        twoFactor: { totp: false, passkeys: 0 },
      });
    });

    it('lets an owner of listed games give and take roles within them only; the roles they do not reach stay', async () => {
      const changed = await call<OperatorView>('PATCH', `/operators/${inBoth.operatorId}`, { bearer: ownerOfA.token, body: { grants: [{ role: 'developer', gameId: gameA }] } });
      expect(changed.status).toBe(200);
      expect(changed.body.grants).toEqual([{ role: 'developer', gameId: gameA }]);
      const [row] = await queryOnce<{ grants: string[] }>(
        platform.databaseUrl,
        `SELECT array_agg(role || ':' || COALESCE(game_id::text, '*') ORDER BY role) AS grants FROM identity.operator_grants WHERE operator_id = $1`,
        [inBoth.operatorId],
      );
      expect(row.grants).toEqual([`developer:${gameA}`, `viewer:${gameB}`]);
      for (const grants of [[{ role: 'viewer', gameId: gameB }], [{ role: 'viewer', gameId: null }], [EVERY_GAME_OWNER]]) {
        expect((await call('PATCH', `/operators/${inBoth.operatorId}`, { bearer: ownerOfA.token, body: { grants } })).body.code).toBe('FORBIDDEN');
        expect((await invite(ownerOfA.token, uniqueEmail('x'), grants as RoleGrant[])).body.code).toBe('FORBIDDEN');
      }
      const [updated] = (await auditOf('operator.updated')).filter((entry) => entry.target === `operator:${inBoth.operatorId}`);
      const sorted = (grants: RoleGrant[]) => [...grants].sort((a, b) => a.role.localeCompare(b.role));
      const { before, after } = updated.details as { before: { status: string; grants: RoleGrant[] }; after: { status: string; grants: RoleGrant[] } };
      expect({ role: updated.details.role, before: { ...before, grants: sorted(before.grants) }, after: { ...after, grants: sorted(after.grants) } }).toEqual({
        role: 'owner',
        before: { status: 'active', grants: [{ role: 'admin', gameId: gameA }, { role: 'viewer', gameId: gameB }] },
        after: { status: 'active', grants: [{ role: 'developer', gameId: gameA }, { role: 'viewer', gameId: gameB }] },
      });
    });

    it('refuses to remove or suspend an operator with a role outside their games (403), and hides others (404)', async () => {
      expect((await call('DELETE', `/operators/${inBoth.operatorId}`, { bearer: ownerOfA.token })).body.code).toBe('FORBIDDEN');
      expect((await call('PATCH', `/operators/${inBoth.operatorId}`, { bearer: ownerOfA.token, body: { status: 'suspended' } })).body.code).toBe('FORBIDDEN');
      expect((await call('PATCH', `/operators/${onlyB.operatorId}`, { bearer: ownerOfA.token, body: { grants: [] } })).body.code).toBe('NOT_FOUND');
      expect((await call('DELETE', `/operators/${onlyB.operatorId}`, { bearer: ownerOfA.token })).body.code).toBe('NOT_FOUND');
      expect((await call('GET', `/operators/${onlyB.operatorId}/sessions`, { bearer: ownerOfA.token })).body.code).toBe('NOT_FOUND');
      const inA = await createOperator(platform, await owner(), [{ role: 'support', gameId: gameA }]);
      expect((await call('DELETE', `/operators/${inA.operatorId}`, { bearer: ownerOfA.token })).status).toBe(204);
    });

    it('keeps an active owner of every game: nobody demotes, suspends or removes the last one, and nobody removes themselves', async () => {
      const bearer = await owner();
      const [me] = await queryOnce<{ id: string }>(platform.databaseUrl, 'SELECT id FROM identity.operators WHERE email = $1', [TEST_OPERATOR.email]);
      const demote = await call('PATCH', `/operators/${me.id}`, { bearer, body: { grants: [{ role: 'admin', gameId: null }] } });
      expect([demote.status, demote.body.message]).toEqual([403, 'This is the last active owner of every game: make another operator owner of every game first']);
      const removeSelf = await call('DELETE', `/operators/${me.id}`, { bearer });
      expect([removeSelf.status, removeSelf.body.message]).toEqual([403, 'You cannot remove yourself; another owner can']);
      expect((await call('PATCH', `/operators/${me.id}`, { bearer, body: { status: 'suspended' } })).body.message).toBe('You cannot suspend yourself; another owner can');

      // A second owner of every game, suspended, does not count: the first still cannot step down.
      const other = await createOperator(platform, bearer, [EVERY_GAME_OWNER]);
      expect((await call('PATCH', `/operators/${other.operatorId}`, { bearer: await owner(), body: { status: 'suspended' } })).status).toBe(200);
      expect((await call('PATCH', `/operators/${me.id}`, { bearer: await owner(), body: { grants: [{ role: 'admin', gameId: null }] } })).status).toBe(403);
      expect((await call('PATCH', `/operators/${other.operatorId}`, { bearer: await owner(), body: { status: 'active' } })).status).toBe(200);

      // Two owners demoting each other at the same moment: one of them stays owner of every game.
      const otherFresh = (await signIn(other.email, other.password)).body.token;
      const answers = await Promise.all([
        call('PATCH', `/operators/${other.operatorId}`, { bearer: await owner(), body: { grants: [{ role: 'admin', gameId: null }] } }),
        call('PATCH', `/operators/${me.id}`, { bearer: otherFresh, body: { grants: [{ role: 'admin', gameId: null }] } }),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 403]);
      const owners = await queryOnce<{ count: number }>(
        platform.databaseUrl,
        `SELECT count(*)::int AS count FROM identity.operator_grants g JOIN identity.operators o ON o.id = g.operator_id WHERE g.role = 'owner' AND g.game_id IS NULL AND o.status = 'active'`,
      );
      expect(owners[0].count).toBe(1);
      // Back as it was: the first operator owner of every game, the other removed.
      await queryOnce(platform.databaseUrl, `INSERT INTO identity.operator_grants (id, operator_id, game_id, role) VALUES (gen_random_uuid(), $1, NULL, 'owner') ON CONFLICT DO NOTHING`, [me.id]);
      await queryOnce(platform.databaseUrl, `DELETE FROM identity.operator_grants WHERE operator_id = $1 AND role = 'admin'`, [me.id]);
      expect((await call('DELETE', `/operators/${other.operatorId}`, { bearer: await owner() })).status).toBe(204);
    });
  });

  describe('sessions', () => {
    it('ends every session of a removed operator on every gateway within 1 s, refuses their sign-in, and lets the e-mail be invited again', async () => {
      const removed = await createOperator(platform, await owner(), [{ role: 'viewer', gameId: null }]);
      const onSecond = (await http<{ token: string }>('POST', `${second.baseUrl}/v1/console/session`, { body: { email: removed.email, password: removed.password } })).body.token;
      // `GET /v1/console/endpoints` is answered by the gateway alone: only its own revocation list can refuse it.
      const endpoints = (baseUrl: string, token: string) => call('GET', '/endpoints', { bearer: token, baseUrl, ip: '198.51.100.200' });
      for (const token of [removed.token, onSecond]) {
        expect((await endpoints(second.baseUrl, token)).status).toBe(200);
      }
      expect((await call('DELETE', `/operators/${removed.operatorId}`, { bearer: await owner() })).status).toBe(204);
      const started = Date.now();
      for (const token of [removed.token, onSecond]) {
        for (const baseUrl of [platform.baseUrl, second.baseUrl]) {
          await waitFor(async () => (await endpoints(baseUrl, token)).status === 401 || undefined, 3000, 'the session refused', 20);
        }
      }
      expect(Date.now() - started).toBeLessThan(1000);
      expect((await signIn(removed.email, removed.password)).body.code).toBe('INVALID_CREDENTIALS');
      const [row] = await queryOnce<{ status: string; removed_at: Date | null }>(platform.databaseUrl, 'SELECT status, removed_at FROM identity.operators WHERE id = $1', [removed.operatorId]);
      expect(row.status).toBe('removed');
      expect(row.removed_at).not.toBeNull();
      const list = await call<{ items: OperatorView[] }>('GET', '/operators', { bearer: await owner() });
      expect(list.body.items.map((item) => item.id)).not.toContain(removed.operatorId);
      const [entry] = (await auditOf('operator.removed')).filter((audit) => audit.target === `operator:${removed.operatorId}`);
      expect(entry.details).toMatchObject({ email: removed.email, grants: [{ role: 'viewer', gameId: null }], endedSessions: 2, role: 'owner' });
      // The e-mail is free again.
      expect((await invite(await owner(), removed.email, [{ role: 'viewer', gameId: null }])).status).toBe(201);
    });

    it('suspending ends the sessions and refuses sign-ins until the operator is active again', async () => {
      const suspended = await createOperator(platform, await owner(), [{ role: 'support', gameId: null }]);
      const changed = await call<OperatorView>('PATCH', `/operators/${suspended.operatorId}`, { bearer: await owner(), body: { status: 'suspended' } });
      expect(changed.body.status).toBe('suspended');
      await waitFor(async () => (await call('GET', '/endpoints', { bearer: suspended.token, baseUrl: second.baseUrl })).status === 401 || undefined, 1000, 'the suspended session refused', 20);
      expect((await signIn(suspended.email, suspended.password)).status).toBe(401);
      expect((await call('PATCH', `/operators/${suspended.operatorId}`, { bearer: await owner(), body: { status: 'active' } })).status).toBe(200);
      expect((await signIn(suspended.email, suspended.password)).status).toBe(200);
    });

    it("lets an owner list another operator's sessions and end one, or all", async () => {
      const target = await createOperator(platform, await owner(), [{ role: 'viewer', gameId: gameA }]);
      const other = (await signIn(target.email, target.password)).body.token;
      const bearer = await owner();
      const sessions = await call<{ items: ConsoleSessionEntryView[] }>('GET', `/operators/${target.operatorId}/sessions`, { bearer });
      expect(sessions.status).toBe(200);
      expect(sessions.body.items).toHaveLength(2);
      expect(sessions.body.items[0]).toEqual({
        id: expect.any(String),
        createdAt: expect.any(String),
        lastSeenAt: expect.any(String),
        expiresAt: expect.any(String),
        ip: expect.any(String),
        userAgent: expect.any(String),
        current: false,
      });
      const first = sessions.body.items.find((item) => item.createdAt === sessions.body.items.map((entry) => entry.createdAt).sort()[0]) as ConsoleSessionEntryView;
      expect((await call('DELETE', `/operators/${target.operatorId}/sessions/${first.id}`, { bearer })).status).toBe(204);
      await waitFor(async () => (await call('GET', '/endpoints', { bearer: target.token })).status === 401 || undefined, 1000, 'the ended session refused', 20);
      expect((await call('GET', '/endpoints', { bearer: other })).status).toBe(200);
      expect((await call('DELETE', `/operators/${target.operatorId}/sessions/${first.id}`, { bearer })).body.code).toBe('NOT_FOUND');
      expect((await call('DELETE', `/operators/${target.operatorId}/sessions`, { bearer })).status).toBe(204);
      await waitFor(async () => (await call('GET', '/endpoints', { bearer: other })).status === 401 || undefined, 1000, 'every session refused', 20);
      const [entry] = (await auditOf('operator.sessions_ended')).filter((audit) => audit.target === `operator:${target.operatorId}`);
      expect(entry.details).toMatchObject({ sessions: [first.id], role: 'owner' });
      // Still an operator: they sign in again.
      expect((await signIn(target.email, target.password)).status).toBe(200);
    });
  });

  describe('settings', () => {
    it('are read by any operator and changed by an owner of every game with a fresh factor; requiring two factors takes effect', async () => {
      const viewer = await createOperator(platform, await owner(), [{ role: 'viewer', gameId: null }]);
      expect((await call<ConsoleSettingsView>('GET', '/settings', { bearer: viewer.token })).body).toEqual({ requireTwoFactor: false });
      expect((await call('PUT', '/settings', { bearer: viewer.token, body: { requireTwoFactor: true } })).body.code).toBe('FORBIDDEN');
      expect((await call('PUT', '/settings', { bearer: await owner(), body: { requireTwoFactor: 'yes' } })).status).toBe(400);
      const changed = await call<ConsoleSettingsView>('PUT', '/settings', { bearer: await owner(), body: { requireTwoFactor: true } });
      expect([changed.status, changed.body]).toEqual([200, { requireTwoFactor: true }]);
      expect((await call<ConsoleSettingsView>('GET', '/settings', { bearer: viewer.token })).body).toEqual({ requireTwoFactor: true });
      // An operator without a second factor can now do nothing but set one up.
      expect((await call('GET', '/operators', { bearer: await owner() })).body.code).toBe('FORBIDDEN');
      const [entry] = await auditOf('settings.updated');
      expect(entry.details).toMatchObject({ before: { requireTwoFactor: false }, after: { requireTwoFactor: true }, role: 'owner' });
      await queryOnce(platform.databaseUrl, 'UPDATE identity.console_settings SET require_two_factor = false');
    });
  });
});

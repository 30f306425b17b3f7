import { ConsoleSessionInfo } from '@game-wallet/contracts';
import { REPO_ROOT, TEST_PG_URL, TestPlatform, http, invitationToken, queryOnce, testProcessEnv, uniqueDatabaseUrl, waitFor } from '@game-wallet/testing';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Bootstrap without a standing secret (issue 32, item 6): identity in production with no operator and neither
 * CONSOLE_ADMIN_EMAIL nor CONSOLE_ADMIN_PASSWORD starts and says how to make the first owner; the `create-operator`
 * command prints a one-time invitation link; accepting it makes the first owner of every game; the command then
 * refuses unless `--force-invite`; and a CONSOLE_ADMIN_PASSWORD still set once operators exist is warned about.
 */
describe('create-operator command (the first owner from an invitation)', () => {
  let platform: TestPlatform;

  /** Runs the command as the identity image would (`node cli/create-operator.js`), with identity's environment. */
  const createOperator = (...args: string[]) => {
    const result = spawnSync(process.execPath, [join(REPO_ROOT, 'dist/apps/identity/cli/create-operator.js'), ...args], {
      env: { ...testProcessEnv(), ...platform.envOf('identity'), NODE_ENV: 'production' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  };
  const linkIn = (stdout: string): string => stdout.match(/https?:\/\/\S+\/console\/invitation#token=[A-Za-z0-9_-]{43}/)?.[0] ?? '';

  beforeAll(async () => {
    // Identity runs as in production, where it does not create its database: the suite makes it first.
    const database = uniqueDatabaseUrl('createop');
    await queryOnce(TEST_PG_URL, `CREATE DATABASE "${database.name}"`);
    platform = await TestPlatform.start('createop', {
      databaseName: database.name,
      env: { CONSOLE_ADMIN_EMAIL: '', CONSOLE_ADMIN_PASSWORD: '' },
      appEnv: { identity: { NODE_ENV: 'production' } },
    });
  });

  afterAll(async () => {
    await platform?.stop();
  });

  it('starts in production without an operator and says how to create the first owner', async () => {
    await waitFor(() => platform.process('identity').output.includes('No console operator exists yet'), 10_000, 'the hint');
    expect(platform.process('identity').output).toContain('node cli/create-operator.js --email');
    const [row] = await queryOnce<{ count: number }>(platform.databaseUrl, 'SELECT count(*)::int AS count FROM identity.operators');
    expect(row.count).toBe(0);
  });

  it('prints a link that makes the first owner of every game, once; then refuses unless --force-invite', async () => {
    const first = createOperator('--email', 'First.Owner@example.com', '--url', `${platform.baseUrl}/`);
    expect({ status: first.status, stderr: first.stderr }).toEqual({ status: 0, stderr: '' });
    expect(first.stdout).toContain('Invited first.owner@example.com as owner of every game');
    const link = linkIn(first.stdout);
    expect(link.startsWith(`${platform.baseUrl}/console/invitation#token=`)).toBe(true);

    const accepted = await http<{ token: string }>('POST', `${platform.baseUrl}/v1/console/invitations/accept`, {
      body: { token: invitationToken(link), password: 'the first owner password', displayName: 'First Owner' },
    });
    expect(accepted.status).toBe(200);
    const session = await http<ConsoleSessionInfo>('GET', `${platform.baseUrl}/v1/console/session`, { bearer: accepted.body.token });
    expect(session.body.operator).toMatchObject({ email: 'first.owner@example.com', displayName: 'First Owner', grants: [{ role: 'owner', gameId: null }] });
    const signedIn = await http('POST', `${platform.baseUrl}/v1/console/session`, { body: { email: 'first.owner@example.com', password: 'the first owner password' } });
    expect(signedIn.status).toBe(200);
    expect((await http('POST', `${platform.baseUrl}/v1/console/invitations/accept`, { body: { token: invitationToken(link), password: 'another password!', displayName: 'X' } })).status).toBe(404);

    const refused = createOperator('--email', 'second@example.com');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('An operator exists already');
    expect(linkIn(refused.stdout)).toBe('');

    const recovery = createOperator('--email', 'recovery@example.com', '--force-invite', '--url', platform.baseUrl);
    expect(recovery.status).toBe(0);
    const preview = await http<{ email: string; grants: unknown[] }>('POST', `${platform.baseUrl}/v1/console/invitations/preview`, { body: { token: invitationToken(linkIn(recovery.stdout)) } });
    expect(preview.body).toMatchObject({ email: 'recovery@example.com', grants: [{ role: 'owner', gameId: null }] });
    const audit = await queryOnce<{ actor: string; details: Record<string, unknown> }>(platform.databaseUrl, `SELECT actor, details FROM identity.audit_events WHERE action = 'operator.invited' ORDER BY at`);
    expect(audit.map((entry) => [entry.actor, entry.details.email])).toEqual([
      ['system', 'first.owner@example.com'],
      ['system', 'recovery@example.com'],
    ]);
    expect(JSON.stringify(audit)).not.toContain(invitationToken(link));

    expect(createOperator().status).toBe(2);
  });

  it('warns at start while CONSOLE_ADMIN_PASSWORD is still set once operators exist, and makes no operator of it', async () => {
    await platform.process('identity').stop();
    const restarted = await platform.startApp('identity', 'identity', { CONSOLE_ADMIN_EMAIL: 'unused@example.com', CONSOLE_ADMIN_PASSWORD: 'a password nobody needs' });
    await waitFor(() => restarted.output.includes('CONSOLE_ADMIN_PASSWORD is set, but the console has operators already'), 10_000, 'the warning');
    expect(restarted.output).not.toContain('a password nobody needs');
    const rows = await queryOnce(platform.databaseUrl, `SELECT 1 FROM identity.operators WHERE email = 'unused@example.com'`);
    expect(rows).toHaveLength(0);
  });
});

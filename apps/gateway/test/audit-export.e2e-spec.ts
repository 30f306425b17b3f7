import { AuditExportLineView } from '@game-wallet/contracts';
import { verifyAuditExport } from '@game-wallet/crypto';
import { GameFixture, TestPlatform, consoleToken, createGame, createPlayer, http, queryOnce, spawnNode, waitFor } from '@game-wallet/testing';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The audit export and its hash chains: every row linked, and an edit, a deletion or a reordering in PostgreSQL found. */
describe('audit export with hash chains', () => {
  let platform: TestPlatform;
  let token: string;
  const folder = mkdtempSync(join(tmpdir(), 'audit-export-'));

  const exportOf = async (gameId: string, query = '') => {
    const response = await http<string>('GET', `${platform.baseUrl}/v1/console/games/${gameId}/audit/export${query}`, { bearer: token });
    return { ...response, text: typeof response.body === 'string' ? response.body : JSON.stringify(response.body) };
  };
  const linesOf = (text: string): AuditExportLineView[] => text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as AuditExportLineView);
  const verify = async (text: string) => verifyAuditExport(text.split('\n'));
  /** `npm run audit:verify` on the text saved to a file: its exit code and what it printed. */
  const verifyWithCommand = async (text: string) => {
    const file = join(folder, `${randomUUID()}.ndjson`);
    writeFileSync(file, text);
    const run = spawnNode('audit-verify', 'dist/apps/identity/cli/audit-verify.js', {}, [file]);
    return { code: await run.waitForExit(), output: run.output };
  };

  /** A game with a player, `signatures` signatures, an API key deactivated and activated again, and a policy change. */
  const busyGame = async (name: string, signatures = 6): Promise<GameFixture & { walletId: string }> => {
    const game = await createGame(platform, token, name);
    const player = await createPlayer(platform, game.key, `${name}-player`);
    await Promise.all(
      Array.from({ length: signatures }, (_, n) =>
        http('POST', `${platform.baseUrl}/v1/wallet/${player.walletId}/sign`, { apiKey: game.key, body: { chain: n % 2 === 0 ? 'evm' : 'sol', message: `audit ${n}` } }),
      ),
    );
    for (const active of [false, true]) {
      expect((await http('PATCH', `${platform.baseUrl}/v1/console/games/${game.gameId}/api-keys/${game.keyId}`, { bearer: token, body: { active } })).status).toBe(200);
    }
    const policy = await http<{ rules: unknown[]; version: number }>('GET', `${platform.baseUrl}/v1/console/games/${game.gameId}/signing-policy`, { bearer: token });
    expect((await http('PUT', `${platform.baseUrl}/v1/console/games/${game.gameId}/signing-policy`, { bearer: token, body: { rules: policy.body.rules } })).status).toBe(200);
    return { ...game, walletId: player.walletId };
  };

  beforeAll(async () => {
    platform = await TestPlatform.start('auditexport', { env: { RATE_LIMIT_SIGN_PER_WALLET_RPS: '1000' } });
    token = await consoleToken(platform);
  });

  afterAll(async () => {
    await platform?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('streams every row of the game as NDJSON, each chain in its order and gapless from the genesis hash, and the check holds', async () => {
    const game = await busyGame('audit-whole', 40);
    const exported = await exportOf(game.gameId);
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = linesOf(exported.text);
    const identityRows = await queryOnce<{ count: number }>(platform.databaseUrl, 'SELECT count(*)::int AS count FROM identity.audit_events WHERE application_id = $1', [game.gameId]);
    const walletRows = await queryOnce<{ count: number }>(
      platform.databaseUrl,
      'SELECT (SELECT count(*) FROM wallet.signature_events WHERE application_id = $1) + (SELECT count(*) FROM wallet.policy_events WHERE application_id = $1) AS count',
      [game.gameId],
    );
    const byChain = (chain: string) => lines.filter((line) => line.chain === chain);
    expect(byChain('identity').map((line) => line.seq)).toEqual(Array.from({ length: identityRows[0].count }, (_, n) => n + 1));
    expect(byChain('wallet').map((line) => line.seq)).toEqual(Array.from({ length: Number(walletRows[0].count) }, (_, n) => n + 1));
    expect(byChain('wallet').map((line) => line.entry.table)).toEqual(expect.arrayContaining(['signature_events', 'policy_events']));
    expect(byChain('identity').map((line) => line.entry.action)).toEqual(expect.arrayContaining(['api_key.created', 'api_key.updated']));
    // The two chains interleaved by time: identity's rows before the game's first signature come first.
    expect(lines[0]).toMatchObject({ chain: 'identity', seq: 1, entry: { action: 'game.created' } });
    expect(await verify(exported.text)).toEqual({ ok: true, rows: { identity: identityRows[0].count, wallet: Number(walletRows[0].count) } });
    const command = await verifyWithCommand(exported.text);
    expect(command).toMatchObject({ code: 0 });
    expect(command.output).toContain('every row holds');
  });

  it('exports a window (since, until) that verifies from its first row on, and refuses a malformed one with 400 INVALID_QUERY', async () => {
    const game = await busyGame('audit-window');
    const lines = linesOf((await exportOf(game.gameId)).text);
    const middle = String(lines[Math.floor(lines.length / 2)].entry.at);
    const later = await exportOf(game.gameId, `?since=${encodeURIComponent(middle)}`);
    // Each chain's part starts at its first row written at or after `since` and runs on without a gap.
    for (const chain of ['identity', 'wallet']) {
      const part = linesOf(later.text).filter((line) => line.chain === chain);
      const whole = lines.filter((line) => line.chain === chain);
      const first = whole.findIndex((line) => String(line.entry.at) >= middle);
      expect([chain, part.map((line) => line.seq)]).toEqual([chain, whole.slice(first === -1 ? whole.length : first).map((line) => line.seq)]);
    }
    expect((await verify(later.text)).ok).toBe(true);
    const earlier = linesOf((await exportOf(game.gameId, `?until=${encodeURIComponent(middle)}`)).text);
    expect(earlier.length + linesOf(later.text).length).toBe(lines.length);
    for (const query of ['?since=yesterday', `?since=${encodeURIComponent(middle)}&until=${encodeURIComponent(middle)}`, '?since=2026-01-01&since=2026-01-02']) {
      const refused = await http<{ code: string }>('GET', `${platform.baseUrl}/v1/console/games/${game.gameId}/audit/export${query}`, { bearer: token });
      expect([refused.status, refused.body.code]).toEqual([400, 'INVALID_QUERY']);
    }
  });

  it('fails the check at a row edited in PostgreSQL, naming it (changed)', async () => {
    const game = await busyGame('audit-edit');
    await queryOnce(platform.databaseUrl, `UPDATE wallet.signature_events SET credential = 'apiKey:someone-else' WHERE application_id = $1 AND seq = 3`, [game.gameId]);
    const text = (await exportOf(game.gameId)).text;
    expect((await verify(text)).problem).toMatchObject({ kind: 'changed', chain: 'wallet', seq: 3 });
    const command = await verifyWithCommand(text);
    expect(command.code).toBe(1);
    expect(command.output).toMatch(/wallet seq 3, id [0-9a-f-]+\): its content does not match its hash/);
    // The same on identity's chain: details edited.
    await queryOnce(platform.databaseUrl, `UPDATE identity.audit_events SET details = '{"active": true}' WHERE application_id = $1 AND seq = 3`, [game.gameId]);
    const identity = linesOf((await exportOf(game.gameId)).text).filter((line) => line.chain === 'identity');
    expect((await verifyAuditExport(identity.map((line) => JSON.stringify(line)))).problem).toMatchObject({ kind: 'changed', chain: 'identity', seq: 3 });
  });

  it('fails the check after a row deleted in PostgreSQL, naming the row after the gap (removed)', async () => {
    const game = await busyGame('audit-delete');
    await queryOnce(platform.databaseUrl, 'DELETE FROM wallet.signature_events WHERE application_id = $1 AND seq = 2', [game.gameId]);
    expect((await verify((await exportOf(game.gameId)).text)).problem).toMatchObject({ kind: 'removed', chain: 'wallet', seq: 3 });
  });

  it('fails the check at rows reordered in PostgreSQL (two rows swap places in the chain)', async () => {
    const game = await busyGame('audit-reorder');
    // Seq is unique per game: through a free value, as anyone rewriting the order would.
    for (const [from, to] of [[2, -1], [3, 2], [-1, 3]]) {
      await queryOnce(platform.databaseUrl, 'UPDATE wallet.signature_events SET seq = $3 WHERE application_id = $1 AND seq = $2', [game.gameId, from, to]);
    }
    expect((await verify((await exportOf(game.gameId)).text)).problem).toMatchObject({ kind: 'reordered', chain: 'wallet', seq: 2 });
  });

  it('links rows an older release wrote without their place in the chain, once the service runs', async () => {
    const game = await busyGame('audit-older', 2);
    const id = randomUUID();
    await queryOnce(
      platform.databaseUrl,
      `INSERT INTO identity.audit_events (id, application_id, at, actor, action, target, details) VALUES ($1, $2, now(), 'system', 'api_key.activated', $3, '{"by": "an older release"}')`,
      [id, game.gameId, `api-key:${game.keyId}`],
    );
    await platform.restartApp('identity');
    await waitFor(async () => (await queryOnce<{ seq: string | null }>(platform.databaseUrl, 'SELECT seq FROM identity.audit_events WHERE id = $1', [id]))[0].seq !== null, 15_000);
    const text = (await exportOf(game.gameId)).text;
    expect(linesOf(text).some((line) => line.entry.id === id)).toBe(true);
    expect((await verify(text)).ok).toBe(true);
  });
});

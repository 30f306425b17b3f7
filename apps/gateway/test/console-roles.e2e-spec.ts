import { AppError, OperatorPrincipal, PATTERNS, Pattern, RequestOf, ResponseOf, SERVICE_NAMES } from '@game-wallet/contracts';
import { transportKeysOf } from '@game-wallet/config';
import { GameFixture, TestPlatform, claimsOf, consoleToken, createGame, createOperator, queryOnce } from '@game-wallet/testing';
import { RedisStreamsClient, TransportKeyring, TransportKeys } from '@game-wallet/transport';
import { randomUUID } from 'node:crypto';

/**
 * Roles are enforced by identity for every console pattern, whichever service owns the data: a request that reaches
 * the wallet or core service without the gateway's checks (as a gateway whose code is wrong, or whose keys leaked,
 * would send it) is still refused by identity's answer to `identity.console.authorize`.
 */
describe('console roles, enforced behind the gateway', () => {
  let platform: TestPlatform;
  let owner: string;
  let game: GameFixture;
  let other: GameFixture;
  let client: RedisStreamsClient;
  let viewer: OperatorPrincipal;
  let admin: OperatorPrincipal;
  let outsider: OperatorPrincipal;

  const principalOf = (token: string): OperatorPrincipal => {
    const claims = claimsOf(token) as { sub: string; jti: string };
    return { kind: 'operator', operatorId: claims.sub, sessionId: claims.jti };
  };
  /** A pattern sent as the gateway sends it, with the gateway's own keys, but without anything the gateway checks. */
  const direct = async <P extends Pattern>(pattern: P, payload: RequestOf<P>, principal: OperatorPrincipal): Promise<ResponseOf<P> | string> => {
    try {
      return await client.call(pattern, { payload, principal }, { timeoutMs: 5000 });
    } catch (error) {
      return error instanceof AppError ? error.code : String(error);
    }
  };

  beforeAll(async () => {
    platform = await TestPlatform.start('consoleroles');
    owner = await consoleToken(platform);
    game = await createGame(platform, owner, 'Roles');
    other = await createGame(platform, owner, 'Other roles');
    viewer = principalOf((await createOperator(platform, owner, [{ role: 'viewer', gameId: game.gameId }])).token);
    admin = principalOf((await createOperator(platform, owner, [{ role: 'admin', gameId: game.gameId }])).token);
    outsider = principalOf((await createOperator(platform, owner, [{ role: 'owner', gameId: other.gameId }])).token);
    const env = platform.envOf('gateway');
    const links = transportKeysOf('gateway', env).links;
    const keys = new TransportKeys(
      'gateway',
      new Map(SERVICE_NAMES.map((service) => {
        const link = links.get(service);
        if (!link) {
          throw new Error(`no gateway key for ${service}`);
        }
        return [service, new TransportKeyring(link.keys, link.currentId)];
      })),
    );
    client = new RedisStreamsClient({ redisUrl: env.REDIS_URL, keyPrefix: platform.keyPrefix, keys });
    await client.connect();
  });

  afterAll(async () => {
    await client?.close();
    await platform.stop();
  });

  it("refuses a viewer's policy change asked of the wallet service directly (403 FORBIDDEN), and lets the viewer read it", async () => {
    const policy = { rules: [{ id: 'everything', action: 'accept' as const, operation: 'message' as const, criteria: [] }] };
    await expect(direct(PATTERNS.wallet.putSigningPolicy, { gameId: game.gameId, policy }, viewer)).resolves.toBe('FORBIDDEN');
    await expect(direct(PATTERNS.wallet.putSigningPolicyDraft, { gameId: game.gameId, draft: policy }, viewer)).resolves.toBe('FORBIDDEN');
    await expect(direct(PATTERNS.wallet.getSigningPolicy, { gameId: game.gameId }, viewer)).resolves.toMatchObject({ version: 0 });
  });

  it("answers 404 GAME_NOT_FOUND to an operator of another game, from core, the wallet service and identity alike", async () => {
    await expect(direct(PATTERNS.core.listPlayers, { gameId: game.gameId, limit: 10 }, outsider)).resolves.toBe('GAME_NOT_FOUND');
    await expect(direct(PATTERNS.wallet.listSignatures, { gameId: game.gameId, limit: 10 }, outsider)).resolves.toBe('GAME_NOT_FOUND');
    await expect(direct(PATTERNS.wallet.exportAudit, { gameId: game.gameId, afterSeq: 0, limit: 10 }, outsider)).resolves.toBe('GAME_NOT_FOUND');
    await expect(direct(PATTERNS.identity.exportAudit, { gameId: game.gameId, afterSeq: 0, limit: 10 }, outsider)).resolves.toBe('GAME_NOT_FOUND');
    await expect(direct(PATTERNS.wallet.addresses, { gameId: game.gameId, walletIds: [] }, outsider)).resolves.toBe('GAME_NOT_FOUND');
    await expect(direct(PATTERNS.identity.listApiKeys, { gameId: game.gameId }, outsider)).resolves.toBe('GAME_NOT_FOUND');
    await expect(direct(PATTERNS.core.listPlayers, { gameId: other.gameId, limit: 10 }, outsider)).resolves.toMatchObject({ items: [] });
  });

  it('refuses a principal whose session does not exist, or whose operator is suspended (401 INVALID_TOKEN)', async () => {
    const forged = { ...admin, sessionId: randomUUID() };
    await expect(direct(PATTERNS.core.listPlayers, { gameId: game.gameId, limit: 10 }, forged)).resolves.toBe('INVALID_TOKEN');
    await expect(direct(PATTERNS.identity.getGame, { gameId: game.gameId }, forged)).resolves.toBe('INVALID_TOKEN');
    const suspended = principalOf((await createOperator(platform, owner, [{ role: 'admin', gameId: game.gameId }])).token);
    await expect(direct(PATTERNS.wallet.getSigningPolicy, { gameId: game.gameId }, suspended)).resolves.toMatchObject({ version: 0 });
    await queryOnce(platform.databaseUrl, "UPDATE identity.operators SET status = 'suspended' WHERE id = $1", [suspended.operatorId]);
    await expect(direct(PATTERNS.wallet.getSigningPolicy, { gameId: game.gameId }, suspended)).resolves.toBe('INVALID_TOKEN');
  });

  it("asks for a step-up on the wallet service's policy change once the admin's last second factor is older than 5 minutes (401 STEP_UP_REQUIRED)", async () => {
    const policy = { rules: [{ id: 'messages', action: 'accept' as const, operation: 'message' as const, criteria: [] }] };
    await expect(direct(PATTERNS.wallet.putSigningPolicy, { gameId: game.gameId, policy }, admin)).resolves.toMatchObject({ version: 1 });
    await queryOnce(platform.databaseUrl, "UPDATE identity.console_sessions SET second_factor_at = now() - interval '301 seconds' WHERE id = $1", [admin.sessionId]);
    await expect(direct(PATTERNS.wallet.putSigningPolicy, { gameId: game.gameId, policy }, admin)).resolves.toBe('STEP_UP_REQUIRED');
    // Reading needs no step-up.
    await expect(direct(PATTERNS.wallet.getSigningPolicy, { gameId: game.gameId }, admin)).resolves.toMatchObject({ version: 1 });
  });

  it('records the role and the client address an operator acted with in the audit trail', async () => {
    const [entry] = await queryOnce<{ details: { role?: string } }>(
      platform.databaseUrl,
      "SELECT details FROM wallet.policy_events WHERE action = 'signing_policy.updated' ORDER BY id DESC LIMIT 1",
    );
    expect(entry?.details.role).toBe('admin');
  });
});

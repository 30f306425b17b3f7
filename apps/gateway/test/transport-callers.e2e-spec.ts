import { AppName, PATTERNS, Pattern, ServiceName } from '@game-wallet/contracts';
import { GameFixture, TestPlatform, consoleToken, createGame, createPlayer, http, queryOnce, waitFor } from '@game-wallet/testing';
import { transportKeysOf } from '@game-wallet/config';
import { TransportKeyring, TransportKeys, streamKey } from '@game-wallet/transport';
import Redis from 'ioredis';
import { createHash } from 'node:crypto';

/**
 * Each app signs the transport with keys of its own, one per app it talks to, and a service runs a pattern only for the
 * apps that call it (libs/contracts/src/pattern-callers.ts). An app whose keys leak cannot make a service run what that
 * app never asks for, nor pass as a third app; the platform's own flows across apps still work.
 */
describe('what each app may ask of the others over the transport', () => {
  let platform: TestPlatform;
  let redis: Redis;
  let operator: string;
  let game: GameFixture;

  beforeAll(async () => {
    platform = await TestPlatform.start('transportcallers');
    redis = new Redis(platform.env.REDIS_URL);
    operator = await consoleToken(platform);
    game = await createGame(platform, operator, 'Callers');
  });

  afterAll(async () => {
    redis.disconnect();
    await platform.stop();
  });

  /**
   * A stream entry of one request to `pattern` as an app whose keys leaked would write it: signed with the key `owner`
   * holds for the pattern's service, in the name of `claimed` (by default `owner` itself).
   */
  const entry = async (owner: AppName, pattern: Pattern, data: unknown, claimed: AppName = owner): Promise<void> => {
    const service = pattern.slice(0, pattern.indexOf('.')) as ServiceName;
    const stream = streamKey(platform.keyPrefix, service);
    const link = transportKeysOf(owner, platform.envOf(owner)).links.get(service);
    if (!link) {
      throw new Error(`The ${owner} holds no key for the ${service}`);
    }
    const leaked = new TransportKeys(claimed, new Map([[service, new TransportKeyring(link.keys, link.currentId)]]));
    const text = JSON.stringify([{ i: '1', p: pattern, r: `${platform.keyPrefix}:reply:${claimed}-forger`, t: Date.now() + 5000, q: `forged-by-${owner}`, d: data }]);
    await redis.xadd(stream, '*', 'm', text, 's', leaked.sign(service, `request ${stream}`, text));
  };
  const rejected = async (app: AppName, reason: string): Promise<number> => {
    const metrics = await (await fetch(`${platform.internalUrl(app)}/metrics`)).text();
    return Number(new RegExp(`transport_messages_rejected_total\\{reason="${reason}"[^}]*\\} (\\d+)`).exec(metrics)?.[1] ?? 0);
  };
  const operatorPrincipal = () => {
    const claims = JSON.parse(Buffer.from(operator.split('.')[1], 'base64url').toString('utf8')) as { sub: string; jti: string };
    return { kind: 'operator', operatorId: claims.sub, sessionId: claims.jti };
  };
  const keyNames = async (): Promise<string[]> =>
    (await http<{ items: { name: string }[] }>('GET', `${platform.baseUrl}/v1/console/games/${game.gameId}/api-keys`, { bearer: operator })).body.items.map((key) => key.name);

  it("runs the platform's own flows across apps: player creation (gateway → core → identity and wallet), a wallet read with its profile (gateway → wallet → identity)", async () => {
    const player = await createPlayer(platform, game.key, 'across-apps');
    expect(player).toMatchObject({ applicationId: game.gameId, uniqueId: 'across-apps', profileId: expect.any(String), walletId: expect.any(String) });
    const read = await http<{ profile?: { id: string } }>('GET', `${platform.baseUrl}/v1/wallet/${player.walletId}?include=profile`, { apiKey: game.key });
    expect(read.status).toBe(200);
    expect(read.body.profile).toMatchObject({ id: player.profileId, applicationId: game.gameId });
  });

  it("never lets core's keys make the wallet sign: the request is dropped unrun and counted", async () => {
    const player = await createPlayer(platform, game.key, 'signer');
    const signatures = async () =>
      (await queryOnce<{ message_sha256: string }>(platform.databaseUrl, 'SELECT message_sha256 FROM wallet.signature_events WHERE wallet_id = $1', [player.walletId])).map((row) => row.message_sha256);
    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
    const before = await rejected('wallet', 'refused-sender');
    // Core may ask the wallet for a wallet (player creation), never for a signature.
    await entry('core', PATTERNS.wallet.sign, {
      payload: { walletId: player.walletId, chain: 'evm', message: Buffer.from('forged by core').toString('base64') },
      principal: { kind: 'apiKey', applicationId: game.gameId, keyId: game.keyId },
    });
    // The sentinel: a real signature through the gateway, on the same stream after the forged entry.
    const sentinel = await http('POST', `${platform.baseUrl}/v1/wallet/${player.walletId}/sign`, { apiKey: game.key, body: { chain: 'evm', message: 'sentinel' } });
    expect(sentinel.status).toBe(200);
    await waitFor(async () => (await signatures()).includes(sha256('sentinel')), 5000, "the sentinel's signature to be recorded");
    expect(await signatures()).toEqual([sha256('sentinel')]);
    expect(await rejected('wallet', 'refused-sender')).toBe(before + 1);
  });

  it("never lets the wallet's keys make identity create an API key: the request is dropped unrun and counted", async () => {
    const before = await rejected('identity', 'refused-sender');
    // The wallet may ask identity for a profile (include=profile), never for an API key.
    await entry('wallet', PATTERNS.identity.createApiKey, { payload: { gameId: game.gameId, name: 'forged by the wallet' }, principal: operatorPrincipal() });
    const sentinel = await http('POST', `${platform.baseUrl}/v1/console/games/${game.gameId}/api-keys`, { bearer: operator, body: { name: 'sentinel' } });
    expect(sentinel.status).toBe(201);
    await waitFor(async () => (await keyNames()).includes('sentinel'), 5000, 'the sentinel key');
    expect(await keyNames()).not.toContain('forged by the wallet');
    expect(await rejected('identity', 'refused-sender')).toBe(before + 1);
  });

  it("never lets an app pass as another: an entry naming the gateway but signed with the wallet's key is dropped and counted", async () => {
    const before = await rejected('identity', 'bad-signature');
    await entry('wallet', PATTERNS.identity.createApiKey, { payload: { gameId: game.gameId, name: 'the wallet as the gateway' }, principal: operatorPrincipal() }, 'gateway');
    const sentinel = await http('POST', `${platform.baseUrl}/v1/console/games/${game.gameId}/api-keys`, { bearer: operator, body: { name: 'second sentinel' } });
    expect(sentinel.status).toBe(201);
    await waitFor(async () => (await keyNames()).includes('second sentinel'), 5000, 'the sentinel key');
    expect(await keyNames()).not.toContain('the wallet as the gateway');
    expect(await rejected('identity', 'bad-signature')).toBe(before + 1);
    expect(platform.process('identity').output).toMatch(/Dropped transport messages not signed by an app allowed to send them \(entries of \S+\): .*(refused-sender|bad-signature)/);
  });

  it('runs the same entry signed by the gateway (so the refusals above are the sender, not the entry)', async () => {
    await entry('gateway', PATTERNS.identity.createApiKey, { payload: { gameId: game.gameId, name: 'signed by the gateway' }, principal: operatorPrincipal() });
    await waitFor(async () => (await keyNames()).includes('signed by the gateway'), 5000, 'the entry to run');
  });
});

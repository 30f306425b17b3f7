import { PlayerView, WalletView } from '@game-wallet/contracts';
import { GameFixture, TestPlatform, consoleToken, createGame, createPlayer, http, profileJwt, queryOnce, testsUseHsm, waitFor } from '@game-wallet/testing';
import { TransportKeys, broadcastContext, signValue, walletUsedChannel } from '@game-wallet/transport';
import Redis from 'ioredis';

/** SPEC §4.2: the wallet read, its `include` and `chain` queries, and who may read what. */
describe('wallet read', () => {
  let platform: TestPlatform;
  let game: GameFixture;
  let other: GameFixture;
  let player: PlayerView;
  let neighbour: PlayerView;

  beforeAll(async () => {
    platform = await TestPlatform.start('walletread');
    const token = await consoleToken(platform);
    game = await createGame(platform, token);
    other = await createGame(platform, token, 'Other');
    player = await createPlayer(platform, game.key, 'reader');
    neighbour = await createPlayer(platform, game.key, 'neighbour');
  });

  afterAll(async () => {
    await platform.stop();
  });

  const read = (query = '', credential: { apiKey?: string; bearer?: string } = { apiKey: game.key }, walletId = player.walletId) =>
    http<WalletView & { profile?: unknown; code?: string }>('GET', `${platform.baseUrl}/v1/wallet/${walletId}${query}`, credential);

  it('answers the SPEC record with the three addresses, lastUsedAt = createdAt before any signature', async () => {
    const response = await read();
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['addresses', 'applicationId', 'createdAt', 'id', 'lastUsedAt', 'profileId']);
    expect(response.body).toMatchObject({ id: player.walletId, applicationId: game.gameId, profileId: player.profileId });
    expect(Object.keys(response.body.addresses).sort()).toEqual(['evm', 'sol', 'sui']);
    expect(response.body.lastUsedAt).toBe(response.body.createdAt);
  });

  it('keeps the wallet wrapped by the configured master key: the token\'s in the hsm run, the environment\'s otherwise', async () => {
    const [row] = await queryOnce<{ master_key_id: string }>(platform.databaseUrl, 'SELECT master_key_id FROM wallet.wallets WHERE id = $1', [player.walletId]);
    expect(row.master_key_id).toBe(testsUseHsm() ? 'pkcs11:master-1' : 'dev');
  });

  it.each([['evm'], ['sol'], ['sui']])('narrows addresses to ?chain=%s', async (chain) => {
    const response = await read(`?chain=${chain}`);
    expect(Object.keys(response.body.addresses)).toEqual([chain]);
  });

  it('adds the profile with ?include=profile, and combines with chain', async () => {
    const response = await read('?include=profile&chain=sol&unrelated=1');
    expect(response.body.profile).toEqual({ id: player.profileId, applicationId: game.gameId, createdAt: expect.any(String) });
    expect(Object.keys(response.body.addresses)).toEqual(['sol']);
  });

  it("carries the request's id to every service on the way: the wallet service and identity, which it asks for the profile", async () => {
    const requestId = `trace-${Date.now()}`;
    expect((await http('GET', `${platform.baseUrl}/v1/wallet/${player.walletId}?include=profile`, { apiKey: game.key, headers: { 'x-request-id': requestId } })).status).toBe(200);
    const handled = (app: 'wallet' | 'identity', pattern: string) =>
      waitFor(() => platform.process(app).jsonLines().find((line) => line.requestId === requestId && String(line.msg).startsWith(`${pattern} ok`)), 5000, `${app}'s line`);
    await Promise.all([handled('wallet', 'wallet.wallets.get'), handled('identity', 'identity.profiles.get')]);
  });

  it("never adds another profile's profile: a foreign token's read with ?include=profile is 403", async () => {
    const neighbourJwt = await profileJwt(platform, neighbour.profileId, game.key);
    const response = await read('?include=profile', { bearer: neighbourJwt });
    expect([response.status, response.body.code, response.body.profile]).toEqual([403, 'FORBIDDEN', undefined]);
  });

  it.each([['?include=wallet'], ['?include='], ['?chain=btc'], ['?chain=EVM'], ['?chain=evm&chain=sol']])('refuses %s with 400 INVALID_QUERY', async (query) => {
    const response = await read(query);
    expect([response.status, response.body.code]).toEqual([400, 'INVALID_QUERY']);
  });

  it('answers 404 WALLET_NOT_FOUND for an unknown or malformed id', async () => {
    for (const id of ['01900000-0000-7000-8000-000000000000', 'nope']) {
      const response = await read('', { apiKey: game.key }, id);
      expect([response.status, response.body.code]).toEqual([404, 'WALLET_NOT_FOUND']);
    }
  });

  it("lets the wallet's own profile read it; refuses another game's key and another profile's token with 403", async () => {
    const own = await profileJwt(platform, player.profileId, game.key);
    expect((await read('?include=profile', { bearer: own })).status).toBe(200);
    const foreignKey = await read('', { apiKey: other.key });
    expect([foreignKey.status, foreignKey.body.code]).toEqual([403, 'FORBIDDEN']);
    const neighbourJwt = await profileJwt(platform, neighbour.profileId, game.key);
    const foreignProfile = await read('', { bearer: neighbourJwt });
    expect([foreignProfile.status, foreignProfile.body.code]).toEqual([403, 'FORBIDDEN']);
  });

  it("moves a cached lastUsedAt only for a last-used broadcast the wallet signed, with its own key, for its channel", async () => {
    const walletId = neighbour.walletId;
    const lastUsedAt = async (id: string) => (await read('', { apiKey: game.key }, id)).body.lastUsedAt;
    const before = await lastUsedAt(walletId); // now cached
    const sentinel = await createPlayer(platform, game.key, 'broadcast-sentinel');
    const sentinelBefore = await lastUsedAt(sentinel.walletId); // cached too
    const channel = walletUsedChannel(platform.keyPrefix);
    const later = Date.parse(before) + 86_400_000;
    const sentinelLater = Date.parse(sentinelBefore) + 86_400_000;
    const signed = (id: string, at: number) => signValue(platform.transportKeys('wallet'), 'wallet', broadcastContext(channel), `${id} ${at}`);
    const redis = new Redis(platform.env.REDIS_URL);
    try {
      await redis.publish(channel, `${walletId} ${later}`);
      await redis.publish(channel, signValue(TransportKeys.random('wallet'), 'wallet', broadcastContext(channel), `${walletId} ${later}`));
      await redis.publish(channel, signValue(platform.transportKeys('wallet'), 'wallet', broadcastContext('elsewhere'), `${walletId} ${later}`));
      // Signed with a real key the wallet holds, but the gateway's: only the wallet makes this broadcast.
      await redis.publish(channel, signValue(platform.transportKeys('gateway'), 'wallet', broadcastContext(channel), `${walletId} ${later}`));
      // The sentinel: a broadcast the wallet signed, for another wallet, on the same channel and connection after the
      // forged ones. Redis delivers a channel's messages in the order they were published, so once it applies the
      // forged ones have been heard.
      await redis.publish(channel, signed(sentinel.walletId, sentinelLater));
      await waitFor(async () => (await lastUsedAt(sentinel.walletId)) === new Date(sentinelLater).toISOString(), 5000, 'the sentinel broadcast to apply');
      expect(await lastUsedAt(walletId)).toBe(before);
      await redis.publish(channel, signed(walletId, later));
      await waitFor(async () => (await lastUsedAt(walletId)) === new Date(later).toISOString(), 5000, 'the signed broadcast to apply');
    } finally {
      redis.disconnect();
    }
  });
});

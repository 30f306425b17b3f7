import { AppError, BROADCAST, apiKeyCacheKey, broadcastChannel } from '@game-wallet/contracts';
import { TestPlatform, claimsOf, consoleToken, createGame, createProfile, http, profileJwt, waitFor } from '@game-wallet/testing';
import { RedisStreamsClient, TransportKeys, broadcastContext, cacheContext, signValue, streamKey } from '@game-wallet/transport';
import Redis from 'ioredis';
import { createHash, randomBytes, randomUUID } from 'node:crypto';

/**
 * Anyone who can write to Redis cannot act as a principal: services run only stream entries signed with the key of a
 * link to them, and drop the rest unread (counted, logged once a minute); a caller without the key gets its 504.
 * (What each app may ask of the others: transport-callers.e2e-spec.ts.)
 */
describe('authenticated transport', () => {
  let platform: TestPlatform;
  let redis: Redis;
  let operator: string;

  beforeAll(async () => {
    platform = await TestPlatform.start('transportauth', { apps: ['gateway', 'identity'] });
    redis = new Redis(platform.env.REDIS_URL);
    operator = await consoleToken(platform);
  });

  afterAll(async () => {
    redis.disconnect();
    await platform.stop();
  });

  const gameNames = async (): Promise<string[]> =>
    (await http<{ items: { name: string }[] }>('GET', `${platform.baseUrl}/v1/console/games?limit=100`, { bearer: operator })).body.items.map((game) => game.name);

  /** The signed-in operator's principal (identity runs a console pattern only for a live session). */
  const operatorPrincipal = () => {
    const claims = claimsOf(operator) as { sub: string; jti: string };
    return { kind: 'operator', operatorId: claims.sub, sessionId: claims.jti };
  };
  /** An entry asking identity to create a game as the operator, as a writer to Redis could add it. */
  const forgedEntry = (name: string) =>
    JSON.stringify([
      {
        i: '1',
        p: 'identity.games.create',
        r: `${platform.keyPrefix}:reply:forger`,
        t: Date.now() + 5000,
        q: `forged-${name}`,
        d: { payload: { name }, principal: operatorPrincipal() },
      },
    ]);
  const stream = () => streamKey(platform.keyPrefix, 'identity');

  it('never runs an entry that is unsigned, badly signed or signed with an unknown key, and counts each', async () => {
    // The platform's keys have the id `test`: the same id with another key, and an id identity does not know.
    const other = TransportKeys.random('gateway', 'test');
    const unknown = TransportKeys.random('gateway', 'stranger');
    const unsignedText = forgedEntry('Forged unsigned');
    const badText = forgedEntry('Forged bad signature');
    const unknownText = forgedEntry('Forged unknown key');
    await redis.xadd(stream(), '*', 'm', unsignedText);
    await redis.xadd(stream(), '*', 'm', badText, 's', other.sign('identity', `request ${stream()}`, badText));
    await redis.xadd(stream(), '*', 'm', unknownText, 's', unknown.sign('identity', `request ${stream()}`, unknownText));
    // The sentinel: the same entry signed with the gateway's key, after them on the stream. Identity takes a stream's
    // entries in order, and a forged one it ran would have started before the sentinel's game was made.
    const sentinelText = forgedEntry('Sentinel after the forgeries');
    await redis.xadd(stream(), '*', 'm', sentinelText, 's', platform.transportKeys('gateway').sign('identity', `request ${stream()}`, sentinelText));
    await waitFor(async () => (await gameNames()).includes('Sentinel after the forgeries'), 5000, 'the sentinel entry to run');
    const text = await (await fetch(`${platform.internalUrl('identity')}/metrics`)).text();
    expect(text).toMatch(/transport_messages_rejected_total\{reason="unknown-key"[^}]*\} 1/);
    expect(text).toMatch(/transport_messages_rejected_total\{reason="unsigned"[^}]*\} 1/);
    expect(text).toMatch(/transport_messages_rejected_total\{reason="bad-signature"[^}]*\} 1/);
    expect((await gameNames()).filter((name) => name.startsWith('Forged'))).toEqual([]);
    expect(await redis.xlen(stream())).toBe(0); // dropped, not left to be claimed again
    expect(platform.process('identity').output).toMatch(/Dropped transport messages not signed by an app allowed to send them \(entries of \S+\): 1 unsigned/);
  });

  it("runs the same entry when it is signed with the gateway's key (so the refusals above are the signature)", async () => {
    const text = forgedEntry('Signed with the key');
    await redis.xadd(stream(), '*', 'm', text, 's', platform.transportKeys('gateway').sign('identity', `request ${stream()}`, text));
    await waitFor(async () => (await gameNames()).includes('Signed with the key'), 5000, 'the signed entry to run');
  });

  it('answers a caller without the key with 504 at its deadline', async () => {
    const client = new RedisStreamsClient({ redisUrl: platform.env.REDIS_URL, keyPrefix: platform.keyPrefix, keys: TransportKeys.random('gateway', 'test') });
    await client.connect();
    try {
      const error = await client.call('identity.ping', { payload: {}, principal: { kind: 'system' } }, { timeoutMs: 800 }).catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('GATEWAY_TIMEOUT');
    } finally {
      await client.close();
    }
  });

  it('keeps a caller from accepting a reply that is not signed for its channel by the service it asked', async () => {
    const replyChannels = async () => (await redis.pubsub('CHANNELS', `${platform.keyPrefix}:reply:*`)) as string[];
    const before = await replyChannels();
    const client = await platform.transportClient();
    try {
      // A request no service takes (the wallet service is not running), and forged replies to it on the client's channel.
      const call = client.call('wallet.ping', { payload: {}, principal: { kind: 'system' } }, { timeoutMs: 5000 }).catch((failure: unknown) => failure);
      const channel = await waitFor(async () => (await replyChannels()).find((name) => !before.includes(name)), 2000, "the client's reply channel");
      // The client's first call has the correlation id 1.
      const reply = (status: string) => JSON.stringify([{ i: '1', d: { service: 'wallet', status } }]);
      const forged = reply('forged');
      await redis.publish(channel, forged);
      await redis.publish(channel, `${TransportKeys.random('wallet', 'test').sign('gateway', `reply ${channel}`, forged)} ${forged}`);
      // Signed with the wallet's real key but for another channel: moved replies are refused too.
      await redis.publish(channel, `${platform.transportKeys('wallet').sign('gateway', 'reply elsewhere', forged)} ${forged}`);
      // Signed for this channel with identity's real key: a reply to a call to the wallet counts only from the wallet.
      await redis.publish(channel, `${platform.transportKeys('identity').sign('gateway', `reply ${channel}`, forged)} ${forged}`);
      // The sentinel: the same reply signed by the wallet for this channel, published after them on the same channel
      // (Redis delivers a channel's messages in order). The call takes the first reply it accepts, so it answers with the
      // sentinel only if every forged one before it was heard and refused.
      const sentinel = reply('sentinel');
      await redis.publish(channel, `${platform.transportKeys('wallet').sign('gateway', `reply ${channel}`, sentinel)} ${sentinel}`);
      expect(await call).toEqual({ service: 'wallet', status: 'sentinel' });
    } finally {
      await client.close();
    }
  });

  describe('what else identity leaves in Redis for the gateways', () => {
    const anyKey = () => `gk_${randomBytes(30).toString('base64').replace(/[^0-9A-Za-z]/g, '').padEnd(40, 'a').slice(0, 40)}`;
    const cacheKeyOf = (key: string) => apiKeyCacheKey(platform.keyPrefix, createHash('sha256').update(key).digest('hex'));
    /** Refreshing an unknown profile: 404 once the key is taken, 401 while it is not. */
    const useKey = (key: string) => http('POST', `${platform.baseUrl}/v1/profile/${randomUUID()}/authenticate`, { apiKey: key, body: {} });

    it('takes no shared API-key entry identity did not sign for that key: unsigned, signed for another key, or by another app', async () => {
      const game = await createGame(platform, operator, 'Cache forgery');
      const state = JSON.stringify({ keyId: game.keyId, applicationId: game.gameId, active: true, cachedUntil: Date.now() + 60_000 });
      const unsigned = anyKey();
      await redis.set(cacheKeyOf(unsigned), state, 'EX', 60);
      expect(await useKey(unsigned)).toMatchObject({ status: 401, body: { code: 'INVALID_API_KEY' } });

      // The game's real key, once used, has a signed entry; copied to another key's name it is refused.
      expect((await useKey(game.key)).status).toBe(404);
      const signedForReal = await waitFor(async () => redis.get(cacheKeyOf(game.key)), 2000, "the real key's entry");
      const moved = anyKey();
      await redis.set(cacheKeyOf(moved), signedForReal, 'EX', 60);
      expect(await useKey(moved)).toMatchObject({ status: 401, body: { code: 'INVALID_API_KEY' } });

      // Signed for its own name with a real key of the gateway's, but the wallet's: only identity makes these entries.
      const byWallet = anyKey();
      await redis.set(cacheKeyOf(byWallet), signValue(platform.transportKeys('wallet'), 'gateway', cacheContext(cacheKeyOf(byWallet)), state), 'EX', 60);
      expect(await useKey(byWallet)).toMatchObject({ status: 401, body: { code: 'INVALID_API_KEY' } });

      // Signed by identity for its own name, the same forgery would pass: the refusals above are the signature.
      const signed = anyKey();
      await redis.set(cacheKeyOf(signed), signValue(platform.transportKeys('identity'), 'gateway', cacheContext(cacheKeyOf(signed)), state), 'EX', 60);
      expect((await useKey(signed)).status).toBe(404);
    });

    it('takes no shared API-key entry identity signed once its signed time has passed, or without one: a copy written back is a miss', async () => {
      const game = await createGame(platform, operator, 'Cache replay');
      expect((await useKey(game.key)).status).toBe(404);
      const real = await waitFor(async () => redis.get(cacheKeyOf(game.key)), 2000, "the real key's entry");
      const { cachedUntil } = JSON.parse(real.slice(real.indexOf(' ') + 1)) as { cachedUntil: number };
      expect(cachedUntil - Date.now()).toBeGreaterThan(0);
      expect(cachedUntil - Date.now()).toBeLessThanOrEqual(15_000);

      const state = { keyId: game.keyId, applicationId: game.gameId, active: true };
      const byIdentity = (key: string, text: unknown) => signValue(platform.transportKeys('identity'), 'gateway', cacheContext(cacheKeyOf(key)), JSON.stringify(text));
      const entries = { inTime: { ...state, cachedUntil: Date.now() + 60_000 }, past: { ...state, cachedUntil: Date.now() - 10_000 }, timeless: state };
      const answers: Record<string, number> = {};
      for (const [name, text] of Object.entries(entries)) {
        const key = anyKey();
        await redis.set(cacheKeyOf(key), byIdentity(key, text), 'EX', 60);
        answers[name] = (await useKey(key)).status;
      }
      // In its time the entry is taken (the unknown key acts as the game's); past it, or without one, identity answers.
      expect(answers).toEqual({ inTime: 404, past: 401, timeless: 401 });
    });

    it('drops a revocation broadcast identity did not sign, and applies one it did', async () => {
      const game = await createGame(platform, operator, 'Broadcast forgery');
      const [profile, sentinel] = [await createProfile(platform, game), await createProfile(platform, game)];
      const refresher = async (id: string) => {
        const jwt = await profileJwt(platform, id, game.key);
        return () => http('POST', `${platform.baseUrl}/v1/profile/${id}/authenticate`, { bearer: jwt, body: {} });
      };
      const [refresh, refreshSentinel] = [await refresher(profile.id), await refresher(sentinel.id)];
      const channel = broadcastChannel(platform.keyPrefix, BROADCAST.revocations);
      const revoke = (id: string) => JSON.stringify({ profiles: [{ profileId: id, revokedBefore: Date.now() + 3_600_000 }], sessions: [], apiKeys: [] });
      const list = revoke(profile.id);
      await redis.publish(channel, list);
      await redis.publish(channel, signValue(TransportKeys.random('identity', 'stranger'), 'gateway', broadcastContext(channel), list));
      await redis.publish(channel, signValue(platform.transportKeys('identity'), 'gateway', broadcastContext('elsewhere'), list));
      // Core's real key with the gateways: only identity revokes.
      await redis.publish(channel, signValue(platform.transportKeys('core'), 'gateway', broadcastContext(channel), list));
      // A real revocation of another profile, after them: once it applies, the forged ones have been heard too.
      await redis.publish(channel, signValue(platform.transportKeys('identity'), 'gateway', broadcastContext(channel), revoke(sentinel.id)));
      await waitFor(async () => (await refreshSentinel()).status === 401, 2000, 'the sentinel revocation to apply');
      expect((await refresh()).status).toBe(200);

      await redis.publish(channel, signValue(platform.transportKeys('identity'), 'gateway', broadcastContext(channel), list));
      await waitFor(async () => (await refresh()).status === 401, 2000, 'the signed revocation to apply');
      expect(await refresh()).toMatchObject({ status: 401, body: { code: 'TOKEN_REVOKED' } });
    });
  });
});

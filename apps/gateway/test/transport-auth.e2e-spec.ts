import { AppError } from '@game-wallet/contracts';
import { TestPlatform, consoleToken, http, waitFor } from '@game-wallet/testing';
import { RedisStreamsClient, TransportKeyring, streamKey } from '@game-wallet/transport';
import Redis from 'ioredis';

/**
 * Anyone who can write to Redis cannot act as a principal: services run only stream entries signed with a transport
 * key, and drop the rest unread (counted, logged once a minute); a caller without the key gets its 504.
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

  /** An entry asking identity to create a game as some operator, as a writer to Redis could add it. */
  const forgedEntry = (name: string) =>
    JSON.stringify([
      {
        i: '1',
        p: 'identity.games.create',
        r: `${platform.keyPrefix}:reply:forger`,
        t: Date.now() + 5000,
        q: `forged-${name}`,
        d: { payload: { name }, principal: { kind: 'operator', operatorId: '01900000-0000-7000-8000-000000000001', sessionId: '01900000-0000-7000-8000-000000000002' } },
      },
    ]);
  const stream = () => streamKey(platform.keyPrefix, 'identity');

  it('never runs an entry that is unsigned, badly signed or signed with an unknown key, and counts each', async () => {
    const other = TransportKeyring.random('test');
    const unknown = TransportKeyring.random('stranger');
    const unsignedText = forgedEntry('Forged unsigned');
    const badText = forgedEntry('Forged bad signature');
    const unknownText = forgedEntry('Forged unknown key');
    await redis.xadd(stream(), '*', 'm', unsignedText);
    await redis.xadd(stream(), '*', 'm', badText, 's', other.sign(`request ${stream()}`, badText));
    await redis.xadd(stream(), '*', 'm', unknownText, 's', unknown.sign(`request ${stream()}`, unknownText));
    const metrics = async () => (await fetch(`${platform.internalUrl('identity')}/metrics`)).text();
    await waitFor(async () => /transport_messages_rejected_total\{reason="unknown-key"[^}]*\} 1/.test(await metrics()), 5000, 'the rejections to be counted');
    const text = await metrics();
    expect(text).toMatch(/transport_messages_rejected_total\{reason="unsigned"[^}]*\} 1/);
    expect(text).toMatch(/transport_messages_rejected_total\{reason="bad-signature"[^}]*\} 1/);
    expect((await gameNames()).filter((name) => name.startsWith('Forged'))).toEqual([]);
    expect(await redis.xlen(stream())).toBe(0); // dropped, not left to be claimed again
    expect(platform.process('identity').output).toMatch(/Dropped unauthenticated transport messages \(entries of \S+\): 1 unsigned/);
  });

  it('runs the same entry when it is signed with the transport key (so the refusals above are the signature)', async () => {
    const text = forgedEntry('Signed with the key');
    await redis.xadd(stream(), '*', 'm', text, 's', platform.transportKeyring.sign(`request ${stream()}`, text));
    await waitFor(async () => (await gameNames()).includes('Signed with the key'), 5000, 'the signed entry to run');
  });

  it('answers a caller without the key with 504 at its deadline', async () => {
    const client = new RedisStreamsClient({ redisUrl: platform.env.REDIS_URL, keyPrefix: platform.keyPrefix, keyring: TransportKeyring.random('test') });
    await client.connect();
    try {
      const error = await client.call('identity.ping', { payload: {}, principal: { kind: 'system' } }, { timeoutMs: 800 }).catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('GATEWAY_TIMEOUT');
    } finally {
      await client.close();
    }
  });

  it('keeps a caller from accepting a reply that is not signed for its channel', async () => {
    const replyChannels = async () => (await redis.pubsub('CHANNELS', `${platform.keyPrefix}:reply:*`)) as string[];
    const before = await replyChannels();
    const client = await platform.transportClient();
    try {
      // A request no service takes (the wallet service is not running), and forged replies to it on the client's channel.
      const call = client.call('wallet.ping', { payload: {}, principal: { kind: 'system' } }, { timeoutMs: 1500 }).catch((failure: unknown) => failure);
      const channel = await waitFor(async () => (await replyChannels()).find((name) => !before.includes(name)), 2000, "the client's reply channel");
      const forged = JSON.stringify([{ i: '1', d: { service: 'wallet', status: 'forged' } }]);
      await redis.publish(channel, forged);
      await redis.publish(channel, `${TransportKeyring.random('test').sign(`reply ${channel}`, forged)} ${forged}`);
      // Signed with the real key but for another channel: moved replies are refused too.
      await redis.publish(channel, `${platform.transportKeyring.sign('reply elsewhere', forged)} ${forged}`);
      const outcome = await call;
      expect(outcome).toBeInstanceOf(AppError);
      expect((outcome as AppError).code).toBe('GATEWAY_TIMEOUT');
    } finally {
      await client.close();
    }
  });
});

import { AppError } from '@game-wallet/contracts';
import { PrivateRedis, RunningProcess, sleep, spawnNode, uniquePrefix, waitFor } from '@game-wallet/testing';
import { randomBytes } from 'node:crypto';
import { RedisStreamsClient, TransportKeyring, TransportKeys, heartbeatKey, streamKey } from '@game-wallet/transport';

const KEY = randomBytes(32);
const keys = new TransportKeys('gateway', new Map([['core', new TransportKeyring(new Map([['test', KEY]]), 'test')]]));
import Redis from 'ioredis';

const FIXTURE = 'dist/out-tsc/libs/transport/test/fixtures/counting-service.js';

describe('Redis Streams transport (two replicas, real Redis)', () => {
  let redisServer: PrivateRedis;
  let redis: Redis;
  let prefix: string;
  const replicas: RunningProcess[] = [];
  const clients: RedisStreamsClient[] = [];

  const startReplica = async (name: string): Promise<RunningProcess> => {
    const replica = spawnNode(`replica-${name}`, FIXTURE, { REDIS_URL: redisServer.url, TRANSPORT_KEY_PREFIX: prefix, REPLICA: name, TRANSPORT_TEST_KEY: KEY.toString('base64') });
    replicas.push(replica);
    await waitFor(() => replica.output.includes(`replica ${name} listening`) || !replica.running, 20_000, `replica ${name}`);
    expect(replica.running).toBe(true);
    return replica;
  };
  const newClient = async (): Promise<RedisStreamsClient> => {
    const client = new RedisStreamsClient({ redisUrl: redisServer.url, keyPrefix: prefix, keys });
    await client.connect();
    clients.push(client);
    return client;
  };
  const handledCounts = async (): Promise<Record<string, string>> => redis.hgetall(`${prefix}:test:handled`);
  const replicaCounts = async (): Promise<Record<string, string>> => redis.hgetall(`${prefix}:test:replicas`);
  const handlingReplicas = async (): Promise<Record<string, string>> => redis.hgetall(`${prefix}:test:handled-by`);

  beforeAll(async () => {
    redisServer = await PrivateRedis.start();
    redis = new Redis(redisServer.url);
    redis.on('error', () => undefined);
  });

  beforeEach(async () => {
    prefix = uniquePrefix('transport');
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await Promise.all(replicas.splice(0).map((replica) => replica.stop('SIGKILL')));
  });

  afterAll(async () => {
    redis.disconnect();
    await redisServer.stop();
  });

  it('answers 2,000 requests from two clients, each handled by exactly one of two replicas', async () => {
    await Promise.all([startReplica('a'), startReplica('b')]);
    const [first, second] = await Promise.all([newClient(), newClient()]);
    const answers = await Promise.all(
      Array.from({ length: 2000 }, (_, n) => (n % 2 === 0 ? first : second).request('core.count', { payload: { n } })),
    );
    expect(answers.map((answer) => (answer as { n: number }).n)).toEqual(Array.from({ length: 2000 }, (_, n) => n));
    const handled = await handledCounts();
    expect(Object.keys(handled)).toHaveLength(2000);
    expect(Object.values(handled).every((count) => count === '1')).toBe(true);
    const perReplica = await replicaCounts();
    expect(Number(perReplica.a) + Number(perReplica.b)).toBe(2000);
    expect(Number(perReplica.a)).toBeGreaterThan(0);
    expect(Number(perReplica.b)).toBeGreaterThan(0);
  });

  it('never handles a request twice when a replica is killed mid-load, and the survivor takes over', async () => {
    const [victim] = await Promise.all([startReplica('victim'), startReplica('survivor')]);
    const client = await newClient();
    const calls = Array.from({ length: 600 }, (_, n) =>
      client.request('core.count', { payload: { n, delayMs: 20 } }, { timeoutMs: 4000 }).then(
        () => 'ok' as const,
        (error: AppError) => error.code,
      ),
    );
    await sleep(150);
    victim.child.kill('SIGKILL');
    const outcomes = await Promise.all(calls);
    // Requests the victim had started are lost with it (their callers get 504), never run again elsewhere.
    expect(outcomes.every((outcome) => outcome === 'ok' || outcome === 'GATEWAY_TIMEOUT')).toBe(true);
    const handled = await handledCounts();
    expect(Object.values(handled).every((count) => count === '1')).toBe(true);
    // Only requests the victim had already taken are lost; everything the survivor took was answered. (An entry is
    // acknowledged as its handler starts, so the victim may die between taking a request and recording it.)
    const handledBy = await handlingReplicas();
    const lost = outcomes.flatMap((outcome, n) => (outcome === 'ok' ? [] : [n]));
    expect(lost.filter((n) => handledBy[n] === 'survivor')).toEqual([]);
    const answered = 600 - lost.length;
    expect(answered).toBeGreaterThanOrEqual(Number((await replicaCounts()).survivor ?? 0));
    expect(answered).toBeGreaterThan(0);
    // After the kill every new request is served by the survivor.
    const after = await Promise.all(Array.from({ length: 50 }, (_, i) => client.request('core.count', { payload: { n: 10_000 + i } })));
    expect(after.every((answer) => (answer as { replica: string }).replica === 'survivor')).toBe(true);
    // The dead consumer is removed from the group once its pending entries are dealt with.
    await waitFor(async () => {
      const consumers = (await redis.xinfo('CONSUMERS', streamKey(prefix, 'core'), 'core')) as unknown[][];
      return consumers.length === 1;
    }, 5000, 'the dead consumer to leave the group');
  });

  it('reclaims entries left pending by a dead replica, running those within their deadline and dropping expired ones', async () => {
    // A replica that read three entries and died before acknowledging them, as a crash between read and ack leaves them:
    // one live, one whose deadline passes while it is pending, and a live sentinel after it in the stream.
    const stream = streamKey(prefix, 'core');
    await redis.xgroup('CREATE', stream, 'core', '0', 'MKSTREAM');
    const reply = `${prefix}:reply:nobody`;
    const entry = (n: number, deadline: number): string =>
      JSON.stringify({ i: String(n), p: 'core.count', r: reply, t: deadline, q: `req-${n}`, d: { payload: { n } } });
    const signed = (text: string): string[] => ['m', text, 's', keys.sign('core', `request ${stream}`, text)];
    await redis.xadd(stream, '*', ...signed(entry(1, Date.now() + 30_000)));
    await redis.xadd(stream, '*', ...signed(entry(2, Date.now() + 200)));
    await redis.xadd(stream, '*', ...signed(entry(3, Date.now() + 30_000)));
    await redis.xreadgroup('GROUP', 'core', 'crashed-replica', 'COUNT', 10, 'STREAMS', stream, '>');
    expect(await redis.exists(heartbeatKey(prefix, 'core', 'crashed-replica'))).toBe(0);
    // A replica claims entries only once they have been idle for its heartbeat TTL (800 ms for the fixture), so entry 2's
    // deadline has passed by the time they are claimed.
    await startReplica('survivor');
    await waitFor(async () => (await redis.xpending(stream, 'core'))[0] === 0, 10_000, 'pending entries to be reclaimed');
    // The claimed entries are taken in stream order, and a handler that runs records first, on the fixture's one Redis
    // connection: once the sentinel's record is there, entry 2's would be there too had it been run.
    await waitFor(async () => (await handledCounts())['3'] !== undefined, 5000, 'the sentinel entry to be handled');
    expect(await handledCounts()).toEqual({ '1': '1', '3': '1' });
  });

  it('fails calls within 1 s with 503 SERVICE_UNAVAILABLE while Redis is down, and recovers by itself when it returns', async () => {
    await startReplica('a');
    const client = await newClient();
    await expect(client.request('core.count', { payload: { n: 1 } })).resolves.toMatchObject({ n: 1 });
    await redisServer.stop();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const started = Date.now();
      await expect(client.request('core.count', { payload: { n: 2 } })).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
      expect(Date.now() - started).toBeLessThanOrEqual(1000);
    }
    await redisServer.start();
    redis.disconnect();
    redis = new Redis(redisServer.url);
    redis.on('error', () => undefined);
    const recovered = await waitFor(
      () => client.request('core.count', { payload: { n: 3 } }, { timeoutMs: 1000 }).then((answer) => answer, () => undefined),
      15_000,
      'calls to succeed again after Redis returned',
    );
    expect(recovered).toMatchObject({ n: 3 });
  });

  it('fails a call within 1 s with 503 when Redis hangs (frozen, connections open)', async () => {
    await startReplica('a');
    const client = await newClient();
    await expect(client.request('core.count', { payload: { n: 1 } })).resolves.toMatchObject({ n: 1 });
    redisServer.freeze();
    try {
      const started = Date.now();
      await expect(client.request('core.count', { payload: { n: 2 } })).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(Date.now() - started).toBeLessThanOrEqual(1100);
    } finally {
      redisServer.thaw();
    }
    await waitFor(() => client.request('core.count', { payload: { n: 3 } }).then(() => true, () => false), 10_000, 'recovery');
  });

  it('carries handler errors back as {code, message}, and unexpected ones as a generic 500 without details', async () => {
    await startReplica('a');
    const client = await newClient();
    await expect(client.request('core.fail', { payload: {} })).rejects.toMatchObject({
      code: 'PLAYER_NOT_FOUND',
      message: 'No player with id 42',
      status: 404,
    });
    const crash = client.request('core.crash', { payload: {} });
    await expect(crash).rejects.toMatchObject({ code: 'INTERNAL_ERROR', message: 'Internal server error', status: 500 });
    await expect(crash).rejects.toBeInstanceOf(AppError);
    await expect(client.request('core.unknown', { payload: {} })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('answers 504 GATEWAY_TIMEOUT past the deadline, and the service then drops the request without running it', async () => {
    const replica = await startReplica('a');
    const client = await newClient();
    replica.child.kill('SIGSTOP');
    try {
      const started = Date.now();
      await expect(client.request('core.count', { payload: { n: 7 } }, { timeoutMs: 300 })).rejects.toMatchObject({
        code: 'GATEWAY_TIMEOUT',
        status: 504,
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    } finally {
      replica.child.kill('SIGCONT');
    }
    await expect(client.request('core.count', { payload: { n: 8 } })).resolves.toMatchObject({ n: 8 });
    const handled = await handledCounts();
    expect(handled['7']).toBeUndefined();
    expect(handled['8']).toBe('1');
  });
});

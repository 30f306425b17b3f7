import { AppError } from '@game-wallet/contracts';
import { RunningProcess, TEST_REDIS_URL, deleteKeys, spawnNode, uniquePrefix, waitFor } from '@game-wallet/testing';
import { RedisStreamsClient, TransportKeyring, TransportKeys } from '@game-wallet/transport';
import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';

const KEY = randomBytes(32);
const FIXTURE = 'dist/out-tsc/libs/transport/test/fixtures/counting-service.js';

/** Arrays nested `depth` deep: more than JSON.stringify has stack for. */
const nested = (depth: number): unknown[] => {
  let value: unknown[] = [];
  for (let level = 0; level < depth; level += 1) {
    value = [value];
  }
  return value;
};

/**
 * One message that cannot be encoded fails alone: the other calls of its batch are answered, and both the caller's
 * process and the service's keep serving (the service replica runs in a process of its own).
 */
describe('transport, when one message cannot be encoded', () => {
  const prefix = uniquePrefix('transport-failures');
  let replica: RunningProcess;
  let client: RedisStreamsClient;

  beforeAll(async () => {
    replica = spawnNode('replica', FIXTURE, { REDIS_URL: TEST_REDIS_URL, TRANSPORT_KEY_PREFIX: prefix, REPLICA: 'a', TRANSPORT_TEST_KEY: KEY.toString('base64') });
    await waitFor(() => replica.output.includes('replica a listening') || !replica.running, 20_000, 'the replica');
    expect(replica.running).toBe(true);
    client = new RedisStreamsClient({ redisUrl: TEST_REDIS_URL, keyPrefix: prefix, keys: new TransportKeys('gateway', new Map([['core', new TransportKeyring(new Map([['test', KEY]]), 'test')]])) });
    await client.connect();
  });

  afterAll(async () => {
    await client.close();
    await replica.stop();
    await deleteKeys(prefix);
  });

  afterEach(() => jest.restoreAllMocks());

  it("fails only the request that cannot be encoded, as a 500 logged with its request id; the rest of its batch goes", async () => {
    const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    // Made in one turn of the event loop: without the failing ones, they would all travel in one stream entry.
    const calls = [
      client.request('core.echo', { payload: { n: 1 } }, { requestId: 'ok-1' }),
      client.request('core.echo', { payload: { n: 2n } }, { requestId: 'bigint-2' }),
      client.request('core.echo', { payload: { n: 3 } }, { requestId: 'ok-3' }),
      client.request('core.echo', { payload: { n: nested(100_000) } }, { requestId: 'deep-4' }),
      client.request('core.echo', { payload: { n: 5 } }, { requestId: 'ok-5' }),
    ];
    const outcomes = await Promise.allSettled(calls);
    expect(outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : outcome.reason))).toEqual([
      { n: 1, replica: 'a' },
      expect.objectContaining({ code: 'INTERNAL_ERROR', status: 500, message: 'Internal server error' }),
      { n: 3, replica: 'a' },
      expect.objectContaining({ code: 'INTERNAL_ERROR', status: 500, message: 'Internal server error' }),
      { n: 5, replica: 'a' },
    ]);
    expect(outcomes[1]).toMatchObject({ reason: expect.any(AppError) });
    const logged = errors.mock.calls.map(([line]) => String(line));
    expect(logged).toEqual([expect.stringContaining('(request bigint-2)'), expect.stringContaining('(request deep-4)')]);
    // The caller's process goes on: the next calls are answered.
    await expect(client.request('core.echo', { payload: { n: 6 } })).resolves.toEqual({ n: 6, replica: 'a' });
  });

  it('fails only the reply that cannot be encoded, as a 500 logged with its request id; the rest of its batch is delivered', async () => {
    // One stream entry; the echoes answer in the same turn as the deep one, so their replies share its reply batch.
    const calls = [
      client.request('core.echo', { payload: { n: 10 } }),
      client.request('core.deep', { payload: { depth: 100_000 } }, { requestId: 'deep-reply-11' }),
      client.request('core.echo', { payload: { n: 12 } }),
    ];
    const outcomes = await Promise.allSettled(calls);
    expect(outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : outcome.reason))).toEqual([
      { n: 10, replica: 'a' },
      expect.objectContaining({ code: 'INTERNAL_ERROR', status: 500, message: 'Internal server error' }),
      { n: 12, replica: 'a' },
    ]);
    await waitFor(() => /Could not encode the answer to core\.deep \(request deep-reply-11\): RangeError/.test(replica.output), 5000, 'the log line');
    // The service's process goes on: it is still running and answers the next calls.
    expect(replica.running).toBe(true);
    await expect(client.request('core.echo', { payload: { n: 13 } })).resolves.toEqual({ n: 13, replica: 'a' });
    await expect(client.request('core.deep', { payload: { depth: 3 } })).resolves.toEqual([[[[]]]]);
  });
});

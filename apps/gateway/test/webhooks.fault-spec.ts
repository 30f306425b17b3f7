import { CreatedWebhookEndpointView, PlayerView, WebhookDeliveryView } from '@game-wallet/contracts';
import {
  GameFixture,
  ReceivedWebhook,
  RunningProcess,
  TestPlatform,
  WebhookReceiver,
  consoleToken,
  createGame,
  createPlayer,
  http,
  queryOnce,
  senderOf,
  steppedUpCall,
  waitFor,
} from '@game-wallet/testing';
import { setTimeout as sleep } from 'node:timers/promises';

/** The events whose arrival the suite counts: one per completed player, one per signature. */
const COUNTED = ['player.created', 'wallet.signed'];

/**
 * A lost delivery job is taken again once it has expired (30 s after it started), at the next pg-boss maintenance
 * (every 10 s, by whichever replica's turn comes first: up to 20 s apart when one replica is left), after the queue's
 * retry delay (5 s) and a worker's poll (0.5 s): 55.5 s on an idle machine, and every event arrives within this of the
 * kill on a machine as busy as CI's (the suite prints the last arrival it measured).
 */
const LOST_JOB_BOUND_MS = 80_000;

/** How much later than its sender's death the receiver (in this busy test process) may read a request written before it. */
const READ_LATE_MS = 2_000;

/**
 * Events and their webhooks under process faults: events committed while they could not be relayed survive a SIGKILL
 * of the service that made them; two dispatcher replicas deliver each event once; a replica SIGKILLed mid-stream loses
 * no event (the jobs it held are taken by the other once they expire).
 */
describe('webhooks under faults', () => {
  let platform: TestPlatform;
  let token: string;
  const receivers: WebhookReceiver[] = [];

  const api = <T>(method: string, path: string, body?: unknown) => http<T>(method, `${platform.baseUrl}/v1/console${path}`, { bearer: token, body });
  const count = async (sql: string, parameters: unknown[]): Promise<number> => (await queryOnce<{ n: number }>(platform.databaseUrl, sql, parameters))[0].n;
  const outboxed = (schema: 'identity' | 'wallet' | 'core', gameId: string): Promise<number> =>
    count(`SELECT count(*)::int AS n FROM ${schema}.outbox WHERE game_id = $1`, [gameId]);

  interface Subscribed {
    game: GameFixture;
    hooks: WebhookReceiver;
    endpoint: CreatedWebhookEndpointView;
  }

  /** A new game with an endpoint on a new receiver, subscribed to every event, once its test event has arrived. */
  async function subscribedGame(name: string): Promise<Subscribed> {
    const game = await createGame(platform, token, name);
    const hooks = await WebhookReceiver.start();
    receivers.push(hooks);
    const endpoint = await api<CreatedWebhookEndpointView>('POST', `/games/${game.gameId}/webhooks`, { url: hooks.url(), eventTypes: ['*'] });
    expect(endpoint.status).toBe(201);
    hooks.secrets = [endpoint.body.secret];
    const test = await api<WebhookDeliveryView>('POST', `/games/${game.gameId}/webhooks/${endpoint.body.id}/test`);
    await waitFor(() => hooks.of(test.body.eventId)[0], 15_000, 'the test event');
    return { game, hooks, endpoint: endpoint.body };
  }

  /** Runs `task(0…count-1)`, `width` at a time. */
  async function inParallel<T>(count: number, width: number, task: (index: number) => Promise<T>): Promise<T[]> {
    const results: T[] = new Array<T>(count);
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < count) {
        const index = next;
        next += 1;
        results[index] = await task(index);
      }
    };
    await Promise.all(Array.from({ length: Math.min(width, count) }, lane));
    return results;
  }

  const players = (game: GameFixture, label: string, count: number): Promise<PlayerView[]> =>
    inParallel(count, 10, (index) => createPlayer(platform, game.key, `${label}-${index}`));

  async function sign(game: GameFixture, walletId: string, message: string): Promise<void> {
    const answer = await http('POST', `${platform.baseUrl}/v1/wallet/${walletId}/sign`, { apiKey: game.key, body: { chain: 'evm', message } });
    expect([message, answer.status]).toEqual([message, 200]);
  }

  /** What the database says the game's counted events are: one per ready player, one per signature. */
  async function expectedEvents(gameId: string): Promise<string[]> {
    const rows = await queryOnce<{ key: string }>(
      platform.databaseUrl,
      `SELECT 'player.created:' || id AS key FROM core.players WHERE application_id = $1 AND status = 'ready'
       UNION ALL SELECT 'wallet.signed:' || id FROM wallet.signature_events WHERE application_id = $1 AND decision = 'allowed'`,
      [gameId],
    );
    return rows.map((row) => row.key).sort();
  }

  /** The counted requests the receiver got for the game. */
  const countedRequests = (hooks: WebhookReceiver, gameId: string): ReceivedWebhook[] =>
    hooks.received.filter((request) => request.event.gameId === gameId && COUNTED.includes(request.event.type));

  /** The change each counted event is about (`wallet.signed:<signature id>`), one per event id however often it came. */
  function eventsReceived(hooks: WebhookReceiver, gameId: string): string[] {
    const byId = new Map(countedRequests(hooks, gameId).map((request) => [request.id, request.event]));
    return [...byId.values()].map((event) => `${event.type}:${String(event.type === 'player.created' ? event.data.playerId : event.data.auditId)}`).sort();
  }

  /** The event ids that came more than once, with how many times. */
  function repeated(hooks: WebhookReceiver, gameId: string): Record<string, number> {
    const times = new Map<string, number>();
    for (const request of countedRequests(hooks, gameId)) {
      times.set(request.id, (times.get(request.id) ?? 0) + 1);
    }
    return Object.fromEntries([...times].filter(([, n]) => n > 1));
  }

  /** Waits until every counted event of the game in the database has come at least once; answers them. */
  async function allArrive(subscribed: Subscribed, timeoutMs: number): Promise<string[]> {
    const expected = await expectedEvents(subscribed.game.gameId);
    await waitFor(() => eventsReceived(subscribed.hooks, subscribed.game.gameId).length >= expected.length, timeoutMs, `${expected.length} events`, 100);
    expect(eventsReceived(subscribed.hooks, subscribed.game.gameId)).toEqual(expected);
    return expected;
  }

  interface DeliveryState {
    type: string;
    status: string;
    attempts: number;
    deliveries: number;
  }

  /**
   * The endpoint's deliveries of counted events by type, status and attempts, once there are `total` of them and none
   * is pending (or after `timeoutMs`).
   */
  async function deliveryStates(endpointId: string, total: number, timeoutMs: number): Promise<DeliveryState[]> {
    const states = (): Promise<DeliveryState[]> =>
      queryOnce<DeliveryState & Record<string, unknown>>(
        platform.databaseUrl,
        `SELECT e.type, d.status, d.attempts, count(*)::int AS deliveries
         FROM identity.webhook_deliveries d JOIN identity.webhook_events e ON e.id = d.event_id
         WHERE d.endpoint_id = $1 AND e.type = ANY($2) GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
        [endpointId, COUNTED],
      );
    const settled = (found: DeliveryState[]): boolean =>
      found.reduce((sum, state) => sum + state.deliveries, 0) >= total && found.every((state) => state.status !== 'pending');
    await waitFor(async () => settled(await states()), timeoutMs, 'every delivery made and ended', 200).catch(() => undefined);
    return states();
  }

  /** `expected` (`type:id` strings) as the states of deliveries made once and succeeded at the first attempt. */
  function firstTimeSuccesses(expected: string[]): DeliveryState[] {
    return COUNTED.map((type) => ({ type, status: 'succeeded', attempts: 1, deliveries: expected.filter((key) => key.startsWith(`${type}:`)).length })).filter(
      (state) => state.deliveries > 0,
    );
  }

  /**
   * Each counted event delivered once: its one delivery succeeded at the first attempt, and, after a sentinel (a test
   * event made after all of them) has arrived, the receiver got one request per event id.
   */
  async function deliveredOnce({ game, hooks, endpoint }: Subscribed, expected: string[]): Promise<void> {
    expect(await deliveryStates(endpoint.id, expected.length, 15_000)).toEqual(firstTimeSuccesses(expected));
    const sentinel = await api<WebhookDeliveryView>('POST', `/games/${game.gameId}/webhooks/${endpoint.id}/test`);
    await waitFor(() => hooks.of(sentinel.body.eventId)[0], 15_000, 'the sentinel');
    expect(repeated(hooks, game.gameId)).toEqual({});
    expect(countedRequests(hooks, game.gameId)).toHaveLength(expected.length);
  }

  /**
   * Identity stores no event of `gameId` (a trigger the test adds makes each insert into webhook_events fail), while
   * it answers everything else: player creation needs identity, so its outage alone cannot hold core's events back.
   */
  async function refuseEvents(gameId: string): Promise<void> {
    await queryOnce(platform.databaseUrl, `CREATE OR REPLACE FUNCTION public.fault_refuse_events() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'the fault test refuses events of this game'; END $$`);
    await queryOnce(platform.databaseUrl, `CREATE TRIGGER fault_refuse_events BEFORE INSERT ON identity.webhook_events FOR EACH ROW
      WHEN (NEW.application_id = '${gameId}') EXECUTE FUNCTION public.fault_refuse_events()`);
  }

  const acceptEvents = (): Promise<unknown> => queryOnce(platform.databaseUrl, `DROP TRIGGER IF EXISTS fault_refuse_events ON identity.webhook_events`);

  const occurrences = (process: RunningProcess, text: string): number => process.lines.filter((line) => line.includes(text)).length;

  async function kill(name: string): Promise<void> {
    await platform.process(name).stop('SIGKILL');
    expect([name, platform.process(name).ending]).toEqual([name, 'SIGKILL']);
  }

  /** Runs identity with one replica or two (`identity#2`). */
  async function identityReplicas(replicas: 1 | 2): Promise<void> {
    const second = platform.processes.get('identity#2');
    if (replicas === 2 && second?.running !== true) {
      await (second ? platform.restartApp('identity#2') : platform.startReplica('identity', 'identity#2'));
    }
    if (replicas === 1 && second?.running === true) {
      await second.stop();
    }
  }

  /** Which identity replica sent each request (looked up while its connection is open), answering after `delayMs`. */
  function recordSenders(hooks: WebhookReceiver, delayMs = 0): Map<ReceivedWebhook, string | undefined> {
    const senders = new Map<ReceivedWebhook, string | undefined>();
    hooks.answer = (request) => {
      const identities = new Map([...platform.processes].filter(([name]) => name.startsWith('identity')));
      senders.set(request, senderOf(request, hooks.port, identities));
      return { status: 200, body: 'ok', delayMs };
    };
    return senders;
  }

  beforeAll(async () => {
    platform = await TestPlatform.start('webhookfaults', {
      env: { RATE_LIMIT_API_KEY_RPS: '100000', RATE_LIMIT_API_KEY_BURST: '100000', RATE_LIMIT_SIGN_PER_WALLET_RPS: '100000' },
    });
    token = await consoleToken(platform);
  });

  afterAll(async () => {
    await Promise.all(receivers.map((receiver) => receiver.stop()));
    await platform?.stop();
  });

  afterEach(async () => {
    await acceptEvents();
  });

  it('delivers each event the wallet and core committed while they could not relay it, once, after both were SIGKILLed and restarted', async () => {
    await identityReplicas(1);
    const subscribed = await subscribedGame('faults-producers');
    const { game, hooks } = subscribed;
    const [first, second] = await players(game, 'before', 2);
    // Delivered and recorded before identity goes: an attempt it dies in would come again only after its job expired.
    expect(await deliveryStates(subscribed.endpoint.id, 2, 15_000)).toEqual([{ type: 'player.created', status: 'succeeded', attempts: 1, deliveries: 2 }]);
    const failuresBefore = { core: occurrences(platform.process('core'), 'Relaying events failed'), wallet: occurrences(platform.process('wallet'), 'Relaying events failed') };

    // Identity down: the wallet signs (the gateway knows the key from its cache) and its relay cannot hand the events over.
    await kill('identity');
    await inParallel(20, 5, (index) => sign(game, index % 2 === 0 ? first.walletId : second.walletId, `during the outage ${index}`));
    expect(await outboxed('wallet', game.gameId)).toBe(20);

    // Identity back but storing none of the game's events: players are made and signatures too, and both relays fail.
    await refuseEvents(game.gameId);
    await platform.restartApp('identity');
    const made = await players(game, 'refused', 10);
    await inParallel(10, 5, (index) => sign(game, made[index].walletId, `refused ${index}`));
    expect([await outboxed('core', game.gameId), await outboxed('wallet', game.gameId)]).toEqual([10, 30]);
    await waitFor(
      () => occurrences(platform.process('core'), 'Relaying events failed') > failuresBefore.core && occurrences(platform.process('wallet'), 'Relaying events failed') > failuresBefore.wallet,
      5_000,
      'both relays failing',
    );
    expect(countedRequests(hooks, game.gameId).map((request) => request.event.type)).toEqual(['player.created', 'player.created']);

    await Promise.all([kill('core'), kill('wallet')]);
    expect([await outboxed('core', game.gameId), await outboxed('wallet', game.gameId)]).toEqual([10, 30]);
    await acceptEvents();
    await Promise.all([platform.restartApp('core'), platform.restartApp('wallet')]);

    const expected = await allArrive(subscribed, 30_000);
    expect(expected).toHaveLength(12 + 30);
    await waitFor(async () => (await outboxed('core', game.gameId)) + (await outboxed('wallet', game.gameId)) === 0, 10_000, 'empty outboxes');
    await deliveredOnce(subscribed, expected);
  }, 150_000);

  it('delivers an operator action identity committed and was SIGKILLed before relaying, and one it was SIGKILLed right after', async () => {
    await identityReplicas(1);
    const { game, hooks, endpoint } = await subscribedGame('faults-identity');
    const createKey = async (name: string): Promise<string> => {
      const created = await steppedUpCall<{ id: string }>(platform, token, 'POST', `${platform.baseUrl}/v1/console/games/${game.gameId}/api-keys`, { name });
      expect(created.status).toBe(201);
      return created.body.id;
    };
    const keyCreated = (keyId: string): ReceivedWebhook[] => hooks.ofType('api_key.created').filter((request) => request.event.data.keyId === keyId);

    // Held in identity's outbox (the dispatcher cannot store it), then identity SIGKILLed.
    await refuseEvents(game.gameId);
    const failuresBefore = occurrences(platform.process('identity'), 'Relaying events failed');
    const held = await createKey('held key');
    expect(await outboxed('identity', game.gameId)).toBe(1);
    await waitFor(() => occurrences(platform.process('identity'), 'Relaying events failed') > failuresBefore, 5_000, 'identity\'s relay failing');
    await kill('identity');
    expect(await outboxed('identity', game.gameId)).toBe(1);
    await acceptEvents();
    await platform.restartApp('identity');
    await waitFor(() => keyCreated(held)[0], 15_000, 'the held api_key.created');
    expect(await outboxed('identity', game.gameId)).toBe(0);

    // SIGKILLed the moment the console call answers: the event is in the outbox or was relayed; it arrives either way.
    const sudden = await createKey('sudden key');
    await kill('identity');
    const [where] = await queryOnce<{ outbox: number; relayed: number }>(
      platform.databaseUrl,
      `SELECT (SELECT count(*)::int FROM identity.outbox WHERE type = 'api_key.created' AND data->>'keyId' = $1) AS outbox,
              (SELECT count(*)::int FROM identity.webhook_events WHERE type = 'api_key.created' AND data->>'keyId' = $1) AS relayed`,
      [sudden],
    );
    expect(where.outbox + where.relayed).toBe(1);
    await platform.restartApp('identity');
    // A delivery the kill interrupted mid-attempt is taken again once its job expires.
    await waitFor(() => keyCreated(sudden)[0], LOST_JOB_BOUND_MS, 'the sudden api_key.created');
    expect(keyCreated(held)).toHaveLength(1);
    const [delivery] = await queryOnce<{ n: number }>(
      platform.databaseUrl,
      `SELECT count(*)::int AS n FROM identity.webhook_deliveries d JOIN identity.webhook_events e ON e.id = d.event_id
       WHERE d.endpoint_id = $1 AND e.type = 'api_key.created' AND e.data->>'keyId' = $2`,
      [endpoint.id, sudden],
    );
    expect(delivery.n).toBe(1);
    process.stdout.write(`identity SIGKILLed after the answer: event ${where.outbox === 1 ? 'still in the outbox' : 'already relayed'}, delivered ${keyCreated(sudden).length} time(s)\n`);
  }, 150_000);

  it('delivers each of 250 events exactly once with two dispatcher replicas, both of them delivering', async () => {
    await identityReplicas(2);
    const subscribed = await subscribedGame('faults-burst');
    const { game, hooks } = subscribed;
    const senders = recordSenders(hooks);
    const made = await players(game, 'burst', 50);
    await inParallel(200, 20, (index) => sign(game, made[index % 50].walletId, `burst ${index}`));

    const expected = await allArrive(subscribed, 60_000);
    expect(expected).toHaveLength(250);
    await deliveredOnce(subscribed, expected);
    const perReplica: Record<string, number> = {};
    for (const request of countedRequests(hooks, game.gameId)) {
      const sender = senders.get(request) ?? 'unknown';
      perReplica[sender] = (perReplica[sender] ?? 0) + 1;
    }
    expect(Object.keys(perReplica).sort()).toEqual(['identity', 'identity#2']);
    process.stdout.write(`two replicas: ${JSON.stringify(perReplica)}\n`);
  }, 120_000);

  it(`delivers every event of a steady stream while one of two replicas is SIGKILLed mid-stream, within ${LOST_JOB_BOUND_MS / 1000} s of the kill`, async () => {
    await identityReplicas(2);
    const subscribed = await subscribedGame('faults-stream');
    const { game, hooks } = subscribed;
    // A receiver that answers after 300 ms: the replica dies with attempts in flight.
    const senders = recordSenders(hooks, 300);
    const made = await players(game, 'stream', 8);
    let streaming = true;
    let signed = 0;
    const stream = inParallel(8, 8, async (lane) => {
      for (let round = 0; streaming; round += 1) {
        await sign(game, made[lane].walletId, `stream ${lane}-${round}`);
        signed += 1;
        await sleep(100);
      }
    });
    await waitFor(() => [...senders.values()].filter((sender) => sender === 'identity#2').length >= 10, 15_000, 'identity#2 delivering');
    const killedAt = Date.now();
    await kill('identity#2');
    const deadAt = Date.now();
    const signedAtKill = signed;
    await waitFor(() => signed >= signedAtKill + 100, 20_000, '100 signatures after the kill');
    streaming = false;
    await stream;

    const expected = await allArrive(subscribed, killedAt + LOST_JOB_BOUND_MS - Date.now());
    // Each delivery ends succeeded; one whose attempt died with identity#2 only once its job was taken again.
    expect(await deliveryStates(subscribed.endpoint.id, expected.length, killedAt + LOST_JOB_BOUND_MS - Date.now())).toEqual(firstTimeSuccesses(expected));
    const lastArrival = Math.max(...countedRequests(hooks, game.gameId).map((request) => request.at));
    // A repeat is an attempt identity#2 sent and never recorded: the same event again, from identity, once its job
    // expired. (A request that came as it died may have no sender left to find: its connection closed with it. One it
    // wrote just before it died may be read here a little after: this process runs the receiver beside the test.)
    const repeats = repeated(hooks, game.gameId);
    for (const eventId of Object.keys(repeats)) {
      const [firstTry, ...again] = hooks.of(eventId);
      expect([eventId, senders.get(firstTry) !== 'identity', firstTry.at <= deadAt + READ_LATE_MS]).toEqual([eventId, true, true]);
      expect(again.map((request) => [request.at - firstTry.at >= 30_000, senders.get(request)])).toEqual(again.map(() => [true, 'identity']));
    }
    const readLate = Math.max(0, ...Object.keys(repeats).map((eventId) => hooks.of(eventId)[0].at - deadAt));
    process.stdout.write(
      `replica SIGKILLed mid-stream: ${expected.length} events, ${Object.keys(repeats).length} delivered twice (first tries read up to ${readLate} ms after the kill returned), last arrival ${((lastArrival - killedAt) / 1000).toFixed(1)} s after the kill\n`,
    );
  }, 150_000);
});

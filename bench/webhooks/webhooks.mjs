// The `webhooks` scenarios: player creation and signing in a game with one webhook endpoint subscribed to every event
// (`["*"]`), paired with the same route in a second game of the same platform with no endpoint. The endpoint is a
// receiver in a process of its own (bench/webhooks/receiver.cjs). After each side with the endpoint, the backlog
// (events committed and not yet received) is read at once and the deliveries are then let drain before the next side,
// so no side pays for the one before it. After every pair, each event the games' changes made is checked against
// what the receiver got, and the delay from each change to its delivery is computed.
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { json, measure, median, pairedRounds } from '../lib/platform.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('pg');

/** The scenarios of the set, by name: the route, and for signing the chain. */
export const WEBHOOK_SCENARIOS = {
  'player-create-webhooks': { route: 'create' },
  'sign-evm-webhooks': { route: 'sign', chain: 'evm' },
  'sign-sol-webhooks': { route: 'sign', chain: 'sol' },
};

/** The rate of the capped evm signing run: below the ~128 deliveries/s the dispatcher drains a backlog at when idle. */
const CAPPED_RATE = 100;

/** How long the deliveries of one side may take to drain before the benchmark goes on without them. */
const DRAIN_LIMIT_MS = 180_000;

/** The event types the routes make, and which of the platform's rows each one tells of. */
const SUBJECT_TYPES = new Set(['player.created', 'wallet.signed', 'wallet.signing_denied']);

/** p50, p95, p99 and max (ms) of `values`, and their count. */
function percentiles(values) {
  const sorted = [...values].sort((x, y) => x - y);
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  return sorted.length === 0 ? { count: 0 } : { count: sorted.length, p50: at(50), p95: at(95), p99: at(99), max: sorted[sorted.length - 1] };
}

/**
 * Runs the pairs of `names` (keys of {@link WEBHOOK_SCENARIOS}) on `platform`; `record(name, result)` is awaited after
 * each scenario (results are saved as they come). Resolves with the delivery check and the delays.
 */
export async function webhookScenarios(platform, names, { rounds, duration, warmup, pairedResult, record }) {
  const receiverPort = await platform.fork('bench/webhooks/receiver.cjs');
  const receiver = `http://127.0.0.1:${receiverPort}`;
  const hooked = await platform.game();
  const plain = await platform.game();
  const endpoint = await json('POST', `${platform.baseUrl}/v1/console/games/${hooked.gameId}/webhooks`, { url: `${receiver}/hooks`, eventTypes: ['*'] }, { authorization: `Bearer ${hooked.operatorToken}` });
  if (typeof endpoint.secret !== 'string') {
    throw new Error(`the webhook endpoint was not created: ${JSON.stringify(endpoint)}`);
  }
  await fetch(`${receiver}/control/secret`, { method: 'POST', body: JSON.stringify({ secret: endpoint.secret }) });
  const signers = {
    hooked: await json('POST', `${platform.coreUrl}/v1/player/create`, { uniqueId: 'bench-webhooks-signer' }, { 'x-api-key': hooked.key }),
    plain: await json('POST', `${platform.coreUrl}/v1/player/create`, { uniqueId: 'bench-webhooks-signer' }, { 'x-api-key': plain.key }),
  };
  const database = new Client({ connectionString: platform.env.DATABASE_URL });
  await database.connect();
  const count = async (sql) => Number((await database.query(sql, [hooked.gameId])).rows[0].count);
  const receivedCount = async () => (await json('GET', `${receiver}/control/count`)).requests;

  /**
   * What the hooked game's changes made and the receiver has not got yet. Read in this order, an event is in an outbox,
   * or (the relay's transaction commits after identity's) in identity's pending deliveries, or received; and the rows
   * are counted after the receiver, so a request still in flight when the load stopped counts as not received.
   */
  const backlog = async () => {
    const outbox = await count(
      `SELECT (SELECT count(*) FROM core.outbox WHERE game_id = $1) + (SELECT count(*) FROM wallet.outbox WHERE game_id = $1) + (SELECT count(*) FROM identity.outbox WHERE game_id = $1) AS count`,
    );
    const pending = await count(`SELECT count(*) FROM identity.webhook_deliveries d JOIN identity.webhook_endpoints w ON w.id = d.endpoint_id WHERE w.application_id = $1 AND d.status = 'pending'`);
    const received = await receivedCount();
    const expected = (await count(`SELECT count(*) FROM core.players WHERE application_id = $1 AND status = 'ready'`)) + (await count(`SELECT count(*) FROM wallet.signature_events WHERE application_id = $1`));
    return { expected, received, notReceived: expected - received, outbox, pending };
  };
  /** Waits until nothing of the hooked game is left to deliver; answers how long it took (ms) and whether it did. */
  const drain = async () => {
    const started = Date.now();
    for (;;) {
      const left = await backlog();
      if (left.outbox === 0 && left.pending === 0 && left.notReceived <= 0) {
        return { drainMs: Date.now() - started, drained: true };
      }
      if (Date.now() - started > DRAIN_LIMIT_MS) {
        console.log(`webhooks: not drained after ${DRAIN_LIMIT_MS / 1000} s: ${JSON.stringify(left)}`);
        return { drainMs: Date.now() - started, drained: false };
      }
      await sleep(100);
    }
  };
  const deliveredBetween = async (from, to) => (await json('GET', `${receiver}/control/count?from=${from}&to=${to}`)).between;

  const routeOptions = (scenario, game, signer) => {
    const headers = { 'x-api-key': game.key, 'content-type': 'application/json' };
    if (scenario.route === 'create') {
      return {
        url: `${platform.coreUrl}/v1/player/create`,
        requests: [{ method: 'POST', headers, setupRequest: (request) => ({ ...request, body: JSON.stringify({ uniqueId: `bench-${randomBytes(8).toString('hex')}` }) }) }],
      };
    }
    return { url: `${platform.baseUrl}/v1/wallet/${signer.walletId}/sign`, method: 'POST', headers, body: JSON.stringify({ chain: scenario.chain, message: 'bench message' }) };
  };

  try {
    await drain();
    for (const name of names) {
      console.log(`--- ${name}`);
      const scenario = WEBHOOK_SCENARIOS[name];
      const label = scenario.route === 'create' ? 'POST /v1/player/create' : `POST /v1/wallet/{id}/sign, ${scenario.chain}`;
      const plainSide = {
        name: `${label}, no endpoint`,
        run: async (round) => measure(`${label}, no endpoint, round ${round}`, routeOptions(scenario, plain, signers.plain), duration, warmup),
      };
      const hookedSide = {
        name: `${label}, one endpoint of every event`,
        run: async (round) => {
          const row = await measure(`${label}, one endpoint of every event, round ${round}`, routeOptions(scenario, hooked, signers.hooked), duration, warmup);
          const atEnd = await backlog();
          const delivered = await deliveredBetween(row.startedAt, row.endedAt);
          const deliveredPerSecond = Math.round(delivered / ((row.endedAt - row.startedAt) / 1000));
          const drained = await drain();
          console.log(`  delivered ${deliveredPerSecond}/s during the run; backlog at its end ${atEnd.notReceived} (${atEnd.outbox} in outboxes, ${atEnd.pending} pending deliveries); drained in ${drained.drainMs} ms`);
          return { ...row, deliveredPerSecond, backlog: atEnd, ...drained };
        },
      };
      const measured = await pairedRounds(plainSide, hookedSide, { rounds, duration, warmup });
      const sides = measured.pairs.map((pair) => pair.b);
      const middle = measured.median.b;
      await record(name, {
        ...pairedResult(`${label}, one webhook endpoint of every event`, 'the same, a game with no endpoint', measured),
        delivery: {
          /** in the median pair: deliveries received per second while the route ran, and what was left at its end */
          perSecond: middle.deliveredPerSecond,
          sustainedRatio: Math.min(middle.rps, middle.deliveredPerSecond) / measured.median.a.rps,
          backlog: middle.backlog,
          drainMs: middle.drainMs,
          medianPerSecond: median(sides.map((side) => side.deliveredPerSecond)),
          maxBacklog: Math.max(...sides.map((side) => side.backlog.notReceived)),
          undrained: sides.filter((side) => !side.drained).length,
          pairs: sides.map((side) => ({ rps: side.rps, deliveredPerSecond: side.deliveredPerSecond, backlog: side.backlog.notReceived, outbox: side.backlog.outbox, pending: side.backlog.pending, drainMs: side.drainMs })),
        },
      });
    }
    // The delay when deliveries keep up: evm signing in the hooked game capped below the rate the dispatcher drained at.
    let capped;
    if (names.includes('sign-evm-webhooks')) {
      const from = Date.now();
      const row = await measure(`POST /v1/wallet/{id}/sign, evm, one endpoint of every event, at ${CAPPED_RATE} req/s`, { ...routeOptions(WEBHOOK_SCENARIOS['sign-evm-webhooks'], hooked, signers.hooked), overallRate: CAPPED_RATE }, duration, warmup);
      const atEnd = await backlog();
      const delivered = await deliveredBetween(row.startedAt, row.endedAt);
      capped = { rate: CAPPED_RATE, rps: row.rps, p99: row.p99, deliveredPerSecond: Math.round(delivered / ((row.endedAt - row.startedAt) / 1000)), backlog: atEnd, from, to: Date.now(), cpuMicrosPerRequest: row.cpuMicrosPerRequest };
      capped = { ...capped, ...(await drain()) };
    }
    // Late duplicates (a retry after an attempt taken for failed) would come after the drain: wait a little for them.
    await sleep(3_000);
    return await check({ database, receiver, hooked, plain, endpoint, capped });
  } finally {
    await database.end();
  }
}

/**
 * Every event of the hooked game's players and signing attempts, from the platform's own tables, against what the
 * receiver got (by `webhook-id`, and by the player or audit entry each event names), and the delay from each change to
 * its first delivery.
 */
async function check({ database, receiver, hooked, plain, endpoint, capped }) {
  const { records, unsigned } = await json('GET', `${receiver}/control/records`);
  const rowsOf = async (sql, gameId) => (await database.query(sql, [gameId])).rows;
  const players = await rowsOf(`SELECT id FROM core.players WHERE application_id = $1 AND status = 'ready'`, hooked.gameId);
  const signatures = await rowsOf(`SELECT id, chain FROM wallet.signature_events WHERE application_id = $1`, hooked.gameId);
  const plainEvents = {
    players: Number((await rowsOf(`SELECT count(*) FROM core.players WHERE application_id = $1 AND status = 'ready'`, plain.gameId))[0].count),
    signatures: Number((await rowsOf(`SELECT count(*) FROM wallet.signature_events WHERE application_id = $1`, plain.gameId))[0].count),
    stored: Number((await rowsOf(`SELECT count(*) FROM identity.webhook_events WHERE application_id = $1`, plain.gameId))[0].count),
  };

  const byId = new Map();
  for (const [id, type, gameId, subject, chain, occurredAt, receivedAt, verified, reference] of records) {
    const first = byId.get(id);
    if (first === undefined) {
      byId.set(id, { type, gameId, subject, chain, occurredAt, receivedAt, requests: 1, verified, reference });
    } else {
      first.requests += 1;
    }
  }
  const events = [...byId.values()];
  const ofGame = events.filter((event) => event.gameId === hooked.gameId);
  const subjects = ofGame.filter((event) => SUBJECT_TYPES.has(event.type));
  /** Rows of the platform against the events received of them: how many, missing, not of a row, named twice. */
  const compare = (ids, received) => {
    const expected = new Set(ids);
    const got = new Map();
    for (const event of received) got.set(event.subject, (got.get(event.subject) ?? 0) + 1);
    return {
      expected: expected.size,
      received: received.length,
      missing: [...expected].filter((id) => !got.has(id)).length,
      unexpected: [...got.keys()].filter((id) => !expected.has(id)).length,
      namedTwice: [...got.values()].filter((times) => times > 1).length,
    };
  };
  const signed = subjects.filter((event) => event.type !== 'player.created');
  const byChain = Object.fromEntries(['evm', 'sol', 'sui'].map((chain) => [chain, compare(signatures.filter((row) => row.chain === chain).map((row) => row.id), signed.filter((event) => event.chain === chain))]));
  const delay = (selected) => percentiles(selected.map((event) => event.receivedAt - event.occurredAt));
  // The capped run's events count apart: the other rows are the delay at the benchmark's rate.
  const inCapped = (event) => capped !== undefined && event.occurredAt >= capped.from && event.occurredAt <= capped.to;
  const atRate = subjects.filter((event) => !inCapped(event));
  const signedAtRate = atRate.filter((event) => event.type !== 'player.created');
  const otherTypes = {};
  for (const event of ofGame.filter((candidate) => !SUBJECT_TYPES.has(candidate.type))) otherTypes[event.type] = (otherTypes[event.type] ?? 0) + 1;
  return {
    endpointId: endpoint.id,
    requests: records.length,
    distinctIds: byId.size,
    duplicatedIds: events.filter((event) => event.requests > 1).length,
    unsigned,
    verified: records.filter((row) => row[7] === 1).length,
    referenceChecked: records.filter((row) => row[8] !== 0).length,
    referenceFailed: records.filter((row) => row[8] === -1).length,
    ofOtherGames: events.length - ofGame.length,
    otherTypes,
    players: compare(players.map((row) => row.id), subjects.filter((event) => event.type === 'player.created')),
    signatures: { ...compare(signatures.map((row) => row.id), signed), byChain },
    plain: plainEvents,
    delayMs: {
      all: delay(atRate),
      'player-create-webhooks': delay(atRate.filter((event) => event.type === 'player.created')),
      'sign-evm-webhooks': delay(signedAtRate.filter((event) => event.chain === 'evm')),
      'sign-sol-webhooks': delay(signedAtRate.filter((event) => event.chain === 'sol')),
    },
    ...(capped ? { capped: { ...capped, delayMs: delay(subjects.filter(inCapped)) } } : {}),
  };
}

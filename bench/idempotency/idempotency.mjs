// The `idempotency` scenarios. Throughput: evm `/sign` and player creation with a new `Idempotency-Key` on every
// request, each paired with the same route sent without one (same game, same platform). Counts (`idempotency-count`):
// a second platform on a Redis and a PostgreSQL of the benchmark's own, where nothing else runs, and the commands and
// statements the whole platform issues for N writes sent one at a time, without a key, with a new key each, and again
// with those keys (replays): Redis from `INFO commandstats`, PostgreSQL from `pg_stat_statements` (loaded in that
// cluster only), less what the platform does when idle over the same time.
import { createRequire } from 'node:module';
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { json, measure, pairedRounds, root, startPlatform } from '../lib/platform.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('pg');
const Redis = require('ioredis');

/** The throughput scenarios of the set, by name. */
export const IDEMPOTENCY_SCENARIOS = {
  'idempotent-sign-evm': { route: 'sign' },
  'idempotent-player-create': { route: 'create' },
};
export const IDEMPOTENCY_COUNT = 'idempotency-count';

/** Writes per counted batch, by route; each batch is sent one request at a time. */
const COUNT_WRITES = { sign: 300, create: 200, game: 100 };
/** Flipped rounds of the counted batches (plain and keyed, then the keyed batch's replays). */
const COUNT_ROUNDS = 2;
/** After a batch, how long its asynchronous tail (outbox relays, last-use flushes) is left to land in its counts. */
const SETTLE_MS = 1500;
const IDLE_MS = 10_000;

/**
 * Runs the throughput pairs of `names` (keys of {@link IDEMPOTENCY_SCENARIOS}) on `platform`; `record(name, result)`
 * is awaited after each. Resolves with how many keyed requests were built and how many answers the gateway kept.
 */
export async function idempotencyScenarios(platform, names, { rounds, duration, warmup, pairedResult, record }) {
  const game = await platform.game();
  const signer = await json('POST', `${platform.coreUrl}/v1/player/create`, { uniqueId: 'bench-idempotency-signer' }, { 'x-api-key': game.key });
  const headers = { 'x-api-key': game.key, 'content-type': 'application/json' };
  let keysSent = 0;
  const withKey = (request) => {
    keysSent += 1;
    return { ...request, headers: { ...request.headers, 'idempotency-key': randomUUID() } };
  };
  const sides = {
    sign: (keyed) => ({
      url: `${platform.baseUrl}/v1/wallet/${signer.walletId}/sign`,
      requests: [{ method: 'POST', headers, body: JSON.stringify({ chain: 'evm', message: 'bench message' }), ...(keyed ? { setupRequest: withKey } : {}) }],
    }),
    create: (keyed) => ({
      url: `${platform.coreUrl}/v1/player/create`,
      requests: [
        {
          method: 'POST',
          headers,
          setupRequest: (request) => {
            const next = { ...request, body: JSON.stringify({ uniqueId: `bench-${randomBytes(8).toString('hex')}` }) };
            return keyed ? withKey(next) : next;
          },
        },
      ],
    }),
  };
  const oneAtATime = {};
  const writeOf = { sign: () => ({ url: sides.sign(false).url, headers, body: { chain: 'evm', message: 'bench message' } }), create: () => ({ url: sides.create(false).url, headers, body: { uniqueId: `bench-${randomBytes(8).toString('hex')}` } }) };
  for (const name of names) {
    const { route } = IDEMPOTENCY_SCENARIOS[name];
    await sendOneAtATime(Array.from({ length: 20 }, () => ({ ...writeOf[route](), key: randomUUID() })));
    const took = { plain: [], keyed: [] };
    for (let i = 0; i < ONE_AT_A_TIME[route]; i += 1) {
      took.plain.push(...(await sendOneAtATime([writeOf[route]()])));
      took.keyed.push(...(await sendOneAtATime([{ ...writeOf[route](), key: randomUUID() }])));
    }
    keysSent += 20 + ONE_AT_A_TIME[route];
    oneAtATime[route] = { writes: ONE_AT_A_TIME[route], plain: latency(took.plain), keyed: latency(took.keyed) };
    console.log(`${name}, one at a time: ${JSON.stringify(oneAtATime[route])}`);
  }
  for (const name of names) {
    console.log(`--- ${name}`);
    const { route } = IDEMPOTENCY_SCENARIOS[name];
    const label = route === 'sign' ? 'POST /v1/wallet/{id}/sign, evm' : 'POST /v1/player/create';
    const plain = { name: `${label}, no Idempotency-Key`, options: sides[route](false) };
    const keyed = { name: `${label}, a new Idempotency-Key each`, run: (round) => measure(`${label}, Idempotency-Key, round ${round}`, sides[route](true), duration, warmup) };
    await record(name, { ...pairedResult(`${label}, a new Idempotency-Key each request`, 'the same, no Idempotency-Key', await pairedRounds(plain, keyed, { rounds, duration, warmup })), route });
  }
  // Requests still in flight when the last run stopped finish first.
  await sleep(5_000);
  const database = new Client({ connectionString: platform.env.DATABASE_URL });
  await database.connect();
  try {
    const { rows } = await database.query('SELECT count(*) FILTER (WHERE status IS NOT NULL) AS kept, count(*) AS total FROM gateway.idempotency_keys');
    return { keysSent, answersKept: Number(rows[0].kept), rows: Number(rows[0].total), oneAtATime };
  } finally {
    await database.end();
  }
}

/** `INFO commandstats` as calls by command. */
async function redisCalls(redis) {
  const calls = {};
  for (const line of (await redis.info('commandstats')).split('\n')) {
    const match = /^cmdstat_([^:]+):calls=(\d+)/.exec(line);
    if (match) calls[match[1]] = Number(match[2]);
  }
  return calls;
}

/** `pg_stat_statements` of the platform's database, as calls by query text. */
async function statementCalls(admin, databaseName) {
  const { rows } = await admin.query('SELECT query, sum(calls)::bigint AS calls FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = $1 GROUP BY query', [databaseName]);
  return Object.fromEntries(rows.map((row) => [row.query, Number(row.calls)]));
}

/** `after − before` of each name, without zeros. */
function delta(before, after) {
  return Object.fromEntries(Object.entries(after).map(([name, calls]) => [name, calls - (before[name] ?? 0)]).filter(([, change]) => change !== 0));
}

const sum = (counts) => Object.values(counts).reduce((total, calls) => total + calls, 0);
const round2 = (value) => Math.round(value * 100) / 100;

/** p50 and p99 of `values` (ms). */
function latency(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p) => round2(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);
  return { p50: at(50), p99: at(99) };
}

/**
 * Sends `writes` one at a time (each `{ url, headers, body, key? }`), answering how long each took (ms); fails on any
 * answer but a 2xx, or for a replay one without `Idempotent-Replayed: true`.
 */
async function sendOneAtATime(writes, replay = false) {
  const took = [];
  for (const write of writes) {
    const started = performance.now();
    const response = await fetch(write.url, { method: 'POST', headers: { ...write.headers, 'content-type': 'application/json', ...(write.key ? { 'idempotency-key': write.key } : {}) }, body: JSON.stringify(write.body) });
    await response.arrayBuffer();
    took.push(performance.now() - started);
    if (response.status >= 300 || (replay && response.headers.get('idempotent-replayed') !== 'true')) {
      throw new Error(`idempotency: ${write.url} answered ${response.status}${replay ? `, idempotent-replayed ${response.headers.get('idempotent-replayed')}` : ''}`);
    }
  }
  return took;
}

/** Writes sent one at a time, turn about without a key and with a new one: the latency of each when nothing queues. */
const ONE_AT_A_TIME = { sign: 300, create: 100 };

/**
 * A private Redis and a private PostgreSQL cluster with pg_stat_statements loaded, a platform on them, and the counts
 * of `routes` (`sign`, `create`, `game`). Resolves with the counts; stops and removes everything it started.
 */
export async function countIdempotentWrites({ routes = Object.keys(COUNT_WRITES) } = {}) {
  const { PrivatePostgres, PrivateRedis } = require(join(root, 'dist/out-tsc/libs/testing/src'));
  const redisServer = await PrivateRedis.start();
  const postgres = await PrivatePostgres.start();
  let platform;
  const redis = new Redis(redisServer.url);
  let admin;
  try {
    const setup = new Client({ connectionString: postgres.url() });
    await setup.connect();
    await setup.query("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'");
    await setup.end();
    await postgres.stop();
    await postgres.start();
    admin = new Client({ connectionString: postgres.url() });
    await admin.connect();
    await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    platform = await startPlatform('idem-count', undefined, { redisUrl: redisServer.url, adminDatabaseUrl: postgres.url() });
    const game = await platform.game();
    const signer = await json('POST', `${platform.coreUrl}/v1/player/create`, { uniqueId: 'bench-count-signer' }, { 'x-api-key': game.key });
    const apiKey = { 'x-api-key': game.key };
    const operator = { authorization: `Bearer ${game.operatorToken}` };
    let games = 0;
    const requests = {
      sign: () => ({ url: `${platform.baseUrl}/v1/wallet/${signer.walletId}/sign`, headers: apiKey, body: { chain: 'evm', message: 'bench message' } }),
      create: () => ({ url: `${platform.coreUrl}/v1/player/create`, headers: apiKey, body: { uniqueId: `bench-${randomBytes(8).toString('hex')}` } }),
      game: () => ({ url: `${platform.baseUrl}/v1/console/games`, headers: operator, body: { name: `Bench ${(games += 1)}` } }),
    };
    const send = (writes, replay) => sendOneAtATime(writes, replay);
    const snapshot = async () => ({ at: performance.now(), redis: await redisCalls(redis), statements: await statementCalls(admin, platform.databaseName) });
    /** Redis commands and statements between two snapshots; one `info` is our own (the first snapshot's). */
    const between = (before, after) => {
      const commands = delta(before.redis, after.redis);
      commands.info = (commands.info ?? 0) - 1;
      if (commands.info === 0) delete commands.info;
      return { ms: after.at - before.at, commands, statements: delta(before.statements, after.statements) };
    };

    // Warm-up: every route with and without a key, so no first-use work (a cache filled, a statement prepared) counts.
    for (const route of routes) {
      await send(Array.from({ length: 20 }, () => requests[route]()));
      await send(Array.from({ length: 20 }, () => ({ ...requests[route](), key: randomUUID() })));
    }
    await sleep(SETTLE_MS);
    const idleFrom = await snapshot();
    await sleep(IDLE_MS);
    const idle = between(idleFrom, await snapshot());

    const batch = async (writes, replay = false) => {
      const before = await snapshot();
      await send(writes, replay);
      await sleep(SETTLE_MS);
      const counted = between(before, await snapshot());
      return { writes: writes.length, ...counted };
    };
    const counts = {};
    for (const route of routes) {
      const n = COUNT_WRITES[route];
      const roundsOf = [];
      for (let round = 1; round <= COUNT_ROUNDS; round += 1) {
        const keyedWrites = Array.from({ length: n }, () => ({ ...requests[route](), key: randomUUID() }));
        const result = {};
        for (const side of round % 2 === 1 ? ['plain', 'keyed'] : ['keyed', 'plain']) {
          result[side] = await batch(side === 'plain' ? Array.from({ length: n }, () => requests[route]()) : keyedWrites);
        }
        result.replay = await batch(keyedWrites, true);
        roundsOf.push(result);
        console.log(`idempotency-count ${route}, round ${round}: ${['plain', 'keyed', 'replay'].map((side) => `${side} ${sum(result[side].commands)} commands, ${sum(result[side].statements)} statements`).join('; ')}`);
      }
      counts[route] = { writes: n, rounds: roundsOf.map((result) => summarise(result, idle)) };
    }
    return {
      idle: { ms: Math.round(idle.ms), commands: idle.commands, statements: Object.fromEntries(Object.entries(idle.statements).map(([query, calls]) => [statementName(query), calls])) },
      settleMs: SETTLE_MS,
      counts,
    };
  } finally {
    redis.disconnect();
    await admin?.end();
    await platform?.stop();
    await redisServer.destroy();
    await postgres.destroy();
  }
}

/** The first words of a statement on one line (what a table of the report can show). */
const statementName = (query) => query.replace(/\s+/g, ' ').trim().slice(0, 90);

/**
 * Per write, for one round and each batch (plain, keyed, replay): Redis commands and PostgreSQL statements less what
 * the idle platform issues over the batch's time; the keyed and replay batches against the plain one, in all and by
 * command; and the statements on the idempotency table by kind, counted exactly (nothing else touches it).
 */
function summarise(result, idle) {
  const n = result.plain.writes;
  const idleRate = (kind, name) => (name === undefined ? sum(idle[kind]) : (idle[kind][name] ?? 0)) / idle.ms;
  const corrected = (side, kind, name) => ((name === undefined ? sum(result[side][kind]) : (result[side][kind][name] ?? 0)) - idleRate(kind, name) * result[side].ms) / n;
  const byName = (side, kind, threshold) =>
    Object.fromEntries(
      [...new Set([...Object.keys(result.plain[kind]), ...Object.keys(result[side][kind])])]
        .map((name) => [kind === 'statements' ? statementName(name) : name, round2(corrected(side, kind, name) - corrected('plain', kind, name))])
        .filter(([, change]) => Math.abs(change) >= threshold)
        .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1])),
    );
  const onTable = (side) => {
    const kinds = {};
    for (const [query, calls] of Object.entries(result[side].statements)) {
      // The gateway's periodic purge of expired keys (`ctid IN …`) runs on a timer, not per write.
      if (query.includes('idempotency_keys') && !query.includes('ctid')) {
        const kind = /^\s*(\w+)/.exec(query)[1].toUpperCase();
        kinds[kind] = round2((kinds[kind] ?? 0) + calls / n);
      }
    }
    return kinds;
  };
  const sides = {};
  for (const side of ['plain', 'keyed', 'replay']) {
    sides[side] = {
      redisPerWrite: round2(corrected(side, 'commands')),
      statementsPerWrite: round2(corrected(side, 'statements')),
      idempotencyTable: onTable(side),
      ms: Math.round(result[side].ms),
    };
  }
  const extra = (side) => ({
    redis: round2(sides[side].redisPerWrite - sides.plain.redisPerWrite),
    statements: round2(sides[side].statementsPerWrite - sides.plain.statementsPerWrite),
    redisByCommand: byName(side, 'commands', 0.05),
    statementsByQuery: byName(side, 'statements', 0.2),
  });
  return { ...sides, extra: { keyed: extra('keyed'), replay: extra('replay') } };
}

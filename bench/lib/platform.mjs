// Shared by the benchmarks: the platform started on its own database and Redis key prefix (both removed at the end),
// forked helper servers, and one autocannon measurement. Everything runs on this machine. The apps are started as
// their images run them by the launcher every way of starting the platform shares (libs/testing/src/launch, compiled
// to dist/out-tsc by `nx run tools:compile`, which `npm run bench` runs first).
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { cpuSnapshot } from './cpu-share.mjs';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
export const autocannon = require('autocannon');
const { Client } = require('pg');
const { AppLauncher, START_ORDER, deleteKeys, dropDatabase, imageRuntime, namedDatabaseUrl } = require(join(root, 'dist/out-tsc/libs/testing/src'));
export { imageRuntime };

const DEFAULT_REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const DEFAULT_ADMIN_DB = process.env.BENCH_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * Starts `apps` (services first, then the gateway) as their images run them, with limits high enough that nothing is
 * refused; `extraEnv` on top. `BENCH_CPU_PROF=wallet,gateway` writes those apps' CPU profiles to /tmp/prof/<app>.
 * `redisUrl` and `adminDatabaseUrl` put it on another Redis and PostgreSQL than the machine's (a quiet pair of the
 * benchmark's own, to count what the platform alone asks of them).
 */
export async function startPlatform(name, apps = START_ORDER, { extraEnv = {}, redisUrl = DEFAULT_REDIS_URL, adminDatabaseUrl = DEFAULT_ADMIN_DB } = {}) {
  const prefix = `bench-${name}-${process.pid}`;
  const database = namedDatabaseUrl(`bench_${name}_${process.pid}`, adminDatabaseUrl);
  const profiled = (process.env.BENCH_CPU_PROF ?? '').split(',');
  const launcher = await AppLauncher.prepare({
    label: 'bench',
    baseEnv: process.env,
    env: {
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      TRANSPORT_KEY_PREFIX: prefix,
      RATE_LIMIT_API_KEY_RPS: '1000000',
      RATE_LIMIT_API_KEY_BURST: '1000000',
      RATE_LIMIT_JWT_RPS: '1000000',
      RATE_LIMIT_SIGN_PER_WALLET_RPS: '1000000',
      BENCH_REDIS_URL: redisUrl,
      BENCH_KEY_PREFIX: prefix,
      ...extraEnv,
    },
    operator: { email: 'bench@example.com', password: 'bench-operator-password' },
    asImage: true,
    nodeFlags: (app) => (profiled.includes(app) ? ['--cpu-prof', `--cpu-prof-dir=/tmp/prof/${app}`] : []),
    output: 'stderr',
    waitFor: 'ready',
  });
  const helpers = [];
  // What the helper servers run with: this process's environment and the platform's.
  const env = { ...process.env, ...launcher.env };
  const baseUrl = launcher.url('base');
  const coreUrl = launcher.url('core');

  const platform = {
    env,
    /** The environment `app` runs with: `env` and its own transport keys. */
    envOf: (app) => ({ ...env, ...launcher.envOf(app) }),
    baseUrl,
    coreUrl,
    prefix,
    /** The name of the platform's database. */
    databaseName: database.name,
    /** The console operator's sign-in (email and password), for a step-up. */
    consoleOperator: () => launcher.consoleOperator(),
    /** Internal HTTP URL of an app (health, metrics; the gateway's metrics port). */
    internalUrl: (app) => launcher.internalUrl(app),
    /** The process id of each app. */
    appPids: () => Object.fromEntries([...launcher.processes].map(([app, running]) => [app, running.child.pid])),
    /**
     * Starts a bench helper server (`serve()` protocol of bench/transport/common.cjs) with `extraEnv` on top of the
     * platform's environment; resolves with its port.
     */
    fork(script, extraEnv = {}) {
      return new Promise((resolveStart, reject) => {
        const child = fork(join(root, script), [], { env: { ...env, ...extraEnv }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
        helpers.push(child);
        child.on('message', (message) => message?.type === 'ready' && resolveStart(message.port));
        child.on('exit', (code) => reject(new Error(`${script} exited (${code})`)));
      });
    },
    /**
     * Counts of the platform's database so far: commits, rows inserted, updated and fetched (pg_stat_database), and
     * players. A backend reports its counts at most once a second while busy and within 10 s once idle, so the
     * reading waits 11 s first: work done before it is all counted, and none is left to count later.
     */
    async databaseActivity() {
      await sleep(11_000);
      const client = new Client({ connectionString: database.url });
      await client.connect();
      try {
        const { rows: [stats] } = await client.query('SELECT xact_commit, tup_inserted, tup_updated, tup_fetched FROM pg_stat_database WHERE datname = current_database()');
        const { rows: [players] } = await client.query('SELECT count(*) AS count FROM core.players');
        return { commits: Number(stats.xact_commit), inserted: Number(stats.tup_inserted), updated: Number(stats.tup_updated), fetched: Number(stats.tup_fetched), players: Number(players.count) };
      } finally {
        await client.end();
      }
    },
    /** A game with an API key, made through the console API, and the console token it was made with. */
    async game() {
      const { token } = await json('POST', `${baseUrl}/v1/console/session`, launcher.consoleOperator());
      const game = await json('POST', `${baseUrl}/v1/console/games`, { name: 'Bench' }, { authorization: `Bearer ${token}` });
      const key = await json('POST', `${baseUrl}/v1/console/games/${game.id}/api-keys`, { name: 'bench' }, { authorization: `Bearer ${token}` });
      return { gameId: game.id, key: key.key, keyId: key.id, operatorToken: token };
    },
    /** Stops everything and exits with 1 if the benchmark still runs after `ms`; returns what cancels that. */
    timeLimit(ms) {
      const timer = setTimeout(() => {
        console.error(`${name} benchmark: over its time limit, stopping`);
        void platform.stop().finally(() => process.exit(1));
      }, ms);
      return () => clearTimeout(timer);
    },
    async stop() {
      // Each app gets up to 12 s to stop on its own (flushing what it holds, writing a CPU profile), then is killed.
      for (const child of helpers) child.kill('SIGTERM');
      await launcher.stop();
      await dropDatabase(database.name, adminDatabaseUrl);
      await deleteKeys(prefix, redisUrl);
    },
  };
  await launcher.startAll(apps).catch(async (error) => {
    await platform.stop();
    throw error;
  });
  return platform;
}

export async function json(method, url, body, headers = {}) {
  const response = await fetch(url, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  return response.json();
}

/**
 * A warm-up (`warmup` s), then `duration` s at 64 connections (or `options.connections`; `options.overallRate` caps
 * the rate); req/s, p50/p99 (ms), errors, non-2xx, the CPU time each kind of process spent per request (µs, see
 * cpu-share.mjs), and when the measured run started and ended (ms since the epoch; the warm-up is before).
 */
export async function measure(name, options, duration = 10, warmup = 2) {
  const connections = options.connections ?? 64;
  await autocannon({ ...options, connections, duration: warmup });
  const cpu = cpuSnapshot();
  const startedAt = Date.now();
  const result = await autocannon({ ...options, connections, duration });
  const endedAt = Date.now();
  const row = {
    name,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    cpuMicrosPerRequest: cpu.perRequest(result.requests.total),
    startedAt,
    endedAt,
  };
  console.log(`${name}: ${row.rps} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, errors ${row.errors}, non-2xx ${row.non2xx}`);
  return row;
}

/** Back-to-back A/B rounds per ratio, each side `ROUND_SECONDS` after a `ROUND_WARMUP_SECONDS` warm-up. */
export const ROUNDS = 9;
export const ROUND_SECONDS = 3;
export const ROUND_WARMUP_SECONDS = 1;
/** How the paired rounds ran, for a results header. */
export const ROUNDS_METHOD = `${ROUNDS} back-to-back pairs of ${ROUND_SECONDS} s runs (each after a ${ROUND_WARMUP_SECONDS} s warm-up), the order flipping every pair; the median pair counts`;

/**
 * Measures `a` and `b` back to back `rounds` times, flipping which goes first each time (so a drift in the machine's
 * speed during a pair favours neither), and keeps the pair whose ratio b ÷ a is the median: on a shared 2-core
 * virtual machine single runs swing by ±20 % and more, and a ratio taken within one short pair swings far less.
 */
/** The middle value of `items` ordered by `valueOf` (the upper middle for an even count). */
export function median(items, valueOf = (item) => item) {
  return [...items].sort((x, y) => valueOf(x) - valueOf(y))[Math.floor(items.length / 2)];
}

export async function pairedRounds(a, b, { rounds = ROUNDS, duration = ROUND_SECONDS, warmup = ROUND_WARMUP_SECONDS } = {}) {
  const pairs = [];
  for (let round = 1; round <= rounds; round += 1) {
    const order = round % 2 === 1 ? [a, b] : [b, a];
    const results = new Map();
    for (const side of order) {
      // A side measured by the benchmark itself (`run`: signing alone, a read beside signing) or by autocannon.
      results.set(side, side.run ? await side.run(round) : await measure(`${side.name}, round ${round}`, side.options, duration, warmup));
    }
    const [ra, rb] = [results.get(a), results.get(b)];
    pairs.push({ a: { ...ra, name: a.name }, b: { ...rb, name: b.name }, ratio: rb.rps / ra.rps });
  }
  return { pairs, median: median(pairs, (pair) => pair.ratio) };
}

/** One line per row: where its CPU time went, in µs per request. */
export function cpuLines(rows) {
  return rows.map((row) => `- ${row.name}: ${Object.entries(row.cpuMicrosPerRequest).filter(([, micros]) => micros > 0).map(([label, micros]) => `${label} ${micros}`).join(', ')}`);
}

export function machine() {
  const cpus = os.cpus();
  return `${new Date().toISOString()} · ${cpus[0]?.model?.trim()} × ${cpus.length} · Node ${process.version}`;
}

export function table(rows) {
  return [
    '| scenario | req/s | p50 ms | p99 ms | errors | non-2xx |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map((row) => `| ${row.name} | ${row.rps.toLocaleString('en-US')} | ${row.p50} | ${row.p99} | ${row.errors} | ${row.non2xx} |`),
  ];
}

#!/usr/bin/env node
// HTTP benchmark of the service transport, run with `npm run bench:transport` (or `node bench/transport/run.mjs`
// after `node tools/build.mjs`).
//
//   A  bare NestJS + Fastify: GET /hello → {hello:'world'}                                  (hello.cjs)
//   B  NestJS + Fastify gateway, GET /call → core.ping over the Redis Streams transport   (gateway.cjs + service.cjs)
//   C  the same gateway and service over NestJS's built-in Redis transport               (gateway.cjs + service.cjs)
//
// Each server runs in its own child process; the load (autocannon) comes from this process. Scenarios run one after
// another: start the processes, wait until the route answers, warm up, measure at 64 connections and at 1 connection,
// stop the processes. Results go to bench/results/transport.{md,json}. The whole run is bounded in time.
//
// Environment: BENCH_REDIS_URL (default redis://127.0.0.1:6379).
import { randomBytes } from 'node:crypto';
import { execFileSync, fork } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const resultsDir = join(root, 'bench', 'results');
const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const Redis = require('ioredis');

const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Our transport signs every message (HMAC-SHA256); both sides of a run share this key. */
const TRANSPORT_KEY = randomBytes(32).toString('base64');
const KEY_PREFIX = `bench-${process.pid}`;
const WARMUP = { connections: 64, duration: 2 };
const LOADS = [
  { connections: 64, duration: 10 },
  { connections: 1, duration: 5 },
];
const REQUEST_TIMEOUT_S = 10;
const START_TIMEOUT_MS = 15_000;
const STOP_TIMEOUT_MS = 4_000;
const RUN_LIMIT_MS = 170_000;
const TARGET_THROUGHPUT_RATIO = 1.5;

const SCENARIOS = [
  {
    id: 'A',
    name: 'bare NestJS + Fastify',
    path: '/hello',
    expect: { hello: 'world' },
    processes: [{ script: 'hello.cjs', role: 'server', http: true }],
  },
  {
    id: 'B',
    name: 'ours: Redis Streams transport',
    mode: 'ours',
    path: '/call',
    expect: { service: 'core', status: 'ok' },
    processes: [{ script: 'service.cjs', role: 'service' }, { script: 'gateway.cjs', role: 'gateway', http: true }],
  },
  {
    id: 'C',
    name: 'built-in NestJS Redis transport',
    mode: 'builtin',
    path: '/call',
    expect: { service: 'core', status: 'ok' },
    processes: [{ script: 'service.cjs', role: 'service' }, { script: 'gateway.cjs', role: 'gateway', http: true }],
  },
];

const children = new Set();
const runStarted = Date.now();

// ---------------------------------------------------------------------------------------------------------------
// Child processes

function startChild(script, mode, role) {
  const name = mode ? `${script} (${mode})` : script;
  const proc = fork(join(here, script), [], {
    cwd: root,
    execArgv: [],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      BENCH_MODE: mode ?? '',
      BENCH_KEY_PREFIX: KEY_PREFIX,
      BENCH_REDIS_URL: REDIS_URL,
      BENCH_TRANSPORT_KEY: TRANSPORT_KEY,
    },
  });
  let output = '';
  const collect = (chunk) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  proc.stdout.on('data', collect);
  proc.stderr.on('data', collect);
  const child = { name, role, proc, output: () => output.trim(), stopping: false };
  child.exited = new Promise((resolveExit) => proc.once('exit', (code, signal) => resolveExit({ code, signal })));
  child.ready = new Promise((resolveReady, rejectReady) => {
    const timer = setTimeout(
      () => rejectReady(new Error(`${name} did not start within ${START_TIMEOUT_MS} ms${tail(child)}`)),
      START_TIMEOUT_MS,
    );
    proc.on('message', (message) => {
      if (message?.type === 'ready') {
        clearTimeout(timer);
        resolveReady(message);
      }
    });
    child.exited.then(({ code, signal }) => {
      clearTimeout(timer);
      rejectReady(new Error(`${name} exited during startup (code ${code}, signal ${signal})${tail(child)}`));
    });
  });
  child.ready.catch(() => undefined);
  children.add(child);
  child.exited.then(() => children.delete(child));
  return child;
}

let cpuQueries = 0;

/** The child's CPU time (user + system) in ms, asked over IPC. */
function childCpuMs(child) {
  const id = ++cpuQueries;
  return new Promise((resolveCpu) => {
    const timer = setTimeout(() => {
      child.proc.off('message', onMessage);
      resolveCpu(null);
    }, 2000);
    const onMessage = (message) => {
      if (message?.type === 'cpu' && message.id === id) {
        clearTimeout(timer);
        child.proc.off('message', onMessage);
        resolveCpu((message.usage.user + message.usage.system) / 1000);
      }
    };
    child.proc.on('message', onMessage);
    try {
      child.proc.send({ type: 'cpu', id });
    } catch {
      clearTimeout(timer);
      child.proc.off('message', onMessage);
      resolveCpu(null);
    }
  });
}

function tail(child) {
  const text = child.output();
  return text ? `:\n${text}` : '';
}

async function stopChild(child) {
  child.stopping = true;
  if (child.proc.exitCode === null && child.proc.signalCode === null) {
    child.proc.kill('SIGTERM');
    const exited = await Promise.race([child.exited.then(() => true), sleep(STOP_TIMEOUT_MS).then(() => false)]);
    if (!exited) {
      child.proc.kill('SIGKILL');
    }
  }
  await child.exited;
}

function killAllNow() {
  for (const child of children) {
    child.stopping = true;
    child.proc.kill('SIGKILL');
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Redis

function redisConnection() {
  const redis = new Redis(REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 2000,
    commandTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  return redis;
}

async function redisInfo() {
  const redis = redisConnection();
  try {
    await redis.connect();
    const info = await redis.info('server');
    const version = /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown';
    const [, core, , reply] = await redis.pubsub('NUMSUB', 'core.ping', 'core.ping.reply');
    return { version, builtinChannelSubscribers: Number(core) + Number(reply) };
  } finally {
    redis.disconnect();
  }
}

/** Redis's CPU time (ms) and command counts, read with INFO; the whole server is counted, not just this run. */
async function redisStats(redis) {
  try {
    const [cpu, commandstats] = await Promise.all([redis.info('cpu'), redis.info('commandstats')]);
    const seconds = (field) => Number(new RegExp(`^${field}:([0-9.]+)`, 'm').exec(cpu)?.[1] ?? NaN);
    const commands = {};
    for (const [, command, calls] of commandstats.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
      if (command !== 'info') commands[command] = Number(calls);
    }
    return { cpuMs: (seconds('used_cpu_sys') + seconds('used_cpu_user')) * 1000, commands };
  } catch {
    return null;
  }
}

/** Deletes every key this run created (`bench-<pid>:*`); returns how many. */
async function deleteBenchKeys() {
  const redis = redisConnection();
  try {
    await redis.connect();
    let cursor = '0';
    let deleted = 0;
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${KEY_PREFIX}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) {
        deleted += await redis.del(...keys);
      }
    } while (cursor !== '0');
    return deleted;
  } finally {
    redis.disconnect();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Load

async function waitForAnswer(url, expected, signal) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let last = 'no answer';
  while (Date.now() < deadline) {
    signal.throwIfAborted();
    try {
      const response = await fetch(url, { signal: AbortSignal.any([signal, AbortSignal.timeout(1000)]) });
      const text = await response.text();
      if (response.status === 200) {
        if (text !== JSON.stringify(expected)) {
          throw new Error(`GET ${url} answered an unexpected body: ${text}`);
        }
        return;
      }
      last = `HTTP ${response.status}: ${text.slice(0, 300)}`;
    } catch (error) {
      if (String(error?.message).startsWith('GET ')) throw error;
      signal.throwIfAborted();
      last = String(error?.cause?.message ?? error?.message ?? error);
    }
    await sleep(100);
  }
  throw new Error(`GET ${url} did not answer 200 within ${START_TIMEOUT_MS} ms (last: ${last})`);
}

/** Exact latency percentiles (autocannon's own histogram has 1 ms resolution). */
class Latencies {
  values = new Float64Array(1 << 16);
  count = 0;

  add(ms) {
    if (this.count === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.count++] = ms;
  }

  summary() {
    const sorted = this.values.slice(0, this.count).sort();
    const at = (q) => (sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]);
    const mean = sorted.length === 0 ? null : sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
    return { p50: round(at(0.5)), p90: round(at(0.9)), p99: round(at(0.99)), mean: round(mean), max: round(at(1)) };
  }
}

async function load(url, { connections, duration }, signal) {
  signal.throwIfAborted();
  const latencies = new Latencies();
  const tracker = autocannon({ url, connections, pipelining: 1, duration, timeout: REQUEST_TIMEOUT_S });
  tracker.on('response', (_client, status, _bytes, ms) => {
    if (status >= 200 && status < 300) latencies.add(ms);
  });
  const stop = () => tracker.stop();
  signal.addEventListener('abort', stop, { once: true });
  let result;
  try {
    result = await tracker;
  } finally {
    signal.removeEventListener('abort', stop);
  }
  signal.throwIfAborted();
  return {
    connections,
    pipelining: 1,
    durationS: result.duration,
    requestsPerSec: round(result.requests.average),
    requestsPerSecStddev: round(result.requests.stddev),
    ok2xx: result['2xx'],
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count])),
    latencyMs: latencies.summary(),
    autocannonLatencyMs: { p50: result.latency.p50, p99: result.latency.p99, mean: result.latency.mean, max: result.latency.max },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Scenarios

/** Busy and total jiffies of the whole machine from /proc/stat (Linux only; null elsewhere). */
function machineJiffies() {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const total = fields.slice(0, 8).reduce((sum, value) => sum + value, 0);
    return { busy: total - fields[3] - fields[4], total };
  } catch {
    return null;
  }
}

async function snapshot(children, statsRedis) {
  const [processes, redis] = await Promise.all([
    Promise.all(children.map(async (child) => [child.role, await childCpuMs(child)])),
    redisStats(statsRedis),
  ]);
  const runner = process.cpuUsage();
  return { processes: Object.fromEntries(processes), runner: (runner.user + runner.system) / 1000, redis, machine: machineJiffies() };
}

/** CPU time spent per successful request (µs) by each process, and Redis commands per request, over one load. */
function costs(before, after, requests) {
  const perRequest = (ms) => (ms === null || Number.isNaN(ms) || requests === 0 ? null : round((ms * 1000) / requests, 1));
  const cpuUsPerRequest = { loadGenerator: perRequest(after.runner - before.runner) };
  for (const [role, ms] of Object.entries(after.processes)) {
    const start = before.processes[role];
    cpuUsPerRequest[role] = perRequest(ms === null || start === null || start === undefined ? null : ms - start);
  }
  let redisCommandsPerRequest = null;
  let redisCommands = null;
  if (before.redis && after.redis) {
    cpuUsPerRequest.redis = perRequest(after.redis.cpuMs - before.redis.cpuMs);
    redisCommands = {};
    for (const [command, calls] of Object.entries(after.redis.commands)) {
      const delta = calls - (before.redis.commands[command] ?? 0);
      if (delta > 0) redisCommands[command] = delta;
    }
    const total = Object.values(redisCommands).reduce((sum, calls) => sum + calls, 0);
    redisCommandsPerRequest = requests === 0 ? null : round(total / requests, 2);
  }
  const machineBusyPct =
    before.machine && after.machine && after.machine.total > before.machine.total
      ? round((100 * (after.machine.busy - before.machine.busy)) / (after.machine.total - before.machine.total), 0)
      : null;
  return { cpuUsPerRequest, redisCommandsPerRequest, redisCommands, machineBusyPct };
}

async function runScenario(scenario, statsRedis) {
  const controller = new AbortController();
  const started = [];
  const outcome = { id: scenario.id, name: scenario.name, path: scenario.path, ok: false, runs: [] };
  try {
    let port;
    for (const spec of scenario.processes) {
      const child = startChild(spec.script, scenario.mode, spec.role);
      started.push(child);
      child.exited.then(({ code, signal }) => {
        if (!child.stopping) {
          controller.abort(new Error(`${child.name} exited unexpectedly (code ${code}, signal ${signal})${tail(child)}`));
        }
      });
      const ready = await child.ready;
      if (spec.http) port = ready.port;
    }
    const url = `http://127.0.0.1:${port}${scenario.path}`;
    await waitForAnswer(url, scenario.expect, controller.signal);
    const warmup = await load(url, WARMUP, controller.signal);
    outcome.warmup = { requestsPerSec: warmup.requestsPerSec, ok2xx: warmup.ok2xx, errors: warmup.errors, non2xx: warmup.non2xx };
    if (warmup.ok2xx === 0) {
      throw new Error(`no successful response during the warm-up (errors ${warmup.errors}, non-2xx ${warmup.non2xx})`);
    }
    for (const settings of LOADS) {
      process.stdout.write(`  ${scenario.id}: c=${settings.connections} for ${settings.duration} s ... `);
      const before = await snapshot(started, statsRedis);
      const run = await load(url, settings, controller.signal);
      Object.assign(run, costs(before, await snapshot(started, statsRedis), run.ok2xx));
      outcome.runs.push(run);
      console.log(
        `${fmt(run.requestsPerSec, 0)} req/s, p50 ${fmt(run.latencyMs.p50, 2)} ms, p99 ${fmt(run.latencyMs.p99, 2)} ms` +
          (run.errors || run.non2xx ? `, errors ${run.errors}, non-2xx ${run.non2xx}` : ''),
      );
    }
    outcome.ok = true;
  } catch (error) {
    outcome.error = String(error?.message ?? error);
    console.log(`\n  ${scenario.id} failed: ${outcome.error}`);
  } finally {
    for (const child of [...started].reverse()) {
      await stopChild(child);
    }
    const logs = started.map((child) => ({ process: child.name, output: child.output() })).filter((log) => log.output);
    if (logs.length > 0) {
      outcome.processOutput = logs;
    }
  }
  return outcome;
}

// ---------------------------------------------------------------------------------------------------------------
// Report

function round(value, digits = 2) {
  return value === null || value === undefined || Number.isNaN(value) ? null : Number(value.toFixed(digits));
}

function fmt(value, digits) {
  return value === null || value === undefined ? '–' : value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function compare(scenarios) {
  const ours = scenarios.find((s) => s.id === 'B');
  const builtin = scenarios.find((s) => s.id === 'C');
  return LOADS.map(({ connections }) => {
    const b = ours?.runs.find((r) => r.connections === connections);
    const c = builtin?.runs.find((r) => r.connections === connections);
    const ratio = b && c && c.requestsPerSec > 0 ? round(b.requestsPerSec / c.requestsPerSec) : null;
    const p99Lower = b && c && b.latencyMs.p99 !== null && c.latencyMs.p99 !== null ? b.latencyMs.p99 < c.latencyMs.p99 : null;
    return {
      connections,
      throughput: { ours: b?.requestsPerSec ?? null, builtin: c?.requestsPerSec ?? null, ratio, target: TARGET_THROUGHPUT_RATIO, met: ratio === null ? null : ratio >= TARGET_THROUGHPUT_RATIO },
      p99Ms: { ours: b?.latencyMs.p99 ?? null, builtin: c?.latencyMs.p99 ?? null, ratio: b && c && c.latencyMs.p99 ? round(b.latencyMs.p99 / c.latencyMs.p99) : null, met: p99Lower },
    };
  });
}

const verdict = (met) => (met === null ? 'n/a' : met ? 'met' : 'NOT met');

function resultTable(scenarios) {
  const lines = [
    '| Scenario | Connections | req/s (avg) | p50 ms | p99 ms | 2xx | errors | non-2xx |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const s of scenarios) {
    const label = `${s.id}. ${s.name} (\`GET ${s.path}\`)`;
    if (s.runs.length === 0) {
      lines.push(`| ${label} | – | failed | – | – | – | – | – |`);
    }
    for (const r of s.runs) {
      lines.push(
        `| ${label} | ${r.connections} | ${fmt(r.requestsPerSec, 0)} | ${fmt(r.latencyMs.p50, 2)} | ${fmt(r.latencyMs.p99, 2)} | ${r.ok2xx} | ${r.errors} | ${r.non2xx} |`,
      );
    }
  }
  return lines.join('\n');
}

function comparisonTable(comparison) {
  const lines = [
    '| Connections | Metric | ours (B) | built-in (C) | ours ÷ built-in | Target | Result |',
    '|---:|---|---:|---:|---:|---|---|',
  ];
  for (const c of comparison) {
    lines.push(
      `| ${c.connections} | throughput, req/s | ${fmt(c.throughput.ours, 0)} | ${fmt(c.throughput.builtin, 0)} | ${c.throughput.ratio === null ? '–' : `${fmt(c.throughput.ratio, 2)}×`} | ≥ ${TARGET_THROUGHPUT_RATIO}× | ${verdict(c.throughput.met)} |`,
      `| ${c.connections} | latency p99, ms | ${fmt(c.p99Ms.ours, 2)} | ${fmt(c.p99Ms.builtin, 2)} | ${c.p99Ms.ratio === null ? '–' : `${fmt(c.p99Ms.ratio, 2)}×`} | lower | ${verdict(c.p99Ms.met)} |`,
    );
  }
  return lines.join('\n');
}

function costTable(scenarios) {
  const lines = [
    '| Scenario | Connections | load generator | HTTP server / gateway | service | Redis | Redis commands / request | machine CPU busy |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const s of scenarios) {
    for (const r of s.runs) {
      const cpu = r.cpuUsPerRequest ?? {};
      lines.push(
        `| ${s.id}. ${s.name} | ${r.connections} | ${fmt(cpu.loadGenerator, 1)} | ${fmt(cpu.server ?? cpu.gateway, 1)} | ${fmt(cpu.service, 1)} | ${s.id === 'A' ? '–' : fmt(cpu.redis, 1)} | ${s.id === 'A' ? '–' : fmt(r.redisCommandsPerRequest, 2)} | ${r.machineBusyPct === null ? '–' : `${r.machineBusyPct} %`} |`,
      );
    }
  }
  return lines.join('\n');
}

function packageVersions() {
  const names = ['@nestjs/core', '@nestjs/microservices', '@nestjs/platform-fastify', 'fastify', 'ioredis', 'autocannon'];
  return Object.fromEntries(names.map((name) => {
    try {
      return [name, require(`${name}/package.json`).version];
    } catch {
      return [name, 'unknown'];
    }
  }));
}

function gitCommit() {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

function markdown(report) {
  const m = report.machine;
  const notes = [];
  for (const s of report.scenarios) {
    if (s.error) notes.push(`- ${s.id} failed: ${s.error.split('\n')[0]}`);
    for (const r of s.runs) {
      if (r.errors || r.non2xx) notes.push(`- ${s.id} at c=${r.connections}: ${r.errors} errors (${r.timeouts} timeouts), ${r.non2xx} non-2xx (${JSON.stringify(r.statusCodes)})`);
    }
    for (const log of s.processOutput ?? []) notes.push(`- ${s.id}, ${log.process} printed: \`${log.output.split('\n')[0].slice(0, 200)}\``);
  }
  if (report.redis.builtinChannelSubscribers > 0) {
    notes.push(`- Before the run, ${report.redis.builtinChannelSubscribers} other client(s) were subscribed to the built-in transport's \`core.ping\` channels.`);
  }
  return `# Transport benchmark

${resultTable(report.scenarios)}

## Ours ÷ built-in

${comparisonTable(report.comparison)}

## CPU time per request (µs)

${costTable(report.scenarios)}

CPU time (user + system) each process spent during the measurement, divided by the number of successful requests; kernel time spent on loopback networking is only partly charged to the processes, so the columns add up to less than the machine's busy time (all CPUs, from \`/proc/stat\`). Redis figures come from \`INFO cpu\` / \`INFO commandstats\` and count the whole Redis server (other clients included).

## How it was measured

- Load: autocannon ${report.packages.autocannon} from the runner process, pipelining 1; each scenario is warmed up for ${WARMUP.duration} s at c=${WARMUP.connections}, then measured at c=64 for ${LOADS[0].duration} s and at c=1 for ${LOADS[1].duration} s.
- req/s is autocannon's average of per-second samples; p50/p99 are computed from every 2xx response's latency (sub-millisecond resolution).
- Each server is its own Node.js process (NestJS logger off): A is one Fastify app; B and C are a Fastify gateway process plus a \`core\` service process answering \`core.ping\` with \`{"service":"core","status":"ok"}\`. B's gateway calls \`RedisStreamsClient.request\`; C's gateway calls \`lastValueFrom(ClientProxy.send(...))\`.
- Scenarios run one after another; the load generator, the servers and Redis share the same ${m.cpuCount} CPUs.

## Machine

- CPU: ${m.cpuModel} × ${m.cpuCount}
- Memory: ${m.totalMemoryGiB} GiB; OS: ${m.platform} ${m.release} (${m.arch})
- Node.js ${m.node}; Redis ${report.redis.version} at ${report.redis.url}
- Packages: ${Object.entries(report.packages).map(([name, version]) => `${name} ${version}`).join(', ')}
- Commit: ${report.commit}; date: ${report.date}; run took ${report.runSeconds} s
${notes.length > 0 ? `\n## Notes\n\n${notes.join('\n')}\n` : ''}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Main

async function cleanupAndExit(code, reason) {
  if (reason) console.error(reason);
  killAllNow();
  await Promise.race([deleteBenchKeys().catch(() => 0), sleep(3000)]);
  process.exit(code);
}

async function main() {
  const limit = setTimeout(() => void cleanupAndExit(1, `Run exceeded ${RUN_LIMIT_MS / 1000} s; stopped.`), RUN_LIMIT_MS);
  process.once('SIGINT', () => void cleanupAndExit(130, 'Interrupted.'));
  process.once('SIGTERM', () => void cleanupAndExit(143, 'Terminated.'));

  if (!existsSync(join(root, 'dist', 'out-tsc', 'libs', 'transport', 'src', 'index.js'))) {
    throw new Error('dist/out-tsc/libs/transport is missing: run `npx nx run tools:compile` first (or `npm run bench:transport`).');
  }
  let redis;
  try {
    redis = { url: REDIS_URL, ...(await redisInfo()) };
  } catch (error) {
    throw new Error(`Redis at ${REDIS_URL} is not reachable: ${error?.message ?? error}`);
  }
  if (redis.builtinChannelSubscribers > 0) {
    console.warn(`warning: ${redis.builtinChannelSubscribers} client(s) already subscribed to core.ping / core.ping.reply; scenario C may be disturbed.`);
  }

  const cpus = os.cpus();
  const machine = {
    cpuModel: cpus[0]?.model?.trim() ?? 'unknown',
    cpuCount: cpus.length,
    totalMemoryGiB: round(os.totalmem() / 2 ** 30, 1),
    platform: os.platform(),
    release: os.release(),
    arch: os.arch(),
    node: process.version,
  };
  console.log(`Transport benchmark: ${machine.cpuCount} × ${machine.cpuModel}, Node.js ${machine.node}, Redis ${redis.version}, key prefix ${KEY_PREFIX}`);

  const statsRedis = redisConnection();
  await statsRedis.connect().catch(() => undefined);
  const scenarios = [];
  for (const scenario of SCENARIOS) {
    console.log(`${scenario.id}. ${scenario.name}`);
    scenarios.push(await runScenario(scenario, statsRedis));
    await sleep(500);
  }
  statsRedis.disconnect();

  const deletedKeys = await deleteBenchKeys().catch((error) => {
    console.warn(`warning: could not delete ${KEY_PREFIX}:* keys: ${error?.message ?? error}`);
    return null;
  });
  clearTimeout(limit);

  const report = {
    date: new Date().toISOString(),
    commit: gitCommit(),
    runSeconds: round((Date.now() - runStarted) / 1000, 1),
    machine,
    redis: { ...redis, keyPrefix: KEY_PREFIX, deletedKeys },
    packages: packageVersions(),
    settings: { warmup: WARMUP, loads: LOADS, pipelining: 1, requestTimeoutS: REQUEST_TIMEOUT_S },
    scenarios,
    comparison: compare(scenarios),
  };
  await mkdir(resultsDir, { recursive: true });
  const md = markdown(report);
  await writeFile(join(resultsDir, 'transport.md'), md);
  await writeFile(join(resultsDir, 'transport.json'), `${JSON.stringify(report, null, 2)}\n`);

  console.log(`\n${resultTable(scenarios)}\n\n${comparisonTable(report.comparison)}\n\nCPU µs per request:\n${costTable(scenarios)}\n`);
  for (const s of scenarios) {
    for (const log of s.processOutput ?? []) console.log(`${s.id}, ${log.process} printed:\n${log.output}\n`);
  }
  console.log(`Results: ${relative(root, join(resultsDir, 'transport.md'))}, ${relative(root, join(resultsDir, 'transport.json'))} (${report.runSeconds} s)`);
  return scenarios.every((s) => s.ok) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => cleanupAndExit(1, `Benchmark failed: ${error?.stack ?? error}`),
);

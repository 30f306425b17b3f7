#!/usr/bin/env node
// npm run drill: the platform under faults, proving nothing is lost.
//
// Starts the whole platform (two replicas of wallet and core, two gateways) on a PostgreSQL cluster and a Redis server
// of its own (temporary, on free ports: nothing of the machine's is touched, no sudo), runs a mixed load — player
// creations with new and repeated ids, wallet reads, signatures, profile tokens — through a small load balancer that
// follows the gateways' readiness, and meanwhile: stops and starts Redis, stops and starts PostgreSQL, SIGKILLs one of
// the two wallet replicas, then one of the two core replicas, and restarts a gateway. Then it checks that every
// player the load was told exists is readable with the same record and addresses, that every creation that failed
// completes on retry, that there is one profile and one wallet per player, that no request was handled twice by the
// services, and that every app still running recovered by itself. Prints a table per phase; exits 1 on any loss or
// duplicate.
//
// With --redis-failover the Redis is a primary, a replica and three Sentinels (quorum 2, down-after 2 s) that the apps
// follow through REDIS_SENTINELS; the load runs while the primary is SIGKILLed and a Sentinel promotes the replica. The
// same checks apply, and more: no request answers 500, every app follows the new primary without a restart, and the
// time from the kill to the first 2xx is printed (and must be within 10 s).
//
//   npm run drill [-- --phase-seconds 5 --workers 8] [-- --redis-failover]
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { PrivatePostgres, PrivateRedis, PrivateRedisSentinels, ReadinessBalancer, TestPlatform, consoleToken, createGame, queryOnce } = require(join(root, 'dist/out-tsc/libs/testing/src'));

const { values: options } = parseArgs({
  options: { 'phase-seconds': { type: 'string', default: '5' }, workers: { type: 'string', default: '8' }, 'redis-failover': { type: 'boolean', default: false } },
});
const PHASE_MS = Number(options['phase-seconds']) * 1000;
const WORKERS = Number(options.workers);
const FAILOVER = options['redis-failover'];
/** SPEC target: the first 2xx after the primary's kill comes within this (Sentinel's down-after-milliseconds is 2000). */
const FAILOVER_TARGET_MS = 10_000;

const log = (line) => process.stdout.write(`drill: ${line}\n`);

// ---------------------------------------------------------------------------------------------------------------
// Platform

log(`starting PostgreSQL, ${FAILOVER ? 'a Redis primary, its replica and three Sentinels' : 'Redis'} and the platform (two wallet and two core replicas, two gateways)…`);
const [postgres, redis] = await Promise.all([PrivatePostgres.start(), FAILOVER ? PrivateRedisSentinels.start() : PrivateRedis.start()]);
const platform = await TestPlatform.start('drill', {
  postgresAdminUrl: postgres.url(),
  redisUrl: FAILOVER ? redis.nodes[0].url : redis.url,
  env: {
    ...(FAILOVER ? redis.env : {}),
    RATE_LIMIT_API_KEY_RPS: '100000', RATE_LIMIT_API_KEY_BURST: '100000', RATE_LIMIT_JWT_RPS: '100000', SHUTDOWN_DRAIN_MS: '500', LOG_LEVEL: 'info',
  },
});
/** Every process the drill started, killed ones included: their logs count handled messages. */
const allProcesses = () => [...seenProcesses];
const seenProcesses = new Set(platform.processes.values());
for (const app of ['wallet', 'core']) {
  seenProcesses.add(await platform.startReplica(app, `${app}#2`));
}
const second = await platform.startSecondGateway('gateway#2');
seenProcesses.add(platform.process('gateway#2'));
const gateways = [
  { name: 'gateway', base: platform.baseUrl, core: platform.coreUrl, ready: true },
  { name: 'gateway#2', base: second.baseUrl, core: second.coreUrl, ready: true },
];
const game = await createGame(platform, await consoleToken(platform), 'Drill');

// ---------------------------------------------------------------------------------------------------------------
// Load

let phase = 'start';
let running = true;
let sequence = 0;
const phases = new Map();
/** uniqueId → the player as first created (2xx) */
const players = new Map();
/** uniqueIds whose creation did not answer 2xx, to retry at the end */
const failedCreates = new Set();
const tokens = new Map();

/** When the Redis primary was killed, and the phase it was killed in; how long until a request sent after it answered 2xx. */
const failover = { killedAt: undefined, phase: undefined, firstOkMs: undefined };

function record(status, ms, sentAt) {
  let stats = phases.get(phase);
  if (!stats) {
    stats = { requests: 0, ok: 0, s503: 0, s504: 0, s500: 0, other: 0, otherKinds: new Map(), latencies: [] };
    phases.set(phase, stats);
  }
  stats.requests += 1;
  stats.latencies.push(ms);
  if (typeof status === 'number' && status < 300) {
    stats.ok += 1;
    if (failover.killedAt !== undefined && failover.firstOkMs === undefined && sentAt > failover.killedAt) failover.firstOkMs = Date.now() - failover.killedAt;
  } else if (status === 503) stats.s503 += 1;
  else if (status === 504) stats.s504 += 1;
  else if (status === 500) stats.s500 += 1;
  else {
    stats.other += 1;
    stats.otherKinds.set(status, (stats.otherKinds.get(status) ?? 0) + 1);
  }
}

const balancer = new ReadinessBalancer(gateways);

/** One request through the balancer, recorded in the current phase. */
async function send(port, path, { method = 'GET', body, bearer } = {}) {
  const headers = { 'x-request-id': `drill-${++sequence}`, ...(bearer ? { authorization: `Bearer ${bearer}` } : { 'x-api-key': game.key }) };
  const sentAt = Date.now();
  const answer = await balancer.send(port, path, { method, headers, body });
  record(answer.status, answer.ms, sentAt);
  return typeof answer.status === 'number' ? answer : { status: 0 };
}

async function worker(id) {
  let retry;
  for (let round = 0; running; round += 1) {
    // A failed creation is tried again next (as a game server would); one creation in five repeats an id made before
    // (it must answer 200 with the same player).
    const known = [...players.keys()];
    const uniqueId = retry ?? (round % 5 === 4 && known.length > 0 ? known[(id * 7919 + round) % known.length] : `drill-${id}-${round}`);
    const created = await send('core', '/v1/player/create', { method: 'POST', body: { uniqueId } });
    if (created.status !== 200 && created.status !== 201) {
      if (!players.has(uniqueId)) failedCreates.add(uniqueId);
      retry = uniqueId;
      await sleep(100);
      continue;
    }
    retry = undefined;
    failedCreates.delete(uniqueId);
    const player = created.body;
    const first = players.get(uniqueId);
    if (first && (first.id !== player.id || first.walletId !== player.walletId || first.profileId !== player.profileId)) {
      problems.push(`a repeated creation of ${uniqueId} answered another player (${player.id}, first ${first.id})`);
    }
    if (!first) players.set(uniqueId, player);
    await send('base', `/v1/wallet/${player.walletId}`);
    await send('base', `/v1/wallet/${player.walletId}/sign`, { method: 'POST', body: { chain: ['evm', 'sol', 'sui'][round % 3], message: `drill ${round}` } });
    const token = await send('base', `/v1/profile/${player.profileId}/authenticate`, { method: 'POST', body: { duration: 600 } });
    if (token.status === 200) tokens.set(player.profileId, token.body.jwt);
  }
}

const problems = [];

// ---------------------------------------------------------------------------------------------------------------
// Faults

async function during(name, fault, recovered) {
  phase = name;
  log(`phase: ${name}`);
  await fault?.();
  await sleep(PHASE_MS);
  await recovered?.();
}

const workers = Array.from({ length: WORKERS }, (_, id) => worker(id));
const killed = new Set();

const pids = new Map([...platform.processes].map(([name, running]) => [name, running.child.pid]));
if (FAILOVER) {
  await during('steady');
  await during('primary SIGKILL → promotion', async () => {
    const old = redis.nodes[0];
    failover.killedAt = Date.now();
    failover.phase = phase;
    await old.stop();
    const promoted = await redis.waitForNewPrimary(old.port, 30_000);
    log(`Sentinel promoted the replica (port ${promoted.port}) ${Date.now() - failover.killedAt} ms after the kill`);
  });
  await during('new primary');
} else {
  await during('steady');
  await during('redis stopped', () => redis.stop(), () => redis.start());
  await during('redis back');
  await during('postgres stopped', () => postgres.stop(), () => postgres.start());
  await during('postgres back');
  await during('wallet#2 SIGKILL', async () => {
    killed.add(platform.process('wallet#2'));
    await platform.process('wallet#2').stop('SIGKILL');
  });
  await during('core#2 SIGKILL', async () => {
    killed.add(platform.process('core#2'));
    await platform.process('core#2').stop('SIGKILL');
  });
  await during('gateway#2 restart', async () => {
    const old = platform.process('gateway#2');
    killed.add(old);
    const code = await old.stop('SIGTERM', 15_000);
    if (code !== 0) problems.push(`gateway#2 exited ${code} on SIGTERM`);
    seenProcesses.add(await platform.restartApp('gateway#2'));
  });
}
await during('steady again');
running = false;
await Promise.all(workers);
await balancer.stop();

// ---------------------------------------------------------------------------------------------------------------
// Checks

phase = 'verification';
log(`verifying ${players.size} players and retrying ${failedCreates.size} failed creations…`);
for (const uniqueId of failedCreates) {
  const retried = await send('core', '/v1/player/create', { method: 'POST', body: { uniqueId } });
  if (retried.status !== 200 && retried.status !== 201) problems.push(`the creation of ${uniqueId} still fails on retry: ${retried.status}`);
  else players.set(uniqueId, retried.body);
}
const addresses = new Map();
for (const [uniqueId, player] of players) {
  const read = await send('core', `/v1/player/${player.id}`);
  if (read.status !== 200) {
    problems.push(`player ${uniqueId} (${player.id}) answered ${read.status}`);
    continue;
  }
  for (const field of ['id', 'uniqueId', 'profileId', 'walletId', 'createdAt']) {
    if (read.body[field] !== player[field]) problems.push(`player ${uniqueId}: ${field} is ${read.body[field]}, was ${player[field]}`);
  }
  const wallet = await send('base', `/v1/wallet/${player.walletId}`);
  if (wallet.status !== 200) problems.push(`wallet of ${uniqueId} answered ${wallet.status}`);
  else addresses.set(player.walletId, JSON.stringify(wallet.body.addresses));
}
const [counts] = await queryOnce(
  platform.databaseUrl,
  `SELECT (SELECT count(*) FROM core.players WHERE application_id = $1) AS players,
          (SELECT count(*) FROM core.players WHERE application_id = $1 AND status <> 'ready') AS pending,
          (SELECT count(*) FROM identity.profiles WHERE application_id = $1) AS profiles,
          (SELECT count(*) FROM wallet.wallets WHERE application_id = $1) AS wallets,
          (SELECT count(DISTINCT profile_id) FROM wallet.wallets WHERE application_id = $1) AS profiles_with_wallets`,
  [game.gameId],
);
if (Number(counts.players) - Number(counts.pending) !== players.size) problems.push(`${players.size} players known to the load, ${counts.players - counts.pending} ready in the database`);
for (const [what, value] of [['profiles', counts.profiles], ['wallets', counts.wallets], ['profiles with a wallet', counts.profiles_with_wallets]]) {
  if (Number(value) !== Number(counts.players)) problems.push(`${counts.players} players but ${value} ${what}`);
}

// Handled messages, by pattern and request id, over every replica's log (killed ones included).
const handled = new Map();
for (const running of allProcesses()) {
  for (const line of running.jsonLines()) {
    const match = typeof line.msg === 'string' && /^([a-z]+\.[A-Za-z.]+) (ok|failed)/.exec(line.msg);
    if (match && typeof line.requestId === 'string' && line.requestId.startsWith('drill-')) {
      const key = `${match[1]} ${line.requestId}`;
      handled.set(key, (handled.get(key) ?? 0) + 1);
    }
  }
}
const twice = [...handled].filter(([, times]) => times > 1);
for (const [key, times] of twice.slice(0, 20)) problems.push(`handled ${times} times: ${key}`);

const stillRunning = [...platform.processes.values()].filter((running) => !killed.has(running));
for (const running of stillRunning) {
  if (!running.running) problems.push(`${running.name} is not running`);
}
if (FAILOVER) {
  // Every app followed the new primary by itself: the same processes, none restarted; every request answered 2xx,
  // 503 or 504.
  for (const [name, running] of platform.processes) {
    if (running.child.pid !== pids.get(name)) problems.push(`${name} was restarted`);
  }
  for (const [name, stats] of phases) {
    if (stats.s500 > 0) problems.push(`${stats.s500} requests answered 500 in phase ${name}`);
    // During a failover a request answers 2xx, 503 or 504 (and succeeds on retry): anything else is a failure too.
    if (stats.other > 0) problems.push(`${stats.other} requests answered neither 2xx, 503 nor 504 in phase ${name}: ${[...stats.otherKinds].map(([kind, n]) => `${kind}: ${n}`).join(', ')}`);
  }
  if (failover.firstOkMs === undefined) problems.push('no request sent after the kill answered 2xx');
  else if (failover.firstOkMs > FAILOVER_TARGET_MS) problems.push(`the first 2xx came ${failover.firstOkMs} ms after the kill (target ${FAILOVER_TARGET_MS} ms)`);
}
for (const gateway of gateways) {
  const health = await fetch(`${gateway.base}/v1/health`).catch(() => ({ status: 0 }));
  if (health.status !== 200) problems.push(`${gateway.name} health answers ${health.status}`);
}

// ---------------------------------------------------------------------------------------------------------------
// Report

const p99 = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))];
};
const otherOf = (s) => (s.other === 0 ? '0' : `${s.other} (${[...s.otherKinds].map(([kind, n]) => `${kind}: ${n}`).join(', ')})`);
const recovery = (name) => (name !== failover.phase ? '' : failover.firstOkMs === undefined ? ' none |' : ` ${(failover.firstOkMs / 1000).toFixed(1)} s |`);
const rows = [...phases].map(
  ([name, s]) => `| ${name} | ${s.requests} | ${s.ok} | ${s.s503} | ${s.s504} | ${s.s500} | ${otherOf(s)} | ${p99(s.latencies).toFixed(0)} ms |${FAILOVER ? (recovery(name) || ' |') : ''}`,
);
process.stdout.write(
  [
    '',
    `| phase | requests | 2xx | 503 | 504 | 500 | other | p99 |${FAILOVER ? ' kill → first 2xx |' : ''}`,
    `|---|---|---|---|---|---|---|---|${FAILOVER ? '---|' : ''}`,
    ...rows,
    '',
    `players: ${players.size} (${counts.players} in the database, ${counts.pending} pending); profiles ${counts.profiles}; wallets ${counts.wallets}; ` +
      `handled messages checked: ${handled.size}, handled twice: ${twice.length}; creations still failed when the load stopped, retried then: ${failedCreates.size}`,
    '',
  ].join('\n'),
);
await platform.stop();
await Promise.all([FAILOVER ? redis.destroy() : redis.stop(), postgres.destroy()]);
if (problems.length > 0) {
  process.stdout.write(`drill FAILED:\n${problems.map((problem) => `- ${problem}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write('drill passed: nothing lost, nothing handled twice, every app recovered by itself\n');
process.exit(0);

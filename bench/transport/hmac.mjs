#!/usr/bin/env node
// What authenticating transport messages costs, in one build: the transport benchmark's gateway and service (GET
// /call → core.ping over our Redis Streams transport) with the real keyring (HMAC-SHA256 on every request and reply)
// against a keyring that neither computes nor checks a MAC (same wire format). Pairs run alternately, the order
// flipped every pair so neither side always runs second, at 1 and at 64 connections. Results go to
// bench/results/transport-hmac.json and are summarised in transport-hmac.md by hand.
//
//   npx nx run-many -t build compile && node bench/transport/hmac.mjs [pairs=6]
//
// Environment: BENCH_REDIS_URL (default redis://127.0.0.1:6379).
import { randomBytes } from 'node:crypto';
import { fork } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const PAIRS = Number(process.argv[2] ?? 6);
const LOADS = [
  { connections: 1, duration: 6 },
  { connections: 64, duration: 6 },
];
const TRANSPORT_KEY = randomBytes(32).toString('base64');

function start(script, auth, prefix) {
  const proc = fork(join(here, script), [], {
    cwd: root,
    execArgv: [],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      BENCH_MODE: 'ours',
      BENCH_KEY_PREFIX: prefix,
      BENCH_TRANSPORT_KEY: TRANSPORT_KEY,
      BENCH_TRANSPORT_AUTH: auth,
    },
  });
  const ready = new Promise((resolveReady, reject) => {
    proc.on('message', (message) => message?.type === 'ready' && resolveReady(message));
    proc.once('exit', (code) => reject(new Error(`${script} exited (${code})`)));
  });
  return { proc, ready };
}

let queries = 0;
function cpuMs(proc) {
  const id = ++queries;
  return new Promise((resolveCpu) => {
    const onMessage = (message) => {
      if (message?.type === 'cpu' && message.id === id) {
        proc.off('message', onMessage);
        resolveCpu((message.usage.user + message.usage.system) / 1000);
      }
    };
    proc.on('message', onMessage);
    proc.send({ type: 'cpu', id });
  });
}

async function measure(auth) {
  const prefix = `bench-hmac-${process.pid}-${auth}-${Date.now()}`;
  const service = start('service.cjs', auth, prefix);
  await service.ready;
  const gateway = start('gateway.cjs', auth, prefix);
  const { port } = await gateway.ready;
  const url = `http://127.0.0.1:${port}/call`;
  await autocannon({ url, connections: 64, duration: 2 });
  const results = {};
  for (const load of LOADS) {
    const before = await Promise.all([cpuMs(gateway.proc), cpuMs(service.proc)]);
    const result = await autocannon({ url, connections: load.connections, duration: load.duration });
    const after = await Promise.all([cpuMs(gateway.proc), cpuMs(service.proc)]);
    const requests = result.requests.total;
    results[`c${load.connections}`] = {
      rps: Math.round(result.requests.average),
      errors: result.errors + result.non2xx,
      cpuUsPerRequest: Math.round(((after[0] - before[0] + after[1] - before[1]) * 1000) / requests),
      p99Ms: result.latency.p99,
    };
  }
  for (const child of [gateway, service]) {
    child.proc.kill('SIGTERM');
  }
  await sleep(500);
  return results;
}

/**
 * The floor under the c=1 figure: the four keyring operations of one round trip (the gateway signs the request and
 * checks the reply, the service checks the request and signs the reply), hot in a loop and once per wake-up after a
 * 2 ms idle wait, as at one connection, where every request wakes both processes. JSON.parse of the same request
 * text after the same wait is the yardstick for what waking up costs any code.
 */
async function keyringFloor() {
  const { TransportKeyring } = require(join(root, 'dist', 'out-tsc', 'libs', 'transport', 'src'));
  const keyring = new TransportKeyring(new Map([['bench', Buffer.from(TRANSPORT_KEY, 'base64')]]), 'bench');
  const request = JSON.stringify([{ i: '1', p: 'core.ping', r: 'bench:replies:gateway-1', t: Date.now() + 5000, q: 'req-1', d: { payload: {}, principal: null } }]);
  const reply = JSON.stringify([{ i: '1', d: { pong: true } }]);
  const roundTrip = () => {
    keyring.verify('request s', request, keyring.sign('request s', request));
    keyring.verify('reply c', reply, keyring.sign('reply c', reply));
  };
  const parse = () => JSON.parse(request);
  const hot = (work) => {
    for (let i = 0; i < 20_000; i += 1) work();
    const start = process.hrtime.bigint();
    for (let i = 0; i < 100_000; i += 1) work();
    return Number(process.hrtime.bigint() - start) / 1e3 / 100_000;
  };
  const afterIdle = async (work) => {
    let total = 0n;
    for (let i = 0; i < 400; i += 1) {
      await sleep(2);
      const start = process.hrtime.bigint();
      work();
      total += process.hrtime.bigint() - start;
    }
    return Number(total) / 1e3 / 400;
  };
  const round = (value) => Number(value.toFixed(1));
  return {
    roundTripHotUs: round(hot(roundTrip)),
    roundTripAfterIdleUs: round(await afterIdle(roundTrip)),
    jsonParseAfterIdleUs: round(await afterIdle(parse)),
  };
}

const floor = await keyringFloor();
process.stdout.write(`keyring, one round trip (4 HMACs): ${floor.roundTripHotUs} µs hot, ${floor.roundTripAfterIdleUs} µs after a 2 ms idle wait (JSON.parse of the request after the same wait: ${floor.jsonParseAfterIdleUs} µs)\n`);

const pairs = [];
for (let pair = 0; pair < PAIRS; pair += 1) {
  const order = pair % 2 === 0 ? ['none', 'hmac'] : ['hmac', 'none'];
  const runs = {};
  for (const auth of order) {
    runs[auth] = await measure(auth);
  }
  pairs.push({ order, ...runs });
  const line = (load) =>
    `${load}: none ${runs.none[load].rps}/s ${runs.none[load].cpuUsPerRequest} µs, hmac ${runs.hmac[load].rps}/s ${runs.hmac[load].cpuUsPerRequest} µs`;
  process.stdout.write(`pair ${pair + 1} (${order.join(' then ')}): ${line('c1')}; ${line('c64')}\n`);
}
const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
const summary = Object.fromEntries(
  LOADS.map(({ connections }) => {
    const load = `c${connections}`;
    const ratio = (field) => mean(pairs.map((pair) => pair.hmac[load][field] / pair.none[load][field]));
    return [load, { throughputRatio: Number(ratio('rps').toFixed(3)), cpuRatio: Number(ratio('cpuUsPerRequest').toFixed(3)) }];
  }),
);
process.stdout.write(`hmac ÷ none, mean of ${PAIRS} pairs: ${JSON.stringify(summary)}\n`);
await writeFile(join(root, 'bench', 'results', 'transport-hmac.json'), `${JSON.stringify({ measuredAt: new Date().toISOString(), node: process.version, floor, pairs, summary }, null, 2)}\n`);
process.exit(0);

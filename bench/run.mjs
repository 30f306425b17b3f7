#!/usr/bin/env node
// Every benchmark in one run: `npm run bench` (builds first), or `npm run bench -- --only player-create,auth`, and
// `--rounds N` for fewer or more flipped pairs (default 9). Writes bench/results/latest.{json,md,svg}; bench/README.md
// explains the method and how to read the tables.
//
// Each HTTP scenario runs in back-to-back pairs against bare NestJS + Fastify (GET /hello) on the same machine, the
// order flipping every pair; the median pair's ratio counts. Player create is paired the same way with key generation
// alone through the wallet's worker pool. Each scenario also reports the CPU time per request of every process and
// the peak RSS of each app.
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { ROUNDS, ROUND_SECONDS, ROUND_WARMUP_SECONDS, json, machine, measure, median, pairedRounds, root, startPlatform } from './lib/platform.mjs';
import { cpuSnapshot } from './lib/cpu-share.mjs';

const require = createRequire(import.meta.url);
const { values: args } = parseArgs({ options: { only: { type: 'string' }, rounds: { type: 'string' } } });
const ROUND_COUNT = Number(args.rounds ?? ROUNDS);
const SCENARIOS = ['wallet-read-key', 'wallet-read-jwt', 'auth', 'sign-evm', 'sign-sol', 'sign-sui', 'player-create', 'hsm', 'transport'];
const only = args.only ? args.only.split(',') : SCENARIOS;
for (const name of only) {
  if (!SCENARIOS.includes(name)) throw new Error(`unknown scenario ${name}; known: ${SCENARIOS.join(', ')}`);
}

/** Peak RSS (VmHWM) of a process so far, in MB. */
function peakRssMb(pid) {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** Key generation alone, through the wallet's own worker pool (the threads the wallet would start here). */
async function keyGenerationRate(generator, seconds) {
  const cpu = cpuSnapshot();
  let made = 0;
  const started = Date.now();
  while (Date.now() - started < seconds * 1000) {
    await Promise.all(Array.from({ length: 64 }, () => generator.generate()));
    made += 64;
  }
  return { name: 'key generation alone (worker pool)', rps: Math.round(made / ((Date.now() - started) / 1000)), p50: 0, p99: 0, errors: 0, non2xx: 0, cpuMicrosPerRequest: cpu.perRequest(made) };
}

/**
 * A SoftHSM2 token in a folder of its own with one master key made by the wallet's `hsm-create-key` command; returns
 * the wallet's environment for it.
 */
function softHsmWalletEnv() {
  const folder = mkdtempSync(join(os.tmpdir(), 'bench-softhsm-'));
  mkdirSync(join(folder, 'tokens'));
  writeFileSync(join(folder, 'softhsm2.conf'), `directories.tokendir = ${join(folder, 'tokens')}\nobjectstore.backend = file\nlog.level = ERROR\n`);
  const env = { SOFTHSM2_CONF: join(folder, 'softhsm2.conf'), PKCS11_MODULE: '/usr/lib/softhsm/libsofthsm2.so', PKCS11_TOKEN_LABEL: 'bench', PKCS11_PIN: randomBytes(8).toString('hex') };
  execFileSync('softhsm2-util', ['--init-token', '--free', '--label', 'bench', '--pin', env.PKCS11_PIN, '--so-pin', randomBytes(8).toString('hex')], { env: { ...process.env, ...env }, stdio: 'ignore' });
  execFileSync(process.execPath, [join(root, 'dist/apps/wallet/cli/hsm-create-key.js'), '--label', 'bench-1'], { env: { ...process.env, ...env }, stdio: 'ignore' });
  return { folder, env: { ...env, WALLET_MASTER_KEY_PROVIDER: 'pkcs11', WALLET_MASTER_KEY_ID: 'bench-1' } };
}

/** A paired result `b ÷ a` in the shape of the report. */
function pairedResult(name, ratioTo, rounds) {
  return {
    name,
    ...(ratioTo ? { ratioTo } : {}),
    ratio: rounds.median.ratio,
    median: rounds.median,
    p99: median(rounds.pairs.map((pair) => pair.b.p99)),
    baselineP99: median(rounds.pairs.map((pair) => pair.a.p99)),
    pairs: rounds.pairs.map((pair) => ({ a: pair.a.rps, b: pair.b.rps, ratio: pair.ratio, p50: [pair.a.p50, pair.b.p50], p99: pair.b.p99 })),
    errors: rounds.pairs.reduce((sum, pair) => sum + pair.a.errors + pair.a.non2xx + pair.b.errors + pair.b.non2xx, 0),
  };
}

/**
 * CPU time of one ES256 signature (node:crypto, P-256, as identity signs profile JWTs), in µs: the floor of an
 * authenticate on top of the round trip.
 */
function es256Micros(seconds = 1) {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const input = Buffer.from('eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJiZW5jaCJ9');
  const started = process.cpuUsage();
  const until = performance.now() + seconds * 1000;
  let signed = 0;
  while (performance.now() < until) {
    sign('sha256', input, { key: privateKey, dsaEncoding: 'ieee-p1363' });
    signed += 1;
  }
  const used = process.cpuUsage(started);
  return Math.round((used.user + used.system) / signed);
}

/** CPU µs per request summed over every process but the load generator. */
const serverMicros = (cpu) => Object.entries(cpu).filter(([label]) => !label.startsWith('load generator')).reduce((total, [, micros]) => total + micros, 0);

const results = { machine: machine(), rounds: ROUND_COUNT, roundSeconds: ROUND_SECONDS, warmupSeconds: ROUND_WARMUP_SECONDS, scenarios: {}, floors: {} };
const platform = await startPlatform('all');
const cancelTimeLimit = platform.timeLimit(60 * 60_000);
try {
  const game = await platform.game();
  const apiKey = { 'x-api-key': game.key };
  const player = await json('POST', `${platform.coreUrl}/v1/player/create`, { uniqueId: 'bench-reader' }, apiKey);
  const token = await json('POST', `${platform.baseUrl}/v1/profile/${player.profileId}/authenticate`, { duration: 86400 }, apiKey);
  const wallet = await json('GET', `${platform.baseUrl}/v1/wallet/${player.walletId}`, undefined, apiKey);
  const helloPort = await platform.fork('bench/transport/hello.cjs');
  const hello = { name: 'bare NestJS + Fastify (GET /hello)', options: { url: `http://127.0.0.1:${helloPort}/hello` } };
  const post = (url, body, headers = apiKey) => ({ url, method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const signBody = (chain, message) => post(`${platform.baseUrl}/v1/wallet/${player.walletId}/sign`, { chain, message });

  // `GET /call` answered by a `core.ping` service over our transport and over NestJS's built-in Redis transport
  // (bench/transport): a forward with no work in it. Started when a scenario needs them; idle otherwise.
  let transportServers;
  const forwarders = async () => {
    if (!transportServers) {
      const shared = { BENCH_KEY_PREFIX: `${platform.prefix}-transport`, BENCH_TRANSPORT_KEY: randomBytes(32).toString('base64') };
      const startPair = async (mode) => {
        await platform.fork('bench/transport/service.cjs', { ...shared, BENCH_MODE: mode });
        return `http://127.0.0.1:${await platform.fork('bench/transport/gateway.cjs', { ...shared, BENCH_MODE: mode })}/call`;
      };
      const [ours, builtin] = [await startPair('ours'), await startPair('builtin')];
      transportServers = {
        ours: { name: 'bare forward over our transport (GET /call → core.ping)', options: { url: ours } },
        builtin: { name: 'bare forward over the built-in Redis transport', options: { url: builtin } },
      };
    }
    return transportServers;
  };

  const paired = {
    'wallet-read-key': { name: 'GET /v1/wallet/{id}, API key', options: { url: `${platform.baseUrl}/v1/wallet/${player.walletId}`, headers: apiKey } },
    'wallet-read-jwt': { name: 'GET /v1/wallet/{id}, profile JWT', options: { url: `${platform.baseUrl}/v1/wallet/${player.walletId}`, headers: { authorization: `Bearer ${token.jwt}` } } },
    auth: { name: 'POST /v1/profile/{id}/authenticate, API key', options: post(`${platform.baseUrl}/v1/profile/${player.profileId}/authenticate`, {}) },
    'sign-evm': { name: 'POST /v1/wallet/{id}/sign, evm', options: signBody('evm', 'bench message') },
    'sign-sol': { name: 'POST /v1/wallet/{id}/sign, sol', options: signBody('sol', 'bench message') },
    'sign-sui': { name: 'POST /v1/wallet/{id}/sign, sui', options: signBody('sui', 'bench message') },
  };
  for (const name of only.filter((scenario) => scenario in paired)) {
    console.log(`--- ${name}`);
    const rounds = await pairedRounds(hello, paired[name], { rounds: ROUND_COUNT });
    results.scenarios[name] = {
      name: paired[name].name,
      ratio: rounds.median.ratio,
      median: rounds.median,
      p99: median(rounds.pairs.map((pair) => pair.b.p99)),
      baselineP99: median(rounds.pairs.map((pair) => pair.a.p99)),
      pairs: rounds.pairs.map((pair) => ({ hello: pair.a.rps, scenario: pair.b.rps, ratio: pair.ratio, p99: pair.b.p99 })),
      errors: rounds.pairs.reduce((sum, pair) => sum + pair.b.errors + pair.b.non2xx, 0),
    };
  }

  if (only.includes('player-create')) {
    console.log('--- player-create');
    const { KeyGenerator } = require(join(root, 'dist/out-tsc/apps/wallet/src/keys/key-generator'));
    const { cpuBudget } = require(join(root, 'dist/out-tsc/apps/wallet/src/keys/cpu-budget'));
    const generator = new KeyGenerator({ keygenThreads: cpuBudget() });
    await Promise.all(Array.from({ length: 64 }, () => generator.generate()));
    let next = 0;
    const create = {
      name: 'POST /v1/player/create, a new player each time',
      options: {
        url: `${platform.coreUrl}/v1/player/create`,
        requests: [{ method: 'POST', headers: { ...apiKey, 'content-type': 'application/json' }, setupRequest: (request) => ({ ...request, body: JSON.stringify({ uniqueId: `bench-${randomBytes(6).toString('hex')}-${(next += 1)}` }) }) }],
      },
    };
    const pairs = [];
    for (let round = 1; round <= ROUND_COUNT; round += 1) {
      const measureCreate = () => measure(`${create.name}, round ${round}`, create.options, ROUND_SECONDS, ROUND_WARMUP_SECONDS);
      const measureKeys = () => keyGenerationRate(generator, ROUND_SECONDS);
      const [keys, created] = round % 2 === 1 ? [await measureKeys(), await measureCreate()] : (([c, k]) => [k, c])([await measureCreate(), await measureKeys()]);
      console.log(`key generation alone, round ${round}: ${keys.rps}/s`);
      pairs.push({ a: keys, b: created, ratio: created.rps / keys.rps });
    }
    await generator.onModuleDestroy();
    const middle = median(pairs, (pair) => pair.ratio);
    results.scenarios['player-create'] = {
      name: create.name,
      ratioTo: 'key generation alone',
      ratio: middle.ratio,
      median: middle,
      p99: median(pairs.map((pair) => pair.b.p99)),
      pairs: pairs.map((pair) => ({ keyGeneration: pair.a.rps, scenario: pair.b.rps, ratio: pair.ratio, p99: pair.b.p99 })),
      errors: pairs.reduce((sum, pair) => sum + pair.b.errors + pair.b.non2xx, 0),
    };
    // What a request costs at this rate, when requests arrive a few at a time and every process wakes for each: bare
    // hello and a bare forward at the median pair's rate, and bare hello at saturation.
    const rate = middle.b.rps;
    const { ours } = await forwarders();
    const atRate = (side) => measure(`${side.name} at ${rate} req/s`, { ...side.options, overallRate: rate }, ROUND_SECONDS, ROUND_WARMUP_SECONDS);
    results.floors.playerCreateRate = {
      rate,
      hello: (await atRate(hello)).cpuMicrosPerRequest,
      forward: (await atRate(ours)).cpuMicrosPerRequest,
      helloSaturated: (await measure(`${hello.name}, saturated`, hello.options, ROUND_SECONDS, ROUND_WARMUP_SECONDS)).cpuMicrosPerRequest,
    };
  }
  results.peakRssMb = Object.fromEntries(Object.entries(platform.appPids()).map(([app, pid]) => [app, peakRssMb(pid)]));

  if (only.includes('hsm')) {
    // The same requests against a second platform whose wallet keeps its master key in SoftHSM2, flipped pairs with
    // this one (master key in the environment); only one of the two is under load at a time.
    console.log('--- hsm');
    const token = softHsmWalletEnv();
    const hsmPlatform = await startPlatform('hsm', undefined, { extraEnv: token.env, portOffset: 200 });
    try {
      const hsmGame = await hsmPlatform.game();
      const hsmKey = { 'x-api-key': hsmGame.key };
      const hsmPlayer = await json('POST', `${hsmPlatform.coreUrl}/v1/player/create`, { uniqueId: 'bench-signer' }, hsmKey);
      const signOn = (base, walletId, headers) => post(`${base}/v1/wallet/${walletId}/sign`, { chain: 'evm', message: 'bench message' }, headers);
      const createOn = (coreUrl, headers) => ({
        url: `${coreUrl}/v1/player/create`,
        requests: [{ method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, setupRequest: (request) => ({ ...request, body: JSON.stringify({ uniqueId: `bench-${randomBytes(8).toString('hex')}` }) }) }],
      });
      const envSide = (name, options) => ({ name: `${name}, master key in the environment`, options });
      const hsmSide = (name, options) => ({ name: `${name}, master key in SoftHSM2`, options });
      const sign = await pairedRounds(envSide('sign evm', signOn(platform.baseUrl, player.walletId, apiKey)), hsmSide('sign evm', signOn(hsmPlatform.baseUrl, hsmPlayer.walletId, hsmKey)), { rounds: ROUND_COUNT });
      results.scenarios['sign-evm-hsm'] = pairedResult('POST /v1/wallet/{id}/sign, evm, master key in SoftHSM2', 'master key in the environment', sign);
      const create = await pairedRounds(envSide('player create', createOn(platform.coreUrl, apiKey)), hsmSide('player create', createOn(hsmPlatform.coreUrl, hsmKey)), { rounds: ROUND_COUNT });
      results.scenarios['player-create-hsm'] = pairedResult('POST /v1/player/create, master key in SoftHSM2', 'master key in the environment', create);
      results.peakRssMb = { ...results.peakRssMb, ...Object.fromEntries(Object.entries(hsmPlatform.appPids()).map(([app, pid]) => [`${app} (hsm)`, peakRssMb(pid)])) };
    } finally {
      await hsmPlatform.stop();
      rmSync(token.folder, { recursive: true, force: true });
    }
  }
  if (only.includes('transport')) {
    // Our transport against NestJS's built-in Redis transport, both forwarding `GET /call` to a `core.ping` service, at
    // 64 connections and at one; and our bare forward against bare hello, the ceiling of any route that asks a service.
    console.log('--- transport');
    const { ours, builtin } = await forwarders();
    const withConnections = (side, connections) => ({ name: `${side.name}, ${connections} connection${connections === 1 ? '' : 's'}`, options: { ...side.options, connections } });
    for (const connections of [64, 1]) {
      const rounds = await pairedRounds(withConnections(builtin, connections), withConnections(ours, connections), { rounds: ROUND_COUNT });
      results.scenarios[`transport-c${connections}`] = pairedResult(`our transport, ${connections} connection${connections === 1 ? '' : 's'} (GET /call → core.ping)`, 'the built-in Redis transport', rounds);
    }
    const forward = await pairedRounds(hello, ours, { rounds: ROUND_COUNT });
    results.scenarios.forward = pairedResult(ours.name, undefined, forward);
  }
  if (only.includes('auth')) {
    results.floors.es256Micros = es256Micros();
  }
  cancelTimeLimit();
} finally {
  await platform.stop();
}

await mkdir(join(root, 'bench', 'results'), { recursive: true });
await writeFile(join(root, 'bench', 'results', 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
const markdown = report(results);
await writeFile(join(root, 'bench', 'results', 'latest.md'), markdown);
await writeFile(join(root, 'bench', 'results', 'latest.svg'), chart(results));
console.log(markdown);

function report({ machine: host, rounds, scenarios, floors, peakRssMb }) {
  const rows = Object.entries(scenarios).filter(([, scenario]) => scenario.median);
  // Every process that worked in a scenario or in its comparison (bare hello's own server included).
  const cpuLabels = [...new Set(rows.flatMap(([, scenario]) => [scenario.median.b, scenario.median.a].flatMap((side) => Object.entries(side.cpuMicrosPerRequest).filter(([, micros]) => micros > 0).map(([label]) => label))))];
  return [
    '# Benchmarks (`npm run bench`)',
    '',
    `${host} · 64 connections · ${rounds} flipped pairs of ${ROUND_SECONDS} s runs (each after ${ROUND_WARMUP_SECONDS} s of warm-up); the median pair counts`,
    '',
    '| scenario | req/s | ratio | to | p99 ms (median) | errors |',
    '|---|---:|---:|---|---:|---:|',
    ...rows.map(([, s]) => `| ${s.name} | ${s.median.b.rps.toLocaleString('en-US')} | ${s.ratio.toFixed(2)} × | ${s.ratioTo ?? 'bare hello'} (${s.median.a.rps.toLocaleString('en-US')}/s) | ${s.p99} | ${s.errors} |`),
    '',
    'CPU time per request, µs, by process, in the median pair (all processes share the cores):',
    '',
    `| scenario | ${cpuLabels.join(' | ')} |`,
    `|---|${cpuLabels.map(() => '---:').join('|')}|`,
    ...rows.map(([, s]) => `| ${s.name} | ${cpuLabels.map((label) => s.median.b.cpuMicrosPerRequest[label] ?? '').join(' | ')} |`),
    ...rows.map(([, s]) => `| ↳ its ${s.ratioTo ?? 'bare hello'} | ${cpuLabels.map((label) => s.median.a.cpuMicrosPerRequest[label] ?? '').join(' | ')} |`).slice(0, 1),
    ...hsmCost(scenarios),
    ...floorLines(scenarios, floors ?? {}),
    '',
    `Peak RSS of each app over the whole run (MB): ${Object.entries(peakRssMb ?? {}).map(([app, mb]) => `${app} ${mb}`).join(', ')}`,
    '',
  ].join('\n');
}

/**
 * What no change to the apps can go below on this machine, measured in the same run: the bare forward's ratio (the
 * ceiling of every route that asks a service), the cost of the ES256 signature an authenticate adds to it, and what a
 * request costs at player creation's rate.
 */
function floorLines(scenarios, floors) {
  const lines = [];
  const forward = scenarios.forward?.median;
  if (forward) {
    lines.push(
      `- A bare forward over our transport (HTTP → gateway → Redis stream → service → reply, no work) runs at **${scenarios.forward.ratio.toFixed(2)} ×** bare hello: the ceiling of every route that asks a service (wallet read, authenticate). Machine CPU per request: bare hello ${serverMicros(forward.a.cpuMicrosPerRequest) + (forward.a.cpuMicrosPerRequest['load generator (autocannon)'] ?? 0)} µs, the forward ${serverMicros(forward.b.cpuMicrosPerRequest) + (forward.b.cpuMicrosPerRequest['load generator (autocannon)'] ?? 0)} µs (load generator included).`,
    );
    if (floors.es256Micros !== undefined) {
      const hello = serverMicros(forward.a.cpuMicrosPerRequest) + (forward.a.cpuMicrosPerRequest['load generator (autocannon)'] ?? 0);
      const withSignature = serverMicros(forward.b.cpuMicrosPerRequest) + (forward.b.cpuMicrosPerRequest['load generator (autocannon)'] ?? 0) + floors.es256Micros;
      lines.push(`- One ES256 signature (node:crypto, P-256) costs **${floors.es256Micros} µs** of CPU: an authenticate, a forward plus its token's signature, can reach at most about ${(hello / withSignature).toFixed(2)} × bare hello here.`);
    }
  }
  const atRate = floors.playerCreateRate;
  if (atRate) {
    // Only the processes that serve the request: bare hello's server; the forward's gateway, service and Redis.
    const hello = (cpu) => cpu['hello (bench server)'] ?? 0;
    const forwardParts = ['gateway (bench server)', 'service (bench server)', 'redis'];
    const forwardCost = forwardParts.reduce((total, label) => total + (atRate.forward[label] ?? 0), 0);
    const hop = forwardCost - hello(atRate.hello);
    lines.push(
      `- At player creation's rate (${atRate.rate} req/s, requests arriving a few at a time, each process waking for each), bare hello's server spends **${hello(atRate.hello)} µs** of CPU per request (${hello(atRate.helloSaturated)} µs saturated), and a bare forward **${forwardCost} µs** (${forwardParts.map((label) => `${label} ${atRate.forward[label] ?? 0}`).join(', ')}). A new player takes one forward (gateway → core) and two more hops (core → identity, core → wallet) of about ${hop} µs each, so at least ${forwardCost + 2 * hop} µs of CPU outside key generation before PostgreSQL's four statements.`,
    );
  }
  return lines.length > 0 ? ['', 'Floors measured in this run (what no change to the apps goes below on this machine):', '', ...lines] : [];
}

/** What keeping the master key in the HSM costs per operation, from the median pairs of the `*-hsm` scenarios. */
function hsmCost(scenarios) {
  const rows = ['sign-evm-hsm', 'player-create-hsm'].filter((name) => scenarios[name]).map((name) => scenarios[name]);
  if (rows.length === 0) return [];
  const sum = (cpu) => Object.entries(cpu).filter(([label]) => !label.startsWith('load generator')).reduce((total, [, micros]) => total + micros, 0);
  return [
    '',
    'Master key in SoftHSM2 against the environment (median pair; the wallet process runs the token, so its CPU holds the HSM work):',
    '',
    '| operation | env req/s | HSM req/s | ratio | p50 ms env → HSM | wallet CPU µs env → HSM | all processes CPU µs env → HSM |',
    '|---|---:|---:|---:|---|---|---|',
    ...rows.map((s) => {
      const [a, b] = [s.median.a, s.median.b];
      return `| ${s.name.split(',')[0]} | ${a.rps} | ${b.rps} | ${s.ratio.toFixed(2)} × | ${a.p50} → ${b.p50} | ${a.cpuMicrosPerRequest.wallet ?? 0} → ${b.cpuMicrosPerRequest.wallet ?? 0} | ${sum(a.cpuMicrosPerRequest)} → ${sum(b.cpuMicrosPerRequest)} |`;
    }),
  ];
}

function chart({ scenarios, machine: host }) {
  const rows = Object.values(scenarios).filter((scenario) => scenario.median);
  const width = 860;
  const barHeight = 26;
  const left = 330;
  const top = 50;
  const height = top + rows.length * (barHeight + 12) + 40;
  const max = Math.max(1, ...rows.map((row) => row.ratio));
  const scale = (width - left - 140) / max;
  const escape = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const bars = rows.map((row, index) => {
    const y = top + index * (barHeight + 12);
    return [
      `<text x="${left - 10}" y="${y + 17}" text-anchor="end" font-size="12">${escape(row.name)}</text>`,
      `<rect x="${left}" y="${y}" width="${Math.max(1, row.ratio * scale)}" height="${barHeight}" fill="#4f46e5"/>`,
      `<text x="${left + row.ratio * scale + 6}" y="${y + 17}" font-size="12">${row.ratio.toFixed(2)} × ${escape(row.ratioTo ?? 'hello')} · p99 ${row.p99} ms</text>`,
    ].join('');
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="20" y="24" font-size="15" font-weight="bold">Throughput as a ratio (median of flipped pairs), and p99 at 64 connections</text>`,
    `<text x="20" y="40" font-size="11" fill="#555">${escape(host)}</text>`,
    `<line x1="${left + scale}" y1="${top - 6}" x2="${left + scale}" y2="${height - 30}" stroke="#999" stroke-dasharray="4 3"/>`,
    `<text x="${left + scale}" y="${height - 16}" font-size="11" text-anchor="middle" fill="#555">1 ×</text>`,
    ...bars,
    '</svg>',
    '',
  ].join('\n');
}

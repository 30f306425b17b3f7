#!/usr/bin/env node
// Wallet benchmark, run with `npm run bench:wallet` (builds first). In one run, on this machine:
//
//   1  wallet generation in this process: one thread, and the service's worker pool (one thread per core)
//   A  bare NestJS + Fastify: GET /hello
//   B  GET /v1/wallet/{id} with an API key, the full path (gateway → wallet service → Postgres)
//   C  POST {core_url}/v1/player/create, a new uniqueId each time (gateway → core → identity + wallet)
//
// Targets: B ≥ 0.35 × A with p99 ≤ 15 ms at 64 connections; C ≥ 500 players/s.
// Results: bench/results/wallet.{md,json}.
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROUNDS, ROUNDS_METHOD, cpuLines, json, machine, measure, median, pairedRounds, root, startPlatform, table } from '../lib/platform.mjs';

const require = createRequire(import.meta.url);
const { addressesOf } = require(join(root, 'dist/out-tsc/apps/wallet/src/keys/derivation'));
const { KeyGenerator } = require(join(root, 'dist/out-tsc/apps/wallet/src/keys/key-generator'));
const { cpuBudget } = require(join(root, 'dist/out-tsc/apps/wallet/src/keys/cpu-budget'));

async function generationRates() {
  for (let i = 0; i < 50; i += 1) addressesOf(randomBytes(32));
  let single = 0;
  const started = Date.now();
  while (Date.now() - started < 3000) {
    addressesOf(randomBytes(32));
    single += 1;
  }
  const generator = new KeyGenerator({ keygenThreads: cpuBudget() });
  await Promise.all(Array.from({ length: 100 }, () => generator.generate()));
  let pooled = 0;
  const poolStarted = Date.now();
  while (Date.now() - poolStarted < 3000) {
    await Promise.all(Array.from({ length: 64 }, () => generator.generate()));
    pooled += 64;
  }
  const perSecond = { singleThread: Math.round(single / 3), workerPool: Math.round(pooled / ((Date.now() - poolStarted) / 1000)) };
  await generator.onModuleDestroy();
  console.log(`wallet generation: ${perSecond.singleThread}/s on one thread, ${perSecond.workerPool}/s through the worker pool`);
  return perSecond;
}

const generation = await generationRates();
const platform = await startPlatform('wallet');
const cancelTimeLimit = platform.timeLimit(420_000);
try {
  const game = await platform.game();
  const player = await json('POST', `${platform.coreUrl}/v1/player/create`, { uniqueId: 'bench-reader' }, { 'x-api-key': game.key });
  const helloPort = await platform.fork('bench/transport/hello.cjs');
  const hello = { name: 'A. bare NestJS + Fastify (GET /hello)', options: { url: `http://127.0.0.1:${helloPort}/hello` } };
  const walletRead = {
    name: 'B. GET /v1/wallet/{id} (API key, gateway → wallet → Postgres)',
    options: { url: `${platform.baseUrl}/v1/wallet/${player.walletId}`, headers: { 'x-api-key': game.key } },
  };
  // A and B run in ROUNDS short back-to-back pairs; the read target is judged on the median pair.
  const ab = await pairedRounds(hello, walletRead);
  const read = ab.median.b;
  let next = 0;
  const create = await measure('C. POST /v1/player/create (new player: profile, HD wallet, envelope encryption)', {
    url: `${platform.coreUrl}/v1/player/create`,
    requests: [
      {
        method: 'POST',
        headers: { 'x-api-key': game.key, 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, body: JSON.stringify({ uniqueId: `bench-${process.pid}-${(next += 1)}` }) }),
      },
    ],
  });
  cancelTimeLimit();
  const readRatio = ab.median.ratio;
  // p99 of a single short run is noisy too: the target is judged on the median of B's p99 over every pair.
  const readP99s = ab.pairs.map((pair) => pair.b.p99);
  const readP99 = median(readP99s);
  const helloP99 = median(ab.pairs.map((pair) => pair.a.p99));
  const rows = [ab.median.a, read, create];
  const lines = [
    '# Wallet benchmark',
    '',
    `${machine()} · 64 connections; A/B: ${ROUNDS_METHOD}; C 10 s after a 2 s warm-up; load generator, the four apps, Postgres and Redis share the machine`,
    '',
    `Wallet generation (entropy, BIP-39 seed, three derivations and addresses): ${generation.singleThread}/s on one thread, ${generation.workerPool}/s through the worker pool.`,
    '',
    ...table(rows),
    '',
    '| target | measured | result |',
    '|---|---:|---|',
    `| wallet read ≥ 0.35 × bare hello (B ÷ A, median of ${ROUNDS} rounds: ${ab.pairs.map((pair) => pair.ratio.toFixed(3)).join(', ')}) | ${readRatio.toFixed(3)} × | ${readRatio >= 0.35 ? 'met' : 'NOT met'} |`,
    `| wallet read p99 ≤ 15 ms at 64 connections (median of ${ROUNDS} runs: ${readP99s.join(', ')} ms; bare hello's own p99 in the same pairs: ${helloP99} ms) | ${readP99} ms | ${readP99 <= 15 ? 'met' : 'NOT met'} |`,
    `| player create ≥ 500/s | ${create.rps}/s | ${create.rps >= 500 ? 'met' : 'NOT met'} |`,
    '',
    'CPU time per request, µs, by process (all processes share the 2 cores, so throughput ≈ 2 s ÷ the sum; the wallet',
    "service's figure includes its key-generation threads):",
    '',
    ...cpuLines(rows),
    '',
  ];
  await mkdir(join(root, 'bench/results'), { recursive: true });
  await writeFile(join(root, 'bench/results/wallet.md'), lines.join('\n'));
  await writeFile(join(root, 'bench/results/wallet.json'), `${JSON.stringify({ generation, rows, readPairs: ab.pairs, readRatio, readP99, helloP99 }, null, 2)}\n`);
  console.log(lines.join('\n'));
} finally {
  await platform.stop();
}

#!/usr/bin/env node
// Authentication benchmark, run with `npm run bench:auth` (builds first). In one run, on this machine:
//
//   A  bare NestJS + Fastify: GET /hello                                     (bench/transport/hello.cjs)
//   B  POST /v1/profile/{id}/authenticate with an API key, the full path     (the real gateway + identity)
//   C  a no-op route without the guard (@Public) and D the same with it       (bench/auth/noop.cjs)
//   E  a no-op POST with a JSON body: what reading a body costs in this stack
//
// Targets: B ≥ 0.25 × A; D costs at most 15 % more than C (throughput at 64 connections).
// Results: bench/results/auth.{md,json}.
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROUNDS, ROUNDS_METHOD, cpuLines, machine, measure, pairedRounds, root, startPlatform, table } from '../lib/platform.mjs';

const require = createRequire(import.meta.url);
const { RedisStreamsClient, TransportKeys } = require(join(root, 'dist/out-tsc/libs/transport/src'));
const { transportKeysOf } = require(join(root, 'dist/out-tsc/libs/config/src'));

const platform = await startPlatform('auth', ['identity', 'gateway']);
const cancelTimeLimit = platform.timeLimit(420_000);
try {
  const game = await platform.game();
  // A profile made as core makes a new player's (identity takes profiles.createOrGet from core only).
  const keys = TransportKeys.fromConfig('core', transportKeysOf('core', platform.envOf('core')), platform.env.DATA_DIR);
  const transport = new RedisStreamsClient({ redisUrl: platform.env.REDIS_URL, keyPrefix: platform.prefix, keys });
  await transport.connect();
  const profile = await transport.request('identity.profiles.createOrGet', {
    payload: { externalKey: 'bench-player' },
    principal: { kind: 'apiKey', applicationId: game.gameId, keyId: game.keyId },
  });
  await transport.close();
  const helloPort = await platform.fork('bench/transport/hello.cjs');
  const noopPort = await platform.fork('bench/auth/noop.cjs');
  const apiKey = { 'x-api-key': game.key };

  const hello = { name: 'A. bare NestJS + Fastify (GET /hello)', options: { url: `http://127.0.0.1:${helloPort}/hello` } };
  const authenticate = {
    name: 'B. POST /v1/profile/{id}/authenticate (API key, gateway → identity, ES256)',
    options: { url: `${platform.baseUrl}/v1/profile/${profile.id}/authenticate`, method: 'POST', headers: { ...apiKey, 'content-type': 'application/json' }, body: '{}' },
  };
  const open = { name: 'C. no-op route, no guard (@Public)', options: { url: `http://127.0.0.1:${noopPort}/noop/open` } };
  const guarded = { name: 'D. no-op route, API key guard + rate limit', options: { url: `http://127.0.0.1:${noopPort}/noop/auth`, headers: apiKey } };
  // A/B and C/D each run in ROUNDS short back-to-back pairs; each target is judged on the median pair.
  const ab = await pairedRounds(hello, authenticate);
  const cd = await pairedRounds(open, guarded);
  const postFloor = await measure('E. no-op POST with a JSON body (@Public): the cost of a body in this stack', {
    url: `http://127.0.0.1:${noopPort}/noop/post`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  const rows = [ab.median.a, ab.median.b, { ...cd.median.a, name: `${open.name} — median pair` }, { ...cd.median.b, name: `${guarded.name} — median pair` }, postFloor];
  cancelTimeLimit();

  const authRatio = ab.median.ratio;
  const guardCost = 1 / cd.median.ratio - 1;
  const percent = (value) => `${(value * 100).toFixed(1)} %`;
  const lines = [
    '# Authentication benchmark',
    '',
    `${machine()} · 64 connections; A/B and C/D: ${ROUNDS_METHOD}; E 10 s after a 2 s warm-up; load generator, apps and Redis share the machine`,
    '',
    ...table(rows),
    '',
    '| target | measured | result |',
    '|---|---:|---|',
    `| authenticate ≥ 0.25 × bare hello (B ÷ A, median of ${ROUNDS} rounds: ${ab.pairs.map((pair) => pair.ratio.toFixed(3)).join(', ')}) | ${authRatio.toFixed(3)} × | ${authRatio >= 0.25 ? 'met' : 'NOT met'} |`,
    `| guard adds ≤ 15 % to a no-op route (C ÷ D − 1, median of ${ROUNDS} pairs: ${cd.pairs.map((pair) => percent(1 / pair.ratio - 1)).join(', ')}) | ${percent(guardCost)} | ${guardCost <= 0.15 ? 'met' : 'NOT met'} |`,
    '',
    `For scale: a no-op POST with a JSON body (E) runs at ${(postFloor.rps / ab.median.a.rps).toFixed(2)} × bare hello in this stack;`,
    `authenticate runs at ${(ab.median.b.rps / postFloor.rps).toFixed(2)} × that, adding the guard, validation, the transport round trip to`,
    'identity and an ES256 signature.',
    '',
    'CPU time per request, µs, by process (all processes share the 2 cores, so throughput ≈ 2 s ÷ the sum):',
    '',
    ...cpuLines(rows),
    '',
    'The guard in D resolves the key from memory (after the first request), checks it, notes its use, and spends a',
    "token drawn from the key's bucket in Redis (tokens are drawn a tenth of the rate at a time, so a busy key costs",
    "one Lua call per several requests; the benchmark's limits are set high so that nothing is refused).",
    '',
  ];
  await mkdir(join(root, 'bench/results'), { recursive: true });
  await writeFile(join(root, 'bench/results/auth.md'), lines.join('\n'));
  await writeFile(join(root, 'bench/results/auth.json'), `${JSON.stringify({ rows, authenticatePairs: ab.pairs, guardPairs: cd.pairs, authRatio, guardCost }, null, 2)}\n`);
  console.log(lines.join('\n'));
} finally {
  await platform.stop();
}

#!/usr/bin/env node
// Every benchmark in one run: `npm run bench` (builds first), or `npm run bench -- --only player-create,auth`, and
// `--rounds N` for fewer or more flipped pairs (default 9). Writes bench/results/latest.{json,md,svg}, or
// `<name>.{json,md,svg}` with `--out <name>`; bench/README.md explains the method and how to read the tables.
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
import { writeReport } from './lib/report.mjs';
import { newestProfile, summariseProfile } from './lib/cpu-profile.mjs';
import { ONE_RULE, fiftyRules, shopTransfer } from './policy/rules.mjs';
import { signingBench } from './signing/alone.mjs';
import { transactionBody } from './signing/transactions.mjs';
import { WEBHOOK_SCENARIOS, webhookScenarios } from './webhooks/webhooks.mjs';
import { SIGNED_SCENARIOS, signedScenarios } from './signed-requests/signed.mjs';
import { IDEMPOTENCY_COUNT, IDEMPOTENCY_SCENARIOS, countIdempotentWrites, idempotencyScenarios } from './idempotency/idempotency.mjs';

const require = createRequire(import.meta.url);
const { values: args } = parseArgs({ options: { only: { type: 'string' }, rounds: { type: 'string' }, out: { type: 'string' } } });
const OUT = args.out ?? 'latest';
const ROUND_COUNT = Number(args.rounds ?? ROUNDS);
const SCENARIOS = ['wallet-read-key', 'wallet-read-jwt', 'auth', 'sign-evm', 'sign-sol', 'sign-sui', 'primitives', 'placement', 'signing', 'read-beside-signing', 'sign-policy', 'webhooks', 'signed-requests', 'idempotency', 'player-create', 'hsm', 'transport'];
const CHAINS = ['evm', 'sol', 'sui'];
const only = args.only ? args.only.split(',') : SCENARIOS;
// `webhooks`, `signed-requests` and `idempotency` are every scenario of their set; each can also be named alone.
const KNOWN = [...SCENARIOS, ...Object.keys(WEBHOOK_SCENARIOS), ...Object.keys(SIGNED_SCENARIOS), ...Object.keys(IDEMPOTENCY_SCENARIOS), IDEMPOTENCY_COUNT];
for (const name of only) {
  if (!KNOWN.includes(name)) throw new Error(`unknown scenario ${name}; known: ${KNOWN.join(', ')}`);
}
const webhookNames = Object.keys(WEBHOOK_SCENARIOS).filter((name) => only.includes('webhooks') || only.includes(name));
const signedNames = Object.keys(SIGNED_SCENARIOS).filter((name) => only.includes('signed-requests') || only.includes(name));
const idempotencyNames = Object.keys(IDEMPOTENCY_SCENARIOS).filter((name) => only.includes('idempotency') || only.includes(name));

/** A memory figure of a process from /proc/<pid>/status, in MB: `VmHWM` (its peak RSS so far) or `VmRSS` (now). */
function memoryMb(pid, field) {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** Each app's peak RSS over the run so far, and its RSS now, in MB; `suffix` names a second platform's apps. */
function memoryOf(pids, suffix = '') {
  const of = (field) => Object.fromEntries(Object.entries(pids).map(([app, pid]) => [`${app}${suffix}`, memoryMb(pid, field)]));
  return { peak: of('VmHWM'), now: of('VmRSS') };
}

const KEY_GENERATION_LABEL = 'key generation (bench process)';

/** Key generation alone, through the wallet's own worker pool (the threads the wallet would start here). */
async function keyGenerationRate(generator, seconds) {
  const cpu = cpuSnapshot();
  let made = 0;
  const started = Date.now();
  while (Date.now() - started < seconds * 1000) {
    await Promise.all(Array.from({ length: 64 }, () => generator.generate()));
    made += 64;
  }
  // The pool's threads belong to this process, which generates no load meanwhile: its CPU is the key generation's.
  const cpuMicrosPerRequest = Object.fromEntries(Object.entries(cpu.perRequest(made)).map(([label, micros]) => [label.startsWith('load generator') ? KEY_GENERATION_LABEL : label, micros]));
  return { name: 'key generation alone (worker pool)', rps: Math.round(made / ((Date.now() - started) / 1000)), p50: 0, p99: 0, errors: 0, non2xx: 0, cpuMicrosPerRequest };
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

const results = { machine: machine(), rounds: ROUND_COUNT, roundSeconds: ROUND_SECONDS, warmupSeconds: ROUND_WARMUP_SECONDS, scenarios: {}, floors: {} };
const resultsFolder = join(root, 'bench', 'results');
/** Writes what has been measured so far (after each scenario, so a failure later keeps the earlier ones). */
async function save() {
  await mkdir(resultsFolder, { recursive: true });
  await writeFile(join(resultsFolder, `${OUT}.json`), `${JSON.stringify(results, null, 2)}\n`);
  return writeReport(resultsFolder, results, OUT);
}

/** PostgreSQL's work per new player between two readings of the platform's database activity. */
function perPlayer(before, after) {
  const players = after.players - before.players;
  const each = (field) => Math.round(((after[field] - before[field]) / players) * 10) / 10;
  return { players, commits: each('commits'), inserted: each('inserted'), updated: each('updated'), fetched: each('fetched') };
}
let hsmMemory;
const runStartedAt = Date.now();
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
      errors: rounds.pairs.reduce((sum, pair) => sum + pair.a.errors + pair.a.non2xx + pair.b.errors + pair.b.non2xx, 0),
    };
    await save();
  }

  if (only.includes('primitives')) {
    // Every candidate primitive in a process of its own (bench/signing/primitives.mjs), before the platform is loaded.
    console.log('--- primitives');
    results.floors.primitives = JSON.parse(execFileSync(process.execPath, [join(root, 'bench/signing/primitives.mjs'), '--json'], { encoding: 'utf8' }));
    await save();
  }

  const signing = only.some((name) => ['placement', 'signing', 'read-beside-signing'].includes(name)) ? await signingBench(root) : undefined;
  /** Signing alone (bench/signing/alone.mjs) as one side of a pair. */
  const alone = (chain, options = {}) => ({
    name: `${chain} signing alone (${options.placement ?? 'chosen placement'})`,
    run: () => signing.run(chain, { ...options, seconds: ROUND_SECONDS, warmup: ROUND_WARMUP_SECONDS }),
  });
  /** The median of the event loop's delay p99 over one side of the pairs. */
  const loopDelayP99 = (rounds, side) => median(rounds.pairs.map((pair) => pair[side].loopDelayMs.p99));

  if (only.includes('placement')) {
    // Each chain's signing alone (a sealed key opened and signed through ChainKeys, 64 at a time) with its primitive
    // on the event loop against the key worker pool: signatures per second, CPU and the loop's delay meanwhile.
    for (const chain of CHAINS) {
      console.log(`--- placement ${chain}`);
      const rounds = await pairedRounds(alone(chain, { placement: 'event-loop' }), alone(chain, { placement: 'worker' }), { rounds: ROUND_COUNT });
      results.scenarios[`placement-${chain}`] = {
        ...pairedResult(`${chain} signing alone, primitive on the worker pool`, 'on the event loop', rounds),
        placement: signing.placement[chain],
        loopDelayP99: { eventLoop: loopDelayP99(rounds, 'a'), worker: loopDelayP99(rounds, 'b') },
      };
      await save();
    }
  }

  if (only.includes('signing') || only.includes('read-beside-signing')) {
    // A second wallet in the same game without its sealed chain keys (as before the backfill): it signs from entropy.
    const unsealed = await json('POST', `${platform.coreUrl}/v1/player/create`, { uniqueId: 'bench-from-entropy' }, apiKey);
    const database = new (require('pg').Client)({ connectionString: platform.env.DATABASE_URL });
    await database.connect();
    await database.query('UPDATE wallet.wallets SET sealed_evm_key = NULL, sealed_sol_key = NULL, sealed_sui_key = NULL WHERE id = $1', [unsealed.walletId]);
    await database.end();
    const unsealedWallet = await json('GET', `${platform.baseUrl}/v1/wallet/${unsealed.walletId}`, undefined, apiKey);
    const routes = {
      sign: (walletId, chain) => post(`${platform.baseUrl}/v1/wallet/${walletId}/sign`, { chain, message: 'bench message' }),
      'sign-transaction': async (walletId, chain, addresses) => post(`${platform.baseUrl}/v1/wallet/${walletId}/sign-transaction`, await transactionBody(chain, addresses[chain])),
    };
    const route = async (name, walletId, chain, addresses, label) => ({ name: `POST /v1/wallet/{id}/${name}, ${chain}, ${label}`, options: await routes[name](walletId, chain, addresses) });

    if (only.includes('signing')) {
      for (const chain of CHAINS) {
        for (const name of Object.keys(routes)) {
          console.log(`--- ${name} ${chain} against from entropy`);
          const fromEntropy = await route(name, unsealed.walletId, chain, unsealedWallet.addresses, 'from entropy');
          const sealed = await route(name, player.walletId, chain, wallet.addresses, 'sealed chain key');
          const rounds = await pairedRounds(fromEntropy, sealed, { rounds: ROUND_COUNT });
          results.scenarios[`${name}-${chain}-sealed`] = pairedResult(`POST /v1/wallet/{id}/${name}, ${chain}, sealed chain key`, `${name}, ${chain}, from entropy`, rounds);
          await save();
        }
        console.log(`--- sign ${chain} against signing alone`);
        const sealed = await route('sign', player.walletId, chain, wallet.addresses, 'sealed chain key');
        const rounds = await pairedRounds(alone(chain), sealed, { rounds: ROUND_COUNT });
        results.scenarios[`sign-${chain}-alone`] = { ...pairedResult(`POST /v1/wallet/{id}/sign, ${chain}, against signing alone`, `${chain} signing alone`, rounds), placement: signing.placement[chain] };
        await save();
      }
      // The floor of any route that asks a service, for the CPU outside the primitive: a bare forward, saturated.
      const { ours } = await forwarders();
      results.floors.forwardCpu = (await measure(`${ours.name}, saturated`, ours.options, ROUND_SECONDS, ROUND_WARMUP_SECONDS)).cpuMicrosPerRequest;
      await save();
    }

    if (only.includes('read-beside-signing')) {
      // Wallet reads at 64 connections alone, and with each chain's signing at 64 connections beside them (two
      // autocannon instances of this process at once); the reads' p99 counts.
      const read = { name: 'GET /v1/wallet/{id}, API key', options: { url: `${platform.baseUrl}/v1/wallet/${player.walletId}`, headers: apiKey } };
      for (const chain of CHAINS) {
        console.log(`--- read beside ${chain} signing`);
        const sign = await route('sign', player.walletId, chain, wallet.addresses, 'sealed chain key');
        const beside = {
          name: `GET /v1/wallet/{id} beside ${chain} signing`,
          run: async (round) => {
            const [reads, signatures] = await Promise.all([
              measure(`${read.name} beside ${chain} signing, round ${round}`, read.options, ROUND_SECONDS, ROUND_WARMUP_SECONDS),
              measure(`${sign.name} beside reads, round ${round}`, sign.options, ROUND_SECONDS, ROUND_WARMUP_SECONDS),
            ]);
            return { ...reads, signRps: signatures.rps, signErrors: signatures.errors + signatures.non2xx };
          },
        };
        const rounds = await pairedRounds(read, beside, { rounds: ROUND_COUNT });
        results.scenarios[`read-beside-${chain}`] = {
          ...pairedResult(`GET /v1/wallet/{id}, 64 connections, beside ${chain} signing at 64`, 'the same reads alone', rounds),
          signRps: median(rounds.pairs.map((pair) => pair.b.signRps)),
          signErrors: rounds.pairs.reduce((sum, pair) => sum + pair.b.signErrors, 0),
        };
        await save();
      }
    }
  }
  await signing?.close();

  if (only.includes('sign-policy')) {
    // The same EVM transaction signed in two games of this platform, paired: one whose policy is a single accept rule,
    // one whose 50 rules (ABI calldata and velocity among them) all apply and the last accepts it.
    console.log('--- sign-policy');
    const side = async (name, rules) => {
      const sideGame = await platform.game();
      await json('PUT', `${platform.baseUrl}/v1/console/games/${sideGame.gameId}/signing-policy`, { rules }, { authorization: `Bearer ${sideGame.operatorToken}` });
      const signer = await json('POST', `${platform.coreUrl}/v1/player/create`, { uniqueId: `bench-policy-${name}` }, { 'x-api-key': sideGame.key });
      return { name, options: post(`${platform.baseUrl}/v1/wallet/${signer.walletId}/sign-transaction`, { chain: 'evm', transaction: shopTransfer() }, { 'x-api-key': sideGame.key }) };
    };
    const fifty = fiftyRules();
    const one = await side('sign-transaction evm, one accept rule', ONE_RULE);
    const rounds = await pairedRounds(one, await side('sign-transaction evm, 50 rules', fifty), { rounds: ROUND_COUNT });
    results.scenarios['sign-policy'] = pairedResult('POST /v1/wallet/{id}/sign-transaction, evm, 50 rules (ABI calldata, velocity) against one', 'one accept rule', rounds);
    await save();
    // The same 50 rules without their velocity limits: what the rules cost apart from the count in Redis.
    const still = await pairedRounds(one, await side('sign-transaction evm, 50 rules without velocity', fiftyRules({ velocity: false })), { rounds: ROUND_COUNT });
    results.scenarios['sign-policy-no-velocity'] = pairedResult('POST /v1/wallet/{id}/sign-transaction, evm, the same 50 rules without velocity limits, against one', 'one accept rule', still);
    results.floors.policyEvaluationMicros = Number(execFileSync(process.execPath, [join(root, 'bench/policy/evaluate.mjs')], { encoding: 'utf8' }).trim());
    await save();
  }

  if (webhookNames.length > 0) {
    // Player creation and signing in a game with one endpoint of every event, against a game of the same platform
    // with none; then every event checked against what the receiver got, and the delay to each delivery.
    results.webhooks = await webhookScenarios(platform, webhookNames, {
      rounds: ROUND_COUNT,
      duration: ROUND_SECONDS,
      warmup: ROUND_WARMUP_SECONDS,
      pairedResult,
      record: async (name, result) => {
        results.scenarios[name] = result;
        await save();
      },
    });
    await save();
  }

  if (signedNames.length > 0) {
    // Reads and signing with a key that requires Ed25519 request signatures on every route, against a plain key of
    // another game; the verifier's parts and the client's signing alone in a process of their own.
    results.floors.signatureVerifier = JSON.parse(execFileSync(process.execPath, [join(root, 'bench/signed-requests/verifier.mjs'), '--json'], { encoding: 'utf8' }));
    results.signedRequests = await signedScenarios(platform, signedNames, {
      rounds: ROUND_COUNT,
      duration: ROUND_SECONDS,
      warmup: ROUND_WARMUP_SECONDS,
      pairedResult,
      record: async (name, result) => {
        results.scenarios[name] = result;
        await save();
      },
    });
    await save();
  }

  if (idempotencyNames.length > 0) {
    // Writes with a new Idempotency-Key each, against the same writes without one.
    results.idempotency = await idempotencyScenarios(platform, idempotencyNames, {
      rounds: ROUND_COUNT,
      duration: ROUND_SECONDS,
      warmup: ROUND_WARMUP_SECONDS,
      pairedResult,
      record: async (name, result) => {
        results.scenarios[name] = result;
        await save();
      },
    });
    await save();
  }
  if (only.includes('idempotency') || only.includes(IDEMPOTENCY_COUNT)) {
    // What an Idempotency-Key adds in Redis commands and PostgreSQL statements, on a platform of its own whose Redis
    // and PostgreSQL nothing else uses (started and removed here).
    console.log(`--- ${IDEMPOTENCY_COUNT}`);
    results.idempotencyCount = await countIdempotentWrites();
    await save();
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
    const databaseBefore = await platform.databaseActivity();
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
    // Read after the floors above (over 10 s later), so every backend has reported its counts since the last pair.
    results.scenarios['player-create'].database = perPlayer(databaseBefore, await platform.databaseActivity());
    await save();
  }

  if (only.includes('hsm')) {
    // The same requests against a second platform whose wallet keeps its master key in SoftHSM2, flipped pairs with
    // this one (master key in the environment); only one of the two is under load at a time. SoftHSM2 runs in the
    // wallet's process, so it is called as the docs advise for such a token (PKCS11_CALLS=sync); then signing again
    // with the default, each call on one of libuv's threads (PKCS11_CALLS=async, as for a network HSM).
    console.log('--- hsm');
    const signOn = (base, walletId, headers) => post(`${base}/v1/wallet/${walletId}/sign`, { chain: 'evm', message: 'bench message' }, headers);
    const createOn = (coreUrl, headers) => ({
      url: `${coreUrl}/v1/player/create`,
      requests: [{ method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, setupRequest: (request) => ({ ...request, body: JSON.stringify({ uniqueId: `bench-${randomBytes(8).toString('hex')}` }) }) }],
    });
    const envSide = (name, options) => ({ name: `${name}, master key in the environment`, options });
    for (const calls of ['sync', 'async']) {
      const token = softHsmWalletEnv();
      const hsmPlatform = await startPlatform(`hsm-${calls}`, undefined, { extraEnv: { ...token.env, PKCS11_CALLS: calls } });
      try {
        const hsmGame = await hsmPlatform.game();
        const hsmKey = { 'x-api-key': hsmGame.key };
        const hsmPlayer = await json('POST', `${hsmPlatform.coreUrl}/v1/player/create`, { uniqueId: 'bench-signer' }, hsmKey);
        const hsmSide = (name, options) => ({ name: `${name}, master key in SoftHSM2 (PKCS11_CALLS=${calls})`, options });
        const suffix = calls === 'sync' ? '' : '-async';
        const sign = await pairedRounds(envSide('sign evm', signOn(platform.baseUrl, player.walletId, apiKey)), hsmSide('sign evm', signOn(hsmPlatform.baseUrl, hsmPlayer.walletId, hsmKey)), { rounds: ROUND_COUNT });
        results.scenarios[`sign-evm-hsm${suffix}`] = pairedResult(`POST /v1/wallet/{id}/sign, evm, master key in SoftHSM2, PKCS11_CALLS=${calls}`, 'master key in the environment', sign);
        if (calls === 'sync') {
          const create = await pairedRounds(envSide('player create', createOn(platform.coreUrl, apiKey)), hsmSide('player create', createOn(hsmPlatform.coreUrl, hsmKey)), { rounds: ROUND_COUNT });
          results.scenarios['player-create-hsm'] = pairedResult('POST /v1/player/create, master key in SoftHSM2, PKCS11_CALLS=sync', 'master key in the environment', create);
        }
        const peaks = memoryOf(hsmPlatform.appPids(), ` (hsm, ${calls})`);
        hsmMemory = { peak: { ...hsmMemory?.peak, ...peaks.peak }, now: { ...hsmMemory?.now, ...peaks.now } };
      } finally {
        await hsmPlatform.stop();
        rmSync(token.folder, { recursive: true, force: true });
      }
      await save();
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
      await save();
    }
    const forward = await pairedRounds(hello, ours, { rounds: ROUND_COUNT });
    results.scenarios.forward = pairedResult(ours.name, undefined, forward);
  }
  if (only.includes('auth')) {
    results.floors.es256Micros = es256Micros();
  }
  // Over the whole run: read last, while every app still runs.
  const memory = memoryOf(platform.appPids());
  results.peakRssMb = { ...memory.peak, ...hsmMemory?.peak };
  results.rssAtEndMb = { ...memory.now, ...hsmMemory?.now };
  await save();
  cancelTimeLimit();
} finally {
  await platform.stop();
}
// The gateway wrote its profile as it stopped: where its time went, and how much of it the signature check and the
// Idempotency-Key took, when those sets ran.
const focuses = [...(signedNames.length > 0 ? ['libs/auth/src/request-signature.ts'] : []), ...(idempotencyNames.length > 0 ? ['apps/gateway/src/idempotency/'] : [])];
if ((process.env.BENCH_CPU_PROF ?? '').split(',').includes('gateway') && focuses.length > 0) {
  const file = newestProfile('/tmp/prof/gateway', runStartedAt);
  if (file) {
    results.gatewayProfile = summariseProfile(file, join(root, 'dist/apps/gateway/main.js.map'), focuses);
  }
}
console.log(await save());

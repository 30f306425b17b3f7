// The report of `npm run bench`: the Markdown tables and the SVG chart written beside latest.json. `node
// bench/report.mjs` writes them again from bench/results/latest.json without running anything.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** CPU µs per request summed over every process but the load generator. */
export const serverMicros = (cpu) => Object.entries(cpu).filter(([label]) => !label.startsWith('load generator')).reduce((total, [, micros]) => total + micros, 0);
/** CPU µs per request summed over every process (the machine's cost of one request). */
const machineMicros = (cpu) => Object.values(cpu).reduce((total, micros) => total + micros, 0);

/** Writes `<name>.md` and `<name>.svg` (latest unless `--out` named another) into `folder` from the results; answers the Markdown. */
export async function writeReport(folder, results, name = 'latest') {
  const markdown = report(results);
  await writeFile(join(folder, `${name}.md`), markdown);
  await writeFile(join(folder, `${name}.svg`), chart(results));
  return markdown;
}

function report(results) {
  const { machine: host, rounds, roundSeconds, warmupSeconds, scenarios, floors, peakRssMb, rssAtEndMb } = results;
  const rows = Object.entries(scenarios).filter(([, scenario]) => scenario.median);
  const baselineOf = (scenario) => scenario.ratioTo ?? 'bare hello';
  // Each comparison's own processes once, under the first scenario measured against it.
  const firstOfBaseline = new Set(rows.filter(([, scenario], index) => rows.findIndex(([, other]) => baselineOf(other) === baselineOf(scenario)) === index).map(([name]) => name));
  const cpuRow = (name, side) => `| ${name} | ${cpuLabels.map((label) => side.cpuMicrosPerRequest[label] ?? '').join(' | ')} |`;
  // Every process that worked in a scenario or in its comparison (bare hello's own server included).
  const cpuLabels = [...new Set(rows.flatMap(([, scenario]) => [scenario.median.b, scenario.median.a].flatMap((side) => Object.entries(side.cpuMicrosPerRequest).filter(([, micros]) => micros > 0).map(([label]) => label))))];
  return [
    '# Benchmarks (`npm run bench`)',
    '',
    `${host} · 64 connections unless a scenario says otherwise · ${rounds} flipped pairs of ${roundSeconds} s runs (each after ${warmupSeconds} s of warm-up); the median pair counts`,
    '',
    ...targetLines(results),
    '| scenario | req/s | ratio | to | p99 ms (median) | errors (both sides) |',
    '|---|---:|---:|---|---:|---:|',
    ...rows.map(([, s]) => `| ${s.name} | ${s.median.b.rps.toLocaleString('en-US')} | ${s.ratio.toFixed(2)} × | ${s.ratioTo ?? 'bare hello'} (${s.median.a.rps.toLocaleString('en-US')}/s) | ${s.p99} | ${s.errors} |`),
    '',
    'CPU time per request, µs, by process, in the median pair (all processes share the cores):',
    '',
    `| scenario | ${cpuLabels.join(' | ')} |`,
    `|---|${cpuLabels.map(() => '---:').join('|')}|`,
    ...rows.flatMap(([name, s]) => [cpuRow(s.name, s.median.b), ...(firstOfBaseline.has(name) || s.delivery ? [cpuRow(`↳ ${baselineOf(s)}, in the same pair`, s.median.a)] : [])]),
    ...databaseLines(scenarios['player-create']),
    ...primitiveLines(floors ?? {}),
    ...placementLines(scenarios),
    ...hsmCost(scenarios),
    ...webhookLines(results),
    ...signedLines(results),
    ...idempotencyLines(results),
    ...profileLines(results),
    ...floorLines(scenarios, floors ?? {}),
    '',
    `Peak RSS of each app over the whole run (MB): ${Object.entries(peakRssMb ?? {}).map(([app, mb]) => `${app} ${mb}`).join(', ')}`,
    ...(rssAtEndMb ? ['', `RSS at the end of the run (MB): ${Object.entries(rssAtEndMb).map(([app, mb]) => `${app} ${mb}`).join(', ')}`] : []),
    '',
  ].join('\n');
}

/** The signature primitives' table (bench/signing/primitives.mjs, in the same run). */
function primitiveLines(floors) {
  const run = floors.primitives;
  if (!run) return [];
  return [
    '',
    `The signature primitive alone (bench/signing/primitives.mjs: Node ${run.node}, @noble/curves ${run.nobleCurves}, secp256k1 ${run.libsecp256k1}; one thread, a fresh raw key each signature, ${run.rounds} turns of ${run.turnMs} ms, the median turn):`,
    '',
    '| chain | primitive | µs CPU per signature | per second, one core | check |',
    '|---|---|---:|---:|---|',
    ...run.rows.map((row) => `| ${row.chain} | ${row.name} | ${row.micros} | ${row.perSecond.toLocaleString('en-US')} | ${row.check} |`),
  ];
}

/** Signing alone with the primitive on the event loop against the worker pool, per chain. */
function placementLines(scenarios) {
  const rows = ['evm', 'sol', 'sui'].map((chain) => [chain, scenarios[`placement-${chain}`]]).filter(([, s]) => s);
  if (rows.length === 0) return [];
  const cpu = (side) => side.cpuMicrosPerRequest['signing (bench process)'] ?? 0;
  return [
    '',
    "Where the primitive runs: signing alone (a sealed key opened and signed through the wallet's ChainKeys, 64 at a time, in the benchmark's process), median pair; the event loop's delay is what a read waits for meanwhile:",
    '',
    '| chain | event loop /s | worker pool /s | worker ÷ loop | CPU µs per signature loop → worker | loop delay p99 ms loop → worker | chosen |',
    '|---|---:|---:|---:|---|---|---|',
    ...rows.map(([chain, s]) => `| ${chain} | ${s.median.a.rps.toLocaleString('en-US')} | ${s.median.b.rps.toLocaleString('en-US')} | ${s.ratio.toFixed(2)} × | ${cpu(s.median.a)} → ${cpu(s.median.b)} | ${s.loopDelayP99.eventLoop} → ${s.loopDelayP99.worker} | ${s.placement} |`),
  ];
}

/** PostgreSQL's work per new player over the player-create pairs (pg_stat_database of the platform's database). */
function databaseLines(create) {
  const db = create?.database;
  if (!db) return [];
  return ['', `PostgreSQL per new player, over the ${db.players.toLocaleString('en-US')} players of the player-create pairs: ${db.commits} commits, ${db.inserted} rows inserted, ${db.updated} updated, ${db.fetched} fetched.`];
}

/** The machine's CPU of one forward at player creation's rate: the forward's processes, and one hop (the forward less bare hello's server). */
function forwardAtRate(atRate) {
  const parts = ['gateway (bench server)', 'service (bench server)', 'redis'];
  const cost = parts.reduce((total, label) => total + (atRate.forward[label] ?? 0), 0);
  const hello = atRate.hello['hello (bench server)'] ?? 0;
  return { parts, cost, hello, hop: cost - hello, player: cost + 2 * (cost - hello) };
}

/** The issue's targets beside the results, each with what bounds it on this machine (measured in the same run). */
export const TARGETS = {
  playerCreate: 0.6,
  outsideKeyGenerationMicros: 2000,
  walletRead: 0.5,
  gatewayCpuToHello: 2,
  walletReadP99: 10,
  authenticate: 0.35,
  transport: 2,
  rssMb: 200,
  signPolicy: 0.9,
  policyEvaluationMicros: 50,
  /** each signing route with a sealed chain key against the same route signing from entropy */
  sealedToEntropy: { evm: 3, sol: 5, sui: 5 },
  /** evm's sign route against signing alone (where the primitive dominates) */
  signToAlone: { evm: 0.5 },
  /** CPU per signature outside the primitive, summed over the platform's processes (PostgreSQL and Redis included) */
  outsidePrimitiveMicros: 300,
  readBesideSigningP99: 15,
  hsmSign: 0.8,
  /** player creation and signing with one webhook endpoint of every event, against a game with none */
  webhooks: 0.9,
  /** from a change's commit to its webhook's delivery, at the benchmark's rate */
  webhookDelayP99Ms: 1000,
  /** wallet reads and signing with a key requiring Ed25519 request signatures on every route, against a plain key */
  signedRequests: 0.85,
  /** Redis round trips an Idempotency-Key may add to a write */
  idempotencyRedisRoundTrips: 2,
  /** PostgreSQL statements an Idempotency-Key adds to a write: its claim (INSERT … ON CONFLICT) and its kept answer (UPDATE) */
  idempotencyStatements: 2,
};

const PLATFORM_PROCESSES = ['gateway', 'identity', 'wallet', 'core', 'postgres', 'redis'];
/** CPU µs per request of the platform's own processes (not the load generator, nor the rest of the shared machine). */
const platformMicros = (cpu) => PLATFORM_PROCESSES.reduce((total, label) => total + (cpu[label] ?? 0), 0);
/** µs per signature of the wallet's own primitive for `chain`, from the primitives' run. */
const primitiveMicros = (floors, chain) => floors.primitives?.rows.find((row) => row.chain === chain && row.name === "the wallet's SIGNATURE_PRIMITIVES")?.micros;

function signingRows({ scenarios, floors = {} }) {
  const rows = [];
  const ratio = (value) => `${value.toFixed(2)} ×`;
  for (const chain of ['evm', 'sol', 'sui']) {
    const alone = scenarios[`sign-${chain}-alone`];
    for (const route of ['sign', 'sign-transaction']) {
      const sealed = scenarios[`${route}-${chain}-sealed`];
      if (!sealed) continue;
      const target = TARGETS.sealedToEntropy[chain];
      const [entropyCpu, sealedCpu] = [platformMicros(sealed.median.a.cpuMicrosPerRequest), platformMicros(sealed.median.b.cpuMicrosPerRequest)];
      rows.push([
        `${route} ${chain}, sealed chain key ≥ ${target} × from entropy`,
        `${ratio(sealed.ratio)} (${sealed.median.b.rps.toLocaleString('en-US')}/s against ${sealed.median.a.rps.toLocaleString('en-US')}/s)`,
        sealed.ratio >= target,
        `platform CPU per signature ${sealedCpu} µs against ${entropyCpu} µs from entropy (${ratio(entropyCpu / sealedCpu)}); wallet ${sealed.median.b.cpuMicrosPerRequest.wallet ?? 0} against ${sealed.median.a.cpuMicrosPerRequest.wallet ?? 0} µs`,
      ]);
    }
    const sealedSign = scenarios[`sign-${chain}-sealed`];
    const primitive = primitiveMicros(floors, chain);
    if (sealedSign && primitive !== undefined) {
      const cpu = sealedSign.median.b.cpuMicrosPerRequest;
      const outside = platformMicros(cpu) - primitive;
      const forward = floors.forwardCpu ? (floors.forwardCpu['gateway (bench server)'] ?? 0) + (floors.forwardCpu['service (bench server)'] ?? 0) + (floors.forwardCpu.redis ?? 0) : undefined;
      rows.push([
        `sign ${chain}: CPU per signature outside the primitive ≤ ${TARGETS.outsidePrimitiveMicros / 1000} ms`,
        `${(outside / 1000).toFixed(2)} ms (${platformMicros(cpu)} µs over ${PLATFORM_PROCESSES.join(', ')}, less the primitive's ${primitive} µs)`,
        outside <= TARGETS.outsidePrimitiveMicros,
        forward === undefined
          ? ''
          : `a bare forward with no work (gateway, service, Redis; saturated, this run): ${forward} µs; with this route's PostgreSQL ${cpu.postgres ?? 0} µs (the audit record): ${((forward + (cpu.postgres ?? 0)) / 1000).toFixed(2)} ms before any wallet logic`,
      ]);
    }
    if (alone) {
      const target = TARGETS.signToAlone[chain];
      const [aloneCpu, routeCpu] = [alone.median.a.cpuMicrosPerRequest['signing (bench process)'] ?? 0, platformMicros(alone.median.b.cpuMicrosPerRequest) + (alone.median.b.cpuMicrosPerRequest['load generator (autocannon)'] ?? 0)];
      rows.push([
        target === undefined ? `sign ${chain} against signing alone (no target)` : `sign ${chain} ≥ ${target} × signing alone`,
        `${ratio(alone.ratio)} (${alone.median.b.rps.toLocaleString('en-US')}/s against ${alone.median.a.rps.toLocaleString('en-US')}/s, ${alone.placement})`,
        target === undefined ? true : alone.ratio >= target,
        `CPU per signature alone ${aloneCpu} µs, through HTTP ${routeCpu} µs (platform and load generator): about ${ratio(aloneCpu / routeCpu)} at best on the same cores${scenarios.forward ? `; a bare forward runs at ${ratio(scenarios.forward.ratio)} bare hello` : ''}`,
      ]);
    }
    const beside = scenarios[`read-beside-${chain}`];
    if (beside) {
      rows.push([
        `wallet read p99 ≤ ${TARGETS.readBesideSigningP99} ms at 64 connections, ${chain} signing at 64 beside`,
        `${beside.p99} ms (reads ${beside.median.b.rps.toLocaleString('en-US')}/s, signatures ${beside.signRps.toLocaleString('en-US')}/s, ${beside.signErrors} failed)`,
        beside.p99 <= TARGETS.readBesideSigningP99,
        `the same reads alone: p99 ${beside.baselineP99} ms; both loads come from one load-generator process`,
      ]);
    }
  }
  const hsm = scenarios['sign-evm-hsm'];
  const hsmAsync = scenarios['sign-evm-hsm-async'];
  if (hsm) {
    const walletMicros = (scenario) => `${scenario.median.b.cpuMicrosPerRequest.wallet ?? 0} µs against ${scenario.median.a.cpuMicrosPerRequest.wallet ?? 0}`;
    rows.push([
      `sign evm, master key in SoftHSM2 (PKCS11_CALLS=sync, as for a token in the process) ≥ ${TARGETS.hsmSign} × the environment keyring`,
      ratio(hsm.ratio),
      hsm.ratio >= TARGETS.hsmSign,
      `wallet CPU per signature ${walletMicros(hsm)} (the token's unwrap of the data key runs in the wallet's process)` +
        (hsmAsync ? `; with the default PKCS11_CALLS=async (each call on a libuv thread, as for a network HSM) ${ratio(hsmAsync.ratio)}, wallet ${walletMicros(hsmAsync)}` : ''),
    ]);
  }
  return rows;
}

function targetRows(results) {
  const { scenarios, floors = {}, peakRssMb, rssAtEndMb } = results;
  const rows = [];
  const ratio = (value) => `${value.toFixed(2)} ×`;
  const forward = scenarios.forward;
  const create = scenarios['player-create'];
  if (create) {
    const cpu = create.median.b.cpuMicrosPerRequest;
    const keyGeneration = create.median.a.cpuMicrosPerRequest['key generation (bench process)'] ?? machineMicros(create.median.a.cpuMicrosPerRequest);
    const total = serverMicros(cpu);
    const postgres = cpu.postgres ?? 0;
    const hops = floors.playerCreateRate ? forwardAtRate(floors.playerCreateRate).player : undefined;
    rows.push([
      `player create ≥ ${TARGETS.playerCreate} × key generation alone`,
      ratio(create.ratio),
      create.ratio >= TARGETS.playerCreate,
      hops === undefined
        ? ''
        : `key generation ${keyGeneration} µs per key; with the hops of one request at a time at this rate beside it (${hops} µs) ${ratio(keyGeneration / (keyGeneration + hops))}, with PostgreSQL's ${postgres} µs too ${ratio(keyGeneration / (keyGeneration + hops + postgres))} (the wallet's shares of key work carry many players per wake-up, so these are not ceilings)`,
    ]);
    rows.push([
      `CPU per player outside key generation ≤ ${TARGETS.outsideKeyGenerationMicros / 1000} ms`,
      `${((total - keyGeneration) / 1000).toFixed(1)} ms (${total} µs in all less ${keyGeneration} for the keys)`,
      total - keyGeneration <= TARGETS.outsideKeyGenerationMicros,
      hops === undefined ? '' : `the forward and two hops, one request at a time at this rate: ${hops} µs; PostgreSQL ${postgres} µs${create.database ? ` (${create.database.commits} commits per player)` : ''}: ${((hops + postgres) / 1000).toFixed(1)} ms before any app logic`,
    ]);
  }
  const read = scenarios['wallet-read-key'];
  if (read) {
    rows.push([`wallet read (API key) ≥ ${TARGETS.walletRead} × bare hello`, ratio(read.ratio), read.ratio >= TARGETS.walletRead, forward ? `a bare forward with no work: ${ratio(forward.ratio)}` : '']);
    const gateway = read.median.b.cpuMicrosPerRequest.gateway ?? 0;
    const hello = read.median.a.cpuMicrosPerRequest['hello (bench server)'] ?? 0;
    const forwardGateway = forward?.median.b.cpuMicrosPerRequest['gateway (bench server)'];
    const forwardHello = forward?.median.a.cpuMicrosPerRequest['hello (bench server)'];
    const transportPair = scenarios['transport-c64'];
    const builtinGateway = transportPair?.median.a.cpuMicrosPerRequest['gateway (bench server)'];
    rows.push([
      `gateway CPU per read ≤ ${TARGETS.gatewayCpuToHello} × bare hello's`,
      `${gateway} µs against ${hello} (${ratio(gateway / hello)})`,
      gateway <= TARGETS.gatewayCpuToHello * hello,
      [
        forwardGateway && forwardHello ? `the bare forward's gateway: ${forwardGateway} µs against ${forwardHello} (${ratio(forwardGateway / forwardHello)})` : '',
        builtinGateway && forwardHello ? `the gateway of NestJS's built-in Redis transport, same forward: ${builtinGateway} µs (${ratio(builtinGateway / forwardHello)})` : '',
      ]
        .filter(Boolean)
        .join('; '),
    ]);
    rows.push([
      `wallet read p99 ≤ ${TARGETS.walletReadP99} ms at 64 connections`,
      `${read.p99} ms`,
      read.p99 <= TARGETS.walletReadP99,
      [forward ? `the bare forward: ${forward.p99} ms` : '', transportPair ? `the same forward over the built-in transport: ${transportPair.baselineP99} ms` : ''].filter(Boolean).join('; '),
    ]);
  }
  const auth = scenarios.auth;
  if (auth) {
    const ceiling = forward && floors.es256Micros !== undefined ? machineMicros(forward.median.a.cpuMicrosPerRequest) / (machineMicros(forward.median.b.cpuMicrosPerRequest) + floors.es256Micros) : undefined;
    // Authenticate does what a wallet read does (the key checked, one forward, a cached lookup) and signs a token.
    const readCeiling = read && floors.es256Micros !== undefined ? machineMicros(read.median.a.cpuMicrosPerRequest) / (machineMicros(read.median.b.cpuMicrosPerRequest) + floors.es256Micros) : undefined;
    rows.push([
      `authenticate ≥ ${TARGETS.authenticate} × bare hello`,
      ratio(auth.ratio),
      auth.ratio >= TARGETS.authenticate,
      [
        ceiling === undefined ? '' : `a bare forward plus one ES256 signature (${floors.es256Micros} µs): at most ${ratio(ceiling)}`,
        readCeiling === undefined ? '' : `this run's wallet read plus that signature: at most ${ratio(readCeiling)}`,
      ]
        .filter(Boolean)
        .join('; '),
    ]);
  }
  const transport = scenarios['transport-c64'];
  if (transport) {
    const builtin = machineMicros(transport.median.a.cpuMicrosPerRequest);
    const ours = machineMicros(transport.median.b.cpuMicrosPerRequest);
    const http = forward ? machineMicros(forward.median.a.cpuMicrosPerRequest) : undefined;
    const serviceSide = (transport.median.b.cpuMicrosPerRequest['service (bench server)'] ?? 0) + (transport.median.b.cpuMicrosPerRequest.redis ?? 0);
    rows.push([
      `our transport ≥ ${TARGETS.transport} × the built-in at 64 connections`,
      ratio(transport.ratio),
      transport.ratio >= TARGETS.transport,
      http === undefined
        ? ''
        : `machine CPU per request ${ours} µs against ${builtin}; both include the HTTP side of bare hello (${http} µs with its load generator), so the transports' own parts are ${ours - http} against ${builtin - http} µs (${ratio((builtin - http) / (ours - http))}), and ${TARGETS.transport} × overall needs ours ≤ ${Math.round(builtin / TARGETS.transport - http)} µs; of ours, the service process and Redis alone take ${serviceSide} µs`,
    ]);
  }
  const policy = scenarios['sign-policy'];
  if (policy) {
    const walletOf = (side) => side.cpuMicrosPerRequest.wallet ?? 0;
    const added = walletOf(policy.median.b) - walletOf(policy.median.a);
    rows.push([
      `signing under 50 rules ≥ ${TARGETS.signPolicy} × one accept rule`,
      ratio(policy.ratio),
      policy.ratio >= TARGETS.signPolicy,
      [
        `the wallet's CPU per signature ${walletOf(policy.median.b)} µs against ${walletOf(policy.median.a)} (${added} µs more: the 50 rules and their velocity count in Redis)`,
        scenarios['sign-policy-no-velocity'] ? `the same 50 rules without their velocity limits: ${ratio(scenarios['sign-policy-no-velocity'].ratio)} (the count in Redis is one script per signature)` : '',
      ]
        .filter(Boolean)
        .join('; '),
    ]);
    if (floors.policyEvaluationMicros !== undefined) {
      rows.push([
        `evaluating the 50 rules ≤ ${TARGETS.policyEvaluationMicros} µs per request`,
        `${floors.policyEvaluationMicros} µs`,
        floors.policyEvaluationMicros <= TARGETS.policyEvaluationMicros,
        "the wallet's compiled rules engine in a process of its own, every rule applying, each request's calldata decoded by ABI once per function the rules read (their fragments parsed once), velocity answered at once",
      ]);
    }
  }
  rows.push(...signingRows({ scenarios, floors }));
  rows.push(...webhookRows(results));
  rows.push(...signedRows(results));
  rows.push(...idempotencyRows(results));
  const peaks = Object.entries(peakRssMb ?? {}).filter(([, mb]) => mb !== null);
  if (peaks.length > 0) {
    const over = peaks.filter(([, mb]) => mb > TARGETS.rssMb);
    const largestUnder = Math.max(0, ...peaks.filter(([, mb]) => mb <= TARGETS.rssMb).map(([, mb]) => mb));
    const identityAtEnd = rssAtEndMb?.identity;
    rows.push([
      `every app ≤ ${TARGETS.rssMb} MB RSS`,
      over.length === 0 ? `largest peak ${Math.max(...peaks.map(([, mb]) => mb))} MB` : `peak ${over.map(([app, mb]) => `${app} ${mb}`).join(', ')} MB; the others ≤ ${largestUnder} MB`,
      over.length === 0,
      identityAtEnd === undefined ? '' : `identity hashes console passwords with scrypt at N = 2^15, r = 8, p = 3 (OWASP), which works in 32 MiB per hash; its RSS at the end of the run: ${identityAtEnd} MB`,
    ]);
  }
  return rows;
}

function targetLines(results) {
  const rows = targetRows(results);
  if (rows.length === 0) return [];
  return [
    '## Targets',
    '',
    '| target | result | met | what bounds it here, measured in this run |',
    '|---|---|---|---|',
    ...rows.map(([target, result, met, bound]) => `| ${target} | ${result} | ${met ? 'yes' : '**no**'} | ${bound} |`),
    '',
    '## Scenarios',
    '',
  ];
}

/**
 * Costs of the machine rather than of the apps, measured in the same run: the bare forward's ratio (the ceiling of
 * every route that asks a service), the cost of the ES256 signature an authenticate adds to it, and what a request
 * costs at player creation's rate.
 */
function floorLines(scenarios, floors) {
  const lines = [];
  const forward = scenarios.forward?.median;
  if (forward) {
    lines.push(
      `- A bare forward over our transport (HTTP → gateway → Redis stream → service → reply, no work) runs at **${scenarios.forward.ratio.toFixed(2)} ×** bare hello: the ceiling of every route that asks a service (wallet read, authenticate). Machine CPU per request: bare hello ${machineMicros(forward.a.cpuMicrosPerRequest)} µs, the forward ${machineMicros(forward.b.cpuMicrosPerRequest)} µs (load generator included).`,
    );
    if (floors.es256Micros !== undefined) {
      const hello = machineMicros(forward.a.cpuMicrosPerRequest);
      const withSignature = machineMicros(forward.b.cpuMicrosPerRequest) + floors.es256Micros;
      lines.push(`- One ES256 signature (node:crypto, P-256) costs **${floors.es256Micros} µs** of CPU: an authenticate, a forward plus its token's signature, can reach at most about ${(hello / withSignature).toFixed(2)} × bare hello here.`);
    }
  }
  const atRate = floors.playerCreateRate;
  if (atRate) {
    // Only the processes that serve the request: bare hello's server; the forward's gateway, service and Redis.
    const { parts, cost, hello, hop, player } = forwardAtRate(atRate);
    lines.push(
      `- At player creation's rate (${atRate.rate} req/s, requests arriving a few at a time, each process waking for each), bare hello's server spends **${hello} µs** of CPU per request (${atRate.helloSaturated['hello (bench server)'] ?? 0} µs saturated), and a bare forward **${cost} µs** (${parts.map((label) => `${label} ${atRate.forward[label] ?? 0}`).join(', ')}). A new player takes one forward (gateway → core) and two more hops (core → identity, core → wallet) of about ${hop} µs each (a forward less bare hello's server), so about ${player} µs of CPU outside key generation before any database work, at this rate.`,
    );
  }
  return lines.length > 0 ? ['', 'Floors measured in this run (the cost of the round trips themselves, with no work in them, on this machine):', '', ...lines] : [];
}

/** What keeping the master key in the HSM costs per operation, from the median pairs of the `*-hsm` scenarios. */
function hsmCost(scenarios) {
  const rows = ['sign-evm-hsm', 'sign-evm-hsm-async', 'player-create-hsm'].filter((name) => scenarios[name]).map((name) => scenarios[name]);
  if (rows.length === 0) return [];
  return [
    '',
    'Master key in SoftHSM2 against the environment (median pair; the wallet process runs the token, so its CPU holds the HSM work):',
    '',
    '| operation | env req/s | HSM req/s | ratio | p50 ms env → HSM | wallet CPU µs env → HSM | all processes CPU µs env → HSM |',
    '|---|---:|---:|---:|---|---|---|',
    ...rows.map((s) => {
      const [a, b] = [s.median.a, s.median.b];
      return `| ${s.name.replace(', master key in SoftHSM2', '')} | ${a.rps} | ${b.rps} | ${s.ratio.toFixed(2)} × | ${a.p50} → ${b.p50} | ${a.cpuMicrosPerRequest.wallet ?? 0} → ${b.cpuMicrosPerRequest.wallet ?? 0} | ${serverMicros(a.cpuMicrosPerRequest)} → ${serverMicros(b.cpuMicrosPerRequest)} |`;
    }),
  ];
}

const WEBHOOK_SCENARIO_NAMES = ['player-create-webhooks', 'sign-evm-webhooks', 'sign-sol-webhooks'];
/** CPU µs per request of one process in a side of a pair. */
const cpuOf = (side, label) => side.cpuMicrosPerRequest[label] ?? 0;

/** The webhooks targets: throughput with an endpoint per scenario, every event exactly once, and the delay's p99. */
function webhookRows({ scenarios, webhooks }) {
  const rows = [];
  const ratio = (value) => `${value.toFixed(2)} ×`;
  for (const name of WEBHOOK_SCENARIO_NAMES.filter((candidate) => scenarios[candidate])) {
    const s = scenarios[name];
    const [a, b] = [s.median.a, s.median.b];
    const { delivery } = s;
    const met = s.ratio >= TARGETS.webhooks && delivery.sustainedRatio >= TARGETS.webhooks;
    rows.push([
      `${name}: throughput ≥ ${TARGETS.webhooks} × a game with no endpoint, every event delivered as it comes`,
      `${ratio(s.ratio)} (${b.rps}/s against ${a.rps}/s); delivered meanwhile ${delivery.perSecond}/s, so ${ratio(delivery.sustainedRatio)} sustained`,
      met,
      `identity ${cpuOf(b, 'identity')} µs per request against ${cpuOf(a, 'identity')}, PostgreSQL ${cpuOf(b, 'postgres')} against ${cpuOf(a, 'postgres')}, the receiver ${cpuOf(b, 'receiver (bench server)')}; backlog at the end of the run ${delivery.backlog.notReceived} events (${delivery.backlog.outbox} in outboxes, ${delivery.backlog.pending} pending deliveries), drained in ${(delivery.drainMs / 1000).toFixed(1)} s (${drainRate(delivery)}/s)`,
    ]);
  }
  if (webhooks) {
    const { players, signatures, duplicatedIds, requests, distinctIds, ofOtherGames } = webhooks;
    const lost = players.missing + signatures.missing;
    const extra = players.unexpected + signatures.unexpected + players.namedTwice + signatures.namedTwice + duplicatedIds + ofOtherGames;
    rows.push([
      'a local receiver gets every event of the run exactly once (by webhook-id)',
      `${(players.expected + signatures.expected).toLocaleString('en-US')} events expected, ${lost} missing, ${duplicatedIds} ids received twice or more, ${requests - distinctIds} requests more than ids`,
      lost === 0 && extra === 0 && requests === distinctIds,
      `${players.expected} players (core.players) and ${signatures.expected} signing attempts (wallet.signature_events) of the game; ${webhooks.verified} of ${requests} requests verified (HMAC), ${webhooks.referenceChecked - webhooks.referenceFailed} of ${webhooks.referenceChecked} sampled verified by standardwebhooks`,
    ]);
    const delay = webhooks.delayMs.all;
    if (delay.count > 0) {
      const slowest = WEBHOOK_SCENARIO_NAMES.filter((name) => scenarios[name]).map((name) => scenarios[name].delivery);
      rows.push([
        `commit → delivery p99 ≤ ${TARGETS.webhookDelayP99Ms / 1000} s at the benchmark's rate`,
        `p99 ${(delay.p99 / 1000).toFixed(2)} s (p50 ${(delay.p50 / 1000).toFixed(2)} s, max ${(delay.max / 1000).toFixed(2)} s)`,
        delay.p99 <= TARGETS.webhookDelayP99Ms,
        [
          slowest.length === 0 ? '' : `deliveries kept ${slowest.map((d) => `${d.perSecond}/s`).join(', ')} while the routes made ${WEBHOOK_SCENARIO_NAMES.filter((name) => scenarios[name]).map((name) => `${scenarios[name].median.b.rps}/s`).join(', ')} (median pairs)`,
          webhooks.capped?.delayMs.count ? `evm signing capped at ${webhooks.capped.rate} req/s: p99 ${(webhooks.capped.delayMs.p99 / 1000).toFixed(2)} s` : '',
        ]
          .filter(Boolean)
          .join('; '),
      ]);
    }
  }
  return rows;
}

/** Deliveries per second while a backlog drained with no load beside it. */
const drainRate = (delivery) => (delivery.drainMs > 0 ? Math.round(delivery.backlog.notReceived / (delivery.drainMs / 1000)) : 0);

/** The delivery check, each pair's deliveries, and the delay from each change to its delivery (the `webhooks` scenarios). */
function webhookLines({ scenarios, webhooks }) {
  const names = WEBHOOK_SCENARIO_NAMES.filter((name) => scenarios[name]);
  if (names.length === 0) return [];
  const lines = [
    '',
    'Webhook deliveries (one endpoint of every event; the receiver is a process of its own): the median pair, then every pair. Delivered/s counts the requests the receiver got during the measured run; the backlog is what the game\'s changes made and the receiver had not got when the run ended (events still in an outbox, and deliveries pending in identity; an event being relayed at that moment counts in both); it then drained with no load beside it before the next run.',
    '',
    '| scenario | no endpoint req/s | with req/s | delivered/s | backlog at end (outbox, pending) | drained in (backlog ÷ time) | identity µs/req no → with | PostgreSQL µs/req no → with | receiver µs/req |',
    '|---|---:|---:|---:|---|---:|---|---|---:|',
    ...names.map((name) => {
      const s = scenarios[name];
      const [a, b] = [s.median.a, s.median.b];
      const { backlog } = s.delivery;
      return `| ${name} | ${a.rps} | ${b.rps} | ${s.delivery.perSecond} | ${backlog.notReceived} (${backlog.outbox}, ${backlog.pending}) | ${(s.delivery.drainMs / 1000).toFixed(1)} s (${drainRate(s.delivery)}/s) | ${cpuOf(a, 'identity')} → ${cpuOf(b, 'identity')} | ${cpuOf(a, 'postgres')} → ${cpuOf(b, 'postgres')} | ${cpuOf(b, 'receiver (bench server)')} |`;
    }),
    '',
    '| scenario | pair: with req/s, delivered/s, backlog at end, drained in |',
    '|---|---|',
    ...names.map((name) => `| ${name} | ${scenarios[name].delivery.pairs.map((pair) => `${pair.rps}, ${pair.deliveredPerSecond}, ${pair.backlog}, ${(pair.drainMs / 1000).toFixed(1)} s`).join(' · ')} |`),
  ];
  if (webhooks) {
    const row = (label, c) => `| ${label} | ${c.expected.toLocaleString('en-US')} | ${c.received.toLocaleString('en-US')} | ${c.missing} | ${c.unexpected} | ${c.namedTwice} |`;
    const delayRow = (label, d) => (d.count > 0 ? `| ${label} | ${d.count.toLocaleString('en-US')} | ${d.p50} | ${d.p95} | ${d.p99} | ${d.max} |` : `| ${label} | 0 | | | | |`);
    lines.push(
      '',
      `The delivery check, after the last pair had drained (and 3 s more): the game's rows in the platform's tables against the events the receiver got, by the player or audit entry each event names. Requests ${webhooks.requests.toLocaleString('en-US')}, distinct webhook-ids ${webhooks.distinctIds.toLocaleString('en-US')}, ids received more than once ${webhooks.duplicatedIds}, of another game ${webhooks.ofOtherGames}, without Standard Webhooks headers ${webhooks.unsigned}; signatures verified (node:crypto HMAC, every request) ${webhooks.verified.toLocaleString('en-US')}, and with the standardwebhooks package on one request in 100 ${webhooks.referenceChecked - webhooks.referenceFailed} of ${webhooks.referenceChecked}. Other events of the game received: ${Object.entries(webhooks.otherTypes).map(([type, count]) => `${type} ${count}`).join(', ') || 'none'}. The game with no endpoint made ${webhooks.plain.players} players and ${webhooks.plain.signatures} signing attempts; identity stored ${webhooks.plain.stored} of its events.`,
      '',
      '| events | expected (database) | received | missing | not of a row | received twice |',
      '|---|---:|---:|---:|---:|---:|',
      row('player.created (core.players, ready)', webhooks.players),
      row('wallet.signed / signing_denied (wallet.signature_events)', webhooks.signatures),
      ...Object.entries(webhooks.signatures.byChain).filter(([, c]) => c.expected + c.received > 0).map(([chain, c]) => row(`↳ ${chain}`, c)),
      '',
      "Delay from each change to its first delivery, ms: the receiver's clock when the request's body had arrived, less the event's `timestamp` (when the change was made, just before its commit); every event of the game over the whole run, drains included:",
      '',
      '| events | count | p50 | p95 | p99 | max |',
      '|---|---:|---:|---:|---:|---:|',
      ...names.map((name) => delayRow(name, webhooks.delayMs[name])),
      delayRow('all', webhooks.delayMs.all),
    );
    const { capped } = webhooks;
    if (capped) {
      lines.push(
        '',
        `Then evm signing in the same game capped at ${capped.rate} req/s (below the rate a backlog drained at): ${capped.rps} req/s, delivered ${capped.deliveredPerSecond}/s meanwhile, backlog at its end ${capped.backlog.notReceived} (${capped.backlog.outbox} in outboxes, ${capped.backlog.pending} pending), identity ${capped.cpuMicrosPerRequest.identity ?? 0} µs and PostgreSQL ${capped.cpuMicrosPerRequest.postgres ?? 0} µs per request; the delay of its events (not in the rows above):`,
        '',
        '| events | count | p50 | p95 | p99 | max |',
        '|---|---:|---:|---:|---:|---:|',
        delayRow(`sign evm at ${capped.rate} req/s`, capped.delayMs),
      );
    }
  }
  return lines;
}

const LOAD_GENERATOR = 'load generator (autocannon)';
/** The middle value (the upper middle for an even count). */
const middle = (values) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
/** The signed-requests scenarios, by name, as the targets table names them. */
const SIGNED_LABELS = {
  'signed-read': 'wallet read',
  'signed-sign-evm': 'sign evm',
  'signed-sign-sol': 'sign sol',
  'signed-read-pool': 'wallet read, the client signing on a worker pool',
  'signed-sign-evm-pool': 'sign evm, the client signing on a worker pool',
};

/**
 * What a signed scenario's median pair says: CPU per request by process plain → signed, the machine's in all, the
 * ratio the CPU alone predicts, and that ratio were the client's extra CPU on another machine (the load generator
 * shares these two cores with the platform; a game backend would not).
 */
function signedCost(scenario) {
  const [a, b] = [scenario.median.a, scenario.median.b];
  const machine = [machineMicros(a.cpuMicrosPerRequest), machineMicros(b.cpuMicrosPerRequest)];
  const client = cpuOf(b, LOAD_GENERATOR) - cpuOf(a, LOAD_GENERATOR);
  const p50 = (side) => middle(scenario.pairs.map((pair) => pair.p50[side]));
  return { a, b, machine, client, byCpu: machine[0] / machine[1], withoutClient: machine[0] / (machine[1] - client), p50: [p50(0), p50(1)] };
}

/** The request-signature check alone (bench/signed-requests/verifier.mjs), for a read or a write with a body. */
const verifierRow = (floors, route) => floors.signatureVerifier?.rows.find((row) => row.primitive === 'Ed25519' && row.shape.startsWith(route === 'read' ? 'GET' : 'POST'));
const primitivePart = (row) => Object.entries(row?.parts ?? {}).find(([part]) => part.startsWith('the signature verified'))?.[1];

function signedRows({ scenarios, floors = {} }) {
  const rows = [];
  for (const [name, label] of Object.entries(SIGNED_LABELS).filter(([candidate]) => scenarios[candidate])) {
    const s = scenarios[name];
    const { a, b, machine, client, byCpu, withoutClient, p50 } = signedCost(s);
    const check = verifierRow(floors, s.route);
    const each = (process) => `${process} ${cpuOf(a, process)} → ${cpuOf(b, process)}`;
    rows.push([
      `${label}, key requiring Ed25519 signatures on every route ≥ ${TARGETS.signedRequests} × a plain key`,
      `${s.ratio.toFixed(2)} × (${b.rps.toLocaleString('en-US')}/s against ${a.rps.toLocaleString('en-US')}/s); p50 ${p50[0]} → ${p50[1]} ms, p99 ${s.baselineP99} → ${s.p99} ms`,
      s.ratio >= TARGETS.signedRequests,
      [
        `CPU µs per request plain → signed: ${['gateway', 'redis', 'identity', LOAD_GENERATOR].map(each).join(', ')}; every process ${machine[0]} → ${machine[1]} (${byCpu.toFixed(2)} × by CPU); ${TARGETS.signedRequests} × leaves ${Math.round(machine[0] / TARGETS.signedRequests - machine[0])} µs more per request in all, the signed one took ${machine[1] - machine[0] - client} µs more outside the load generator`,
        check ? `the gateway's check alone ${check.verify} µs, of which the Ed25519 verification ${primitivePart(check)} µs` : '',
        `the client's extra (${client} µs, ${s.clientSignMicros} µs of it signing) on another machine, as a game backend's would be: about ${withoutClient.toFixed(2)} ×`,
        s.pool ? `${s.pool.fromPool.toLocaleString('en-US')} signatures from ${s.pool.threads} threads, ${s.pool.inline} signed inline when none was ready, sent ${s.pool.ageMs.p50} ms after signing (p99 ${s.pool.ageMs.p99}, max ${s.pool.ageMs.max})` : '',
      ]
        .filter(Boolean)
        .join('; '),
    ]);
  }
  return rows;
}

function signedLines({ scenarios, floors = {}, signedRequests }) {
  const names = Object.keys(SIGNED_LABELS).filter((name) => scenarios[name]);
  if (names.length === 0) return [];
  const lines = [
    '',
    `Signed requests (RFC 9421, Ed25519): the signed side uses a key of a second game that requires signatures on every route (\`signedRequests: 'all'\`), with one Ed25519 signing key${signedRequests ? ` (${signedRequests.signingKeyId})` : ''}; the plain side a key of another game with none. The load generator signs each request as it builds it, in the benchmark's own process: a fresh nonce, the current \`created\`, \`"@method" "@target-uri" "x-api-key"\` and, with a body, its \`content-digest\`; on autocannon's thread, or on ${signedRequests?.poolThreads ?? 'a pool of'} worker threads a few requests ahead (\`-pool\`). Its CPU is the load generator's, on the same two cores as the platform. ${signedRequests ? `Before the pairs: an unsigned read with the key answered ${signedRequests.checks.unsignedRead}, a signed read ${signedRequests.checks.signedRead} and a signed /sign ${signedRequests.checks.signedSign}, so every 2xx of the signed side passed the gateway's check.` : ''}`,
    '',
    '| scenario | plain req/s | signed req/s | ratio | p50 ms plain → signed | p99 ms plain → signed | gateway µs/req | load generator µs/req | Redis µs/req | every process µs/req | by CPU | client elsewhere |',
    '|---|---:|---:|---:|---|---|---|---|---|---|---:|---:|',
    ...names.map((name) => {
      const s = scenarios[name];
      const { a, b, machine, byCpu, withoutClient, p50 } = signedCost(s);
      const pair = (process) => `${cpuOf(a, process)} → ${cpuOf(b, process)}`;
      return `| ${name} | ${a.rps.toLocaleString('en-US')} | ${b.rps.toLocaleString('en-US')} | ${s.ratio.toFixed(2)} × | ${p50[0]} → ${p50[1]} | ${s.baselineP99} → ${s.p99} | ${pair('gateway')} | ${pair(LOAD_GENERATOR)} | ${pair('redis')} | ${machine[0]} → ${machine[1]} | ${byCpu.toFixed(2)} × | ${withoutClient.toFixed(2)} × |`;
    }),
    '',
    '"By CPU" is every process\'s CPU per plain request over that per signed request: the ratio the cores alone allow. "Client elsewhere" is the same with the load generator\'s extra CPU taken out (signing and the longer headers), as when the game backend runs on its own machine.',
    '',
    '| scenario | every pair: signed ÷ plain |',
    '|---|---|',
    ...names.map((name) => `| ${name} | ${scenarios[name].pairs.map((pair) => pair.ratio.toFixed(2)).join(' · ')} |`),
  ];
  const verifier = floors.signatureVerifier;
  if (verifier) {
    const parts = [...new Set(verifier.rows.flatMap((row) => Object.keys(row.parts)))];
    lines.push(
      '',
      `The check alone (bench/signed-requests/verifier.mjs, a process of its own, one thread, Node ${verifier.node}): the gateway's compiled RequestSignatureVerifier on requests the benchmark's signer made, its nonce store answering at once (the Redis SET NX is not in it), and each of its parts on the same requests; then the client's side. µs of CPU per request, the median of ${verifier.turns} turns of ${verifier.turnMs} ms:`,
      '',
      `| request | key | the whole check | ${parts.join(' | ')} | the client signs (all) | of which the signature |`,
      `|---|---|---:|${parts.map(() => '---:').join('|')}|---:|---:|`,
      ...verifier.rows.map((row) => `| ${row.shape.replace(', P-256 key', '')} | ${row.primitive} | ${row.verify} | ${parts.map((part) => row.parts[part] ?? '').join(' | ')} | ${row.clientSign} | ${row.clientPrimitive} |`),
    );
  }
  return lines;
}

/** What each focus of the gateway's profile is, and how many requests went through it (for µs per request). */
const PROFILE_FOCUS = {
  'libs/auth/src/request-signature.ts': {
    what: "the signature check and what it calls; the nonce's SET NX as far as ioredis goes before the socket, its reply read outside it",
    requests: (results) => results.signedRequests?.signaturesMade,
    unit: 'signed request',
  },
  'apps/gateway/src/idempotency/': {
    what: "the Idempotency-Key's interceptor (every request passes through it, with a key or without), store and recorder and what they call; node-postgres as far as it goes before the socket, the replies read outside them",
    requests: (results) => results.idempotency?.keysSent,
    unit: 'keyed request',
  },
};

/** The gateway's CPU profile (`BENCH_CPU_PROF=gateway`): its time by place, and each focus's share. */
function profileLines(results) {
  const profile = results.gatewayProfile;
  if (!profile) return [];
  const share = (ms) => `${((ms / profile.busyMs) * 100).toFixed(1)} %`;
  const lines = [
    '',
    `The gateway's CPU profile (\`BENCH_CPU_PROF=gateway\`: V8's sampling profiler over the whole run, both sides of every pair and the set-up): ${profile.busyMs.toLocaleString('en-US')} ms busy. A native function counts where its caller ran (node:crypto's signature verification is \`node:internal/crypto/sig\`).`,
  ];
  for (const { focus, ms, under } of profile.focuses) {
    const about = PROFILE_FOCUS[focus];
    const requests = about?.requests(results);
    lines.push(
      '',
      `Samples with ${focus} in their stack, that is ${about?.what ?? 'what it calls'}: ${ms.toLocaleString('en-US')} ms, ${share(ms)} of the busy time${requests ? ` — about ${Math.round((ms * 1000) / requests)} µs per ${about.unit} (${requests.toLocaleString('en-US')} sent, warm-ups included)` : ''}. Beneath it, by where the innermost frame ran:`,
      '',
      `| place, under ${focus} | ms | share of it |`,
      '|---|---:|---:|',
      ...Object.entries(under).map(([place, placeMs]) => `| ${place} | ${placeMs} | ${((placeMs / ms) * 100).toFixed(1)} % |`),
    );
  }
  lines.push(
    '',
    "The gateway's busy time by where it ran (self time, the first 15):",
    '',
    '| place | ms | share |',
    '|---|---:|---:|',
    ...Object.entries(profile.bySelf).map(([place, placeMs]) => `| ${place} | ${placeMs} | ${share(placeMs)} |`),
  );
  return lines;
}

const IDEMPOTENCY_ROUTES = { sign: 'POST /v1/wallet/{id}/sign, evm', create: 'POST /v1/player/create', game: 'POST /v1/console/games' };
const signed = (value) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(2)}`;

function idempotencyRows({ scenarios, idempotencyCount, idempotency }) {
  const rows = [];
  if (idempotencyCount) {
    const all = Object.entries(idempotencyCount.counts).flatMap(([route, count]) => count.rounds.map((round) => ({ route, round })));
    const redis = all.map(({ round }) => round.extra.keyed.redis);
    const commandsChanged = [...new Set(all.flatMap(({ round }) => Object.keys(round.extra.keyed.redisByCommand)))];
    const onTable = all.map(({ round }) => Object.values(round.keyed.idempotencyTable).reduce((total, calls) => total + calls, 0));
    const kinds = [...new Set(all.flatMap(({ round }) => Object.keys(round.keyed.idempotencyTable)))];
    const perRoute = (pick) => Object.entries(idempotencyCount.counts).map(([route, count]) => `${route} ${count.rounds.map((round) => signed(pick(round))).join(', ')}`).join('; ');
    rows.push([
      `an idempotent write costs ≤ ${TARGETS.idempotencyRedisRoundTrips} Redis round trips more than without a key`,
      `${signed(Math.max(...redis))} Redis commands per write at most (per round: ${perRoute((round) => round.extra.keyed.redis)})`,
      Math.max(...redis) <= TARGETS.idempotencyRedisRoundTrips,
      `commands are counted, which bound the round trips (each carries at least one). ${commandsChanged.length === 0 ? 'No command changed by 0.05 per write or more' : `Changed by 0.05 per write or more in some round: ${commandsChanged.join(', ')} (the transport's, moving with how the outbox relays batched; by round below)`}; the store is PostgreSQL's (${kinds.join(' and ')} on gateway.idempotency_keys per write). Redis when idle: ${(Object.values(idempotencyCount.idle.commands).reduce((t, c) => t + c, 0) / (idempotencyCount.idle.ms / 1000)).toFixed(1)} commands/s, subtracted over each batch's time`,
    ]);
    const statements = all.map(({ round }) => round.extra.keyed.statements);
    rows.push([
      `an idempotent write costs ${TARGETS.idempotencyStatements} PostgreSQL statements more (its claim and its kept answer)`,
      `${[...new Set(onTable.map((value) => value.toFixed(2)))].join(', ')} statements per write on gateway.idempotency_keys (${kinds.map((kind) => `${kind} ${[...new Set(all.map(({ round }) => (round.keyed.idempotencyTable[kind] ?? 0).toFixed(2)))].join('/')}`).join(', ')}), on every route and round`,
      onTable.every((value) => value === TARGETS.idempotencyStatements),
      `every statement of the platform against the same writes without a key: ${perRoute((round) => round.extra.keyed.statements)} per write (range ${signed(Math.min(...statements))} to ${signed(Math.max(...statements))}: the rest is the outbox relays' and pg-boss's polling, which follows time and batching, not the key); a replay: ${perRoute((round) => round.extra.replay.statements)} statements and ${perRoute((round) => round.extra.replay.redis)} Redis commands against a plain write (it runs nothing behind the gateway)`,
    ]);
  }
  for (const name of ['idempotent-sign-evm', 'idempotent-player-create'].filter((candidate) => scenarios[candidate])) {
    const s = scenarios[name];
    const [a, b] = [s.median.a, s.median.b];
    rows.push([
      `${name === 'idempotent-sign-evm' ? 'sign evm' : 'player create'} with a new Idempotency-Key each request against none (no target)`,
      `${s.ratio.toFixed(2)} × (${b.rps.toLocaleString('en-US')}/s against ${a.rps.toLocaleString('en-US')}/s); p50 ${middle(s.pairs.map((pair) => pair.p50[0]))} → ${middle(s.pairs.map((pair) => pair.p50[1]))} ms, p99 ${s.baselineP99} → ${s.p99} ms`,
      true,
      `${idempotency?.oneAtATime?.[s.route] ? `one at a time (${idempotency.oneAtATime[s.route].writes} of each, turn about): p50 ${idempotency.oneAtATime[s.route].plain.p50} → ${idempotency.oneAtATime[s.route].keyed.p50} ms, p99 ${idempotency.oneAtATime[s.route].plain.p99} → ${idempotency.oneAtATime[s.route].keyed.p99} ms; ` : ''}CPU µs per request without → with: gateway ${cpuOf(a, 'gateway')} → ${cpuOf(b, 'gateway')}, PostgreSQL ${cpuOf(a, 'postgres')} → ${cpuOf(b, 'postgres')}, Redis ${cpuOf(a, 'redis')} → ${cpuOf(b, 'redis')}; every process ${machineMicros(a.cpuMicrosPerRequest)} → ${machineMicros(b.cpuMicrosPerRequest)} (${(machineMicros(a.cpuMicrosPerRequest) / machineMicros(b.cpuMicrosPerRequest)).toFixed(2)} × by CPU)${idempotency ? `; over the runs ${idempotency.keysSent.toLocaleString('en-US')} keys sent, ${idempotency.answersKept.toLocaleString('en-US')} answers kept, ${idempotency.rows - idempotency.answersKept} claims left unanswered` : ''}`,
    ]);
  }
  return rows;
}

function idempotencyLines({ idempotencyCount }) {
  if (!idempotencyCount) return [];
  const { counts, idle, settleMs } = idempotencyCount;
  const lines = [
    '',
    `Idempotency-Key, counted: a second platform on a Redis and a PostgreSQL cluster of the benchmark's own (nothing else uses them; pg_stat_statements loaded there only), N writes of each route sent one at a time, without a key, with a new key each, and the keyed batch again (replays, each checked for \`Idempotent-Replayed: true\`); two rounds, the first two batches in flipped order. Every Redis command (\`INFO commandstats\`) and every statement (\`pg_stat_statements\`, BEGIN and COMMIT included) of the whole platform from just before a batch to ${settleMs / 1000} s after it, less what the idle platform issued over as long (measured over ${(idle.ms / 1000).toFixed(0)} s: ${Object.entries(idle.commands).map(([command, calls]) => `${command} ${calls}`).join(', ')}; ${Object.values(idle.statements).reduce((t, c) => t + c, 0)} statements, most of them the outbox relays' \`SELECT EXISTS\` polls), per write:`,
    '',
    '| route | N | round | Redis commands: plain, keyed, replay | statements: plain, keyed, replay | on gateway.idempotency_keys: keyed · replay | keyed − plain: Redis, statements |',
    '|---|---:|---:|---|---|---|---|',
  ];
  for (const [route, count] of Object.entries(counts)) {
    count.rounds.forEach((round, index) => {
      const table = (kinds) => Object.entries(kinds).map(([kind, calls]) => `${kind} ${calls}`).join(', ') || 'none';
      lines.push(
        `| ${IDEMPOTENCY_ROUTES[route]} | ${count.writes} | ${index + 1} | ${round.plain.redisPerWrite}, ${round.keyed.redisPerWrite}, ${round.replay.redisPerWrite} | ${round.plain.statementsPerWrite}, ${round.keyed.statementsPerWrite}, ${round.replay.statementsPerWrite} | ${table(round.keyed.idempotencyTable)} · ${table(round.replay.idempotencyTable)} | ${signed(round.extra.keyed.redis)}, ${signed(round.extra.keyed.statements)} |`,
      );
    });
  }
  const changed = Object.entries(counts).flatMap(([route, count]) =>
    count.rounds.map((round, index) => `- ${IDEMPOTENCY_ROUTES[route]}, round ${index + 1}: keyed − plain, Redis ${Object.entries(round.extra.keyed.redisByCommand).map(([command, change]) => `${command} ${signed(change)}`).join(', ') || 'no command by 0.05 or more'}; statements ${Object.entries(round.extra.keyed.statementsByQuery).map(([query, change]) => `\`${query}\` ${signed(change)}`).join(', ') || 'none by 0.2 or more'}`),
  );
  lines.push('', 'What changed by command and by statement (per write, idle rate subtracted; Redis by 0.05 or more, statements by 0.2 or more):', '', ...changed);
  return lines;
}

/** Ratio targets drawn on the chart, by scenario. */
const CHART_TARGETS = {
  'wallet-read-key': TARGETS.walletRead,
  auth: TARGETS.authenticate,
  'player-create': TARGETS.playerCreate,
  'transport-c64': TARGETS.transport,
  ...Object.fromEntries(WEBHOOK_SCENARIO_NAMES.map((name) => [name, TARGETS.webhooks])),
  ...Object.fromEntries(Object.keys(SIGNED_LABELS).map((name) => [name, TARGETS.signedRequests])),
};

/**
 * One bar per scenario, grouped by what it is compared with (bare hello first), each group with its own 1 × line; a
 * red tick marks a target, and each bar's note gives the ratio and the p99.
 */
function chart({ scenarios, machine: host }) {
  const entries = Object.entries(scenarios).filter(([, scenario]) => scenario.median);
  const baselineOf = (scenario) => scenario.ratioTo ?? 'bare hello';
  const groups = [...new Set(entries.map(([, scenario]) => baselineOf(scenario)))].map((baseline) => ({ baseline, rows: entries.filter(([, scenario]) => baselineOf(scenario) === baseline) }));
  const barHeight = 22;
  const rowHeight = barHeight + 10;
  const groupGap = 34;
  // Room for the longest label on the left and the longest note on the right (about 7 px per character at 12 px).
  const left = 20 + Math.max(...entries.map(([, row]) => row.name.length)) * 7;
  const note = (row) => `${row.ratio.toFixed(2)} × · p99 ${row.p99} ms`;
  const max = Math.max(1, ...entries.map(([name, row]) => Math.max(row.ratio, CHART_TARGETS[name] ?? 0)));
  const scale = 320 / max;
  const title = 'Throughput as a ratio (median of flipped pairs) and p99; 64 connections unless the name says otherwise';
  const width = Math.max(left + 320 + 20 + Math.max(...entries.map(([, row]) => note(row).length)) * 7, 40 + title.length * 9);
  const escape = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  // A white halo keeps a note readable where it crosses a 1 × line or a target tick.
  const halo = 'stroke="white" stroke-width="4" paint-order="stroke"';
  const parts = [];
  let y = 64;
  for (const { baseline, rows } of groups) {
    parts.push(`<text x="20" y="${y}" font-size="13" font-weight="bold">Ratio to ${escape(baseline)}</text>`);
    y += 10;
    const top = y;
    for (const [name, row] of rows) {
      const end = left + Math.max(2, row.ratio * scale);
      parts.push(
        `<text x="${left - 10}" y="${y + 15}" text-anchor="end" font-size="12">${escape(row.name)}</text>`,
        `<rect x="${left}" y="${y}" width="${end - left}" height="${barHeight}" fill="#4f46e5"/>`,
      );
      const target = CHART_TARGETS[name];
      if (target !== undefined) {
        parts.push(`<line x1="${left + target * scale}" y1="${y - 3}" x2="${left + target * scale}" y2="${y + barHeight + 3}" stroke="#dc2626" stroke-width="2"/>`);
      }
      // The note starts past the bar and past the target's tick.
      const noteX = Math.max(end, target === undefined ? 0 : left + target * scale) + 6;
      parts.push(`<text x="${noteX}" y="${y + 15}" font-size="12" ${halo}>${escape(note(row))}</text>`);
      y += rowHeight;
    }
    parts.unshift(
      `<line x1="${left + scale}" y1="${top - 4}" x2="${left + scale}" y2="${y - 6}" stroke="#999" stroke-dasharray="4 3"/>`,
      `<text x="${left + scale}" y="${top - 4}" font-size="10" text-anchor="middle" fill="#555" ${halo}>1 ×</text>`,
    );
    y += groupGap - 10;
  }
  const height = y + 10;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="20" y="24" font-size="15" font-weight="bold">${title}</text>`,
    `<text x="20" y="42" font-size="11" fill="#555">${escape(host)} · red tick: the target</text>`,
    ...parts,
    '</svg>',
    '',
  ].join('\n');
}

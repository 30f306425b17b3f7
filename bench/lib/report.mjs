// The report of `npm run bench`: the Markdown tables and the SVG chart written beside latest.json. `node
// bench/report.mjs` writes them again from bench/results/latest.json without running anything.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** CPU µs per request summed over every process but the load generator. */
export const serverMicros = (cpu) => Object.entries(cpu).filter(([label]) => !label.startsWith('load generator')).reduce((total, [, micros]) => total + micros, 0);
/** CPU µs per request summed over every process (the machine's cost of one request). */
const machineMicros = (cpu) => Object.values(cpu).reduce((total, micros) => total + micros, 0);

/** Writes latest.md and latest.svg into `folder` from the results; answers the Markdown. */
export async function writeReport(folder, results) {
  const markdown = report(results);
  await writeFile(join(folder, 'latest.md'), markdown);
  await writeFile(join(folder, 'latest.svg'), chart(results));
  return markdown;
}

function report({ machine: host, rounds, roundSeconds, warmupSeconds, scenarios, floors, peakRssMb }) {
  const rows = Object.entries(scenarios).filter(([, scenario]) => scenario.median);
  // Every process that worked in a scenario or in its comparison (bare hello's own server included).
  const cpuLabels = [...new Set(rows.flatMap(([, scenario]) => [scenario.median.b, scenario.median.a].flatMap((side) => Object.entries(side.cpuMicrosPerRequest).filter(([, micros]) => micros > 0).map(([label]) => label))))];
  return [
    '# Benchmarks (`npm run bench`)',
    '',
    `${host} · 64 connections · ${rounds} flipped pairs of ${roundSeconds} s runs (each after ${warmupSeconds} s of warm-up); the median pair counts`,
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
  return [
    '',
    'Master key in SoftHSM2 against the environment (median pair; the wallet process runs the token, so its CPU holds the HSM work):',
    '',
    '| operation | env req/s | HSM req/s | ratio | p50 ms env → HSM | wallet CPU µs env → HSM | all processes CPU µs env → HSM |',
    '|---|---:|---:|---:|---|---|---|',
    ...rows.map((s) => {
      const [a, b] = [s.median.a, s.median.b];
      return `| ${s.name.split(',')[0]} | ${a.rps} | ${b.rps} | ${s.ratio.toFixed(2)} × | ${a.p50} → ${b.p50} | ${a.cpuMicrosPerRequest.wallet ?? 0} → ${b.cpuMicrosPerRequest.wallet ?? 0} | ${serverMicros(a.cpuMicrosPerRequest)} → ${serverMicros(b.cpuMicrosPerRequest)} |`;
    }),
  ];
}

function chart({ scenarios, machine: host }) {
  const rows = Object.values(scenarios).filter((scenario) => scenario.median);
  const barHeight = 26;
  // Room for the longest label on the left and the longest note on the right (about 7 px per character at 12 px).
  const left = 20 + Math.max(...rows.map((row) => row.name.length)) * 7;
  const note = (row) => `${row.ratio.toFixed(2)} × ${row.ratioTo ?? 'hello'} · p99 ${row.p99} ms`;
  const width = left + 300 + Math.max(...rows.map((row) => note(row).length)) * 7;
  const top = 50;
  const height = top + rows.length * (barHeight + 12) + 40;
  const max = Math.max(1, ...rows.map((row) => row.ratio));
  const scale = 300 / max;
  const escape = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const bars = rows.map((row, index) => {
    const y = top + index * (barHeight + 12);
    return [
      `<text x="${left - 10}" y="${y + 17}" text-anchor="end" font-size="12">${escape(row.name)}</text>`,
      `<rect x="${left}" y="${y}" width="${Math.max(1, row.ratio * scale)}" height="${barHeight}" fill="#4f46e5"/>`,
      `<text x="${left + row.ratio * scale + 6}" y="${y + 17}" font-size="12">${escape(note(row))}</text>`,
    ].join('');
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="20" y="24" font-size="15" font-weight="bold">Throughput as a ratio (median of flipped pairs), and p99 (64 connections unless the name says otherwise)</text>`,
    `<text x="20" y="40" font-size="11" fill="#555">${escape(host)}</text>`,
    `<line x1="${left + scale}" y1="${top - 6}" x2="${left + scale}" y2="${height - 30}" stroke="#999" stroke-dasharray="4 3"/>`,
    `<text x="${left + scale}" y="${height - 16}" font-size="11" text-anchor="middle" fill="#555">1 ×</text>`,
    ...bars,
    '</svg>',
    '',
  ].join('\n');
}

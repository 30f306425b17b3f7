#!/usr/bin/env node
// npm run soak [-- --minutes 10 --rate 100]: the platform under steady mixed traffic for a long while.
//
// Starts the four apps (one replica each) on a database and Redis key prefix of their own, and sends a fixed rate of
// requests (open loop: on schedule, whatever the answers) well below saturation: player creations 15 %, wallet reads
// 40 %, signatures 30 % (evm, sol, sui in turn), profile tokens 15 %. Every 10 s it samples each app's RSS, heap in use
// and event-loop delay (p99, from its /metrics) and each route's p50/p99. Writes bench/results/soak-<date>.json and
// soak-<date>.svg (p99 per route and RSS per app over time). Fails when any request errors, when an app's RSS grows by
// more than 10 % from minute 2 to the end, or when an app goes over 200 MB.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { imageRuntime, root, startPlatform } from '../lib/platform.mjs';

const { values } = parseArgs({ options: { minutes: { type: 'string', default: '10' }, rate: { type: 'string', default: '100' } } });
const MINUTES = Number(values.minutes);
const RATE = Number(values.rate);
const SAMPLE_MS = 10_000;
const RSS_LIMIT_MB = 200;
const GROWTH_LIMIT = 0.1;
const MAX_IN_FLIGHT = 500;

// The platform starts the apps as their images run them; the results record how (NODE_OPTIONS, each app's node flags).
const NODE_OPTIONS = imageRuntime('gateway').nodeOptions;
const platform = await startPlatform('soak');
const cancelLimit = platform.timeLimit(MINUTES * 60_000 + 120_000);
const game = await platform.game();
const internal = Object.fromEntries(['gateway', 'identity', 'wallet', 'core'].map((app) => [app, platform.internalUrl(app)]));

// ---------------------------------------------------------------------------------------------------------------
// Traffic

const players = [];
const tokens = [];
let window = new Map();
const errors = [];
let inFlight = 0;
let sent = 0;

async function call(route, url, init) {
  const started = performance.now();
  inFlight += 1;
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
    const body = await response.json().catch(() => undefined);
    if (!response.ok) errors.push({ route, status: response.status, code: body?.code, at: new Date().toISOString() });
    return response.ok ? body : undefined;
  } catch (error) {
    errors.push({ route, status: `network ${error?.cause?.code ?? error?.name}`, at: new Date().toISOString() });
    return undefined;
  } finally {
    inFlight -= 1;
    const latencies = window.get(route) ?? [];
    latencies.push(performance.now() - started);
    window.set(route, latencies);
  }
}

const headers = { 'x-api-key': game.key, 'content-type': 'application/json' };
const pick = (list) => list[Math.floor(Math.random() * list.length)];

function one(n) {
  const roll = n % 20;
  if (players.length < 20 || roll < 3) {
    return call('player create', `${platform.coreUrl}/v1/player/create`, { method: 'POST', headers, body: JSON.stringify({ uniqueId: `soak-${n}` }) }).then(
      (player) => player && players.push(player),
    );
  }
  const player = pick(players);
  if (roll < 11) return call('wallet read', `${platform.baseUrl}/v1/wallet/${player.walletId}`, { headers });
  if (roll < 17) {
    const chain = ['evm', 'sol', 'sui'][n % 3];
    return call('sign', `${platform.baseUrl}/v1/wallet/${player.walletId}/sign`, { method: 'POST', headers, body: JSON.stringify({ chain, message: `soak ${n}` }) });
  }
  return call('authenticate', `${platform.baseUrl}/v1/profile/${player.profileId}/authenticate`, { method: 'POST', headers, body: '{}' }).then(
    (token) => token && tokens.push(token.jwt),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Samples

const METRICS = {
  rssMb: ['process_resident_memory_bytes', 1 / 2 ** 20],
  heapMb: ['nodejs_heap_size_used_bytes', 1 / 2 ** 20],
  eventLoopP99Ms: ['nodejs_eventloop_lag_p99_seconds', 1000],
};

async function sampleApp(url) {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Object.fromEntries(
    Object.entries(METRICS).map(([name, [metric, scale]]) => {
      const line = text.split('\n').find((candidate) => candidate.startsWith(`${metric} `) || candidate.startsWith(`${metric}{`));
      return [name, line ? Number((Number(line.trim().split(/\s+/).at(-1)) * scale).toFixed(2)) : null];
    }),
  );
}

const quantile = (sorted, q) => (sorted.length === 0 ? null : Number(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))].toFixed(1)));
const samples = [];
const started = Date.now();

async function sample() {
  const routes = Object.fromEntries(
    [...window].map(([route, latencies]) => {
      const sorted = latencies.sort((a, b) => a - b);
      return [route, { requests: sorted.length, p50Ms: quantile(sorted, 0.5), p99Ms: quantile(sorted, 0.99) }];
    }),
  );
  window = new Map();
  const apps = Object.fromEntries(await Promise.all(Object.entries(internal).map(async ([app, url]) => [app, await sampleApp(url).catch(() => null)])));
  samples.push({ seconds: Math.round((Date.now() - started) / 1000), routes, apps, errors: errors.length });
  const line = Object.entries(apps).map(([app, s]) => `${app} ${s?.rssMb ?? '?'} MB`).join(', ');
  process.stdout.write(`soak: ${samples.at(-1).seconds} s, ${sent} requests, ${errors.length} errors; RSS ${line}\n`);
}

log(`soak: ${MINUTES} min at ${RATE} requests/s (creations 15 %, wallet reads 40 %, signatures 30 %, tokens 15 %)`);
const ticker = setInterval(() => void sample(), SAMPLE_MS);
const end = started + MINUTES * 60_000;
const pending = new Set();
for (let tick = 0; Date.now() < end; tick += 1) {
  // 10 ticks a second, each sending its share of the rate; the next tick is scheduled from the start, not the last.
  const due = Math.round(((tick + 1) * RATE) / 10) - Math.round((tick * RATE) / 10);
  for (let i = 0; i < due; i += 1) {
    if (inFlight >= MAX_IN_FLIGHT) {
      errors.push({ route: 'load generator', status: `more than ${MAX_IN_FLIGHT} requests in flight`, at: new Date().toISOString() });
      continue;
    }
    const request = one(sent++);
    pending.add(request);
    void request.finally(() => pending.delete(request));
  }
  await sleep(Math.max(0, started + (tick + 1) * 100 - Date.now()));
}
await Promise.all(pending);
clearInterval(ticker);
await sample();
cancelLimit();
await platform.stop();

// ---------------------------------------------------------------------------------------------------------------
// Verdict and results

function log(line) {
  process.stdout.write(`${line}\n`);
}

// RSS saws up and down with garbage collection, so growth compares means: the minute from 2:00 (for runs under
// 5 minutes, from a fifth of the run) against the last minute.
const fromSeconds = MINUTES >= 5 ? 120 : (MINUTES * 60) / 5;
const endSeconds = samples.at(-1).seconds;
const meanRss = (app, start, stop) => {
  const values = samples.filter((s) => s.seconds >= start && s.seconds <= stop && typeof s.apps[app]?.rssMb === 'number').map((s) => s.apps[app].rssMb);
  return Number((values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length)).toFixed(1));
};
const verdict = { failures: [] };
if (errors.length > 0) verdict.failures.push(`${errors.length} requests failed (first: ${JSON.stringify(errors[0])})`);
const appNames = Object.keys(internal);
const perApp = Object.fromEntries(
  appNames.map((app) => {
    const rss = samples.map((s) => s.apps[app]?.rssMb).filter((value) => typeof value === 'number');
    const early = meanRss(app, fromSeconds, fromSeconds + 60);
    const late = meanRss(app, endSeconds - 60, endSeconds);
    const growth = late / early - 1;
    const max = Math.max(...rss);
    if (growth > GROWTH_LIMIT) verdict.failures.push(`${app}: mean RSS grew ${(growth * 100).toFixed(1)} % from the minute at ${fromSeconds} s to the last minute`);
    if (max > RSS_LIMIT_MB) verdict.failures.push(`${app}: RSS reached ${max} MB (limit ${RSS_LIMIT_MB})`);
    return [app, { rssEarlyMeanMb: early, rssLastMinuteMeanMb: late, rssMaxMb: max, growthPct: Number((growth * 100).toFixed(1)) }];
  }),
);
const routeNames = [...new Set(samples.flatMap((s) => Object.keys(s.routes)))];
const overall = Object.fromEntries(
  routeNames.map((route) => {
    const p99s = samples.map((s) => s.routes[route]?.p99Ms).filter((value) => typeof value === 'number');
    const p50s = samples.map((s) => s.routes[route]?.p50Ms).filter((value) => typeof value === 'number');
    return [route, { p50MsMedian: p50s.sort((a, b) => a - b)[Math.floor(p50s.length / 2)], p99MsWorstWindow: Math.max(...p99s) }];
  }),
);
const date = new Date().toISOString().slice(0, 10);
const result = { measuredAt: new Date().toISOString(), minutes: MINUTES, rate: RATE, nodeOptions: NODE_OPTIONS, nodeFlags: Object.fromEntries(appNames.map((app) => [app, imageRuntime(app).nodeFlags])), requests: sent, errors: errors.length, perApp, routes: overall, verdict, samples, firstErrors: errors.slice(0, 20) };
await writeFile(join(root, 'bench', 'results', `soak-${date}.json`), `${JSON.stringify(result, null, 2)}\n`);
await writeFile(join(root, 'bench', 'results', `soak-${date}.svg`), chart(samples, routeNames, appNames));
log(`soak: ${sent} requests in ${MINUTES} min, ${errors.length} errors`);
for (const [app, figures] of Object.entries(perApp)) {
  log(`  ${app}: mean RSS ${figures.rssEarlyMeanMb} MB in the minute from ${fromSeconds} s → ${figures.rssLastMinuteMeanMb} MB in the last minute (${figures.growthPct} %), max ${figures.rssMaxMb} MB`);
}
for (const [route, figures] of Object.entries(overall)) log(`  ${route}: p50 ${figures.p50MsMedian} ms (median window), p99 ${figures.p99MsWorstWindow} ms (worst window)`);
log(`results: bench/results/soak-${date}.json and .svg`);
if (verdict.failures.length > 0) {
  log(`soak FAILED:\n${verdict.failures.map((failure) => `- ${failure}`).join('\n')}`);
  process.exit(1);
}
log('soak passed');
process.exit(0);

/** Two panels sharing the time axis: p99 per route (ms), RSS per app (MB, with the 200 MB limit). */
function chart(points, routes, apps) {
  const width = 900;
  const panel = 260;
  const left = 60;
  const right = 170;
  const top = 40;
  const gap = 70;
  const colours = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b'];
  const seconds = points.at(-1)?.seconds || 1;
  const x = (s) => left + ((width - left - right) * s) / seconds;
  const escape = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;');
  function drawPanel(y0, title, unit, series, limit) {
    const max = Math.max(limit ?? 0, ...series.flatMap((line) => line.values.map(([, value]) => value))) * 1.1 || 1;
    const y = (value) => y0 + panel - (panel * value) / max;
    const parts = [
      `<text x="${left}" y="${y0 - 12}" font-size="15" font-weight="bold">${escape(title)}</text>`,
      `<line x1="${left}" y1="${y0 + panel}" x2="${width - right}" y2="${y0 + panel}" stroke="#888"/>`,
      `<line x1="${left}" y1="${y0}" x2="${left}" y2="${y0 + panel}" stroke="#888"/>`,
    ];
    for (let i = 0; i <= 4; i += 1) {
      const value = (max * i) / 4;
      parts.push(`<text x="${left - 6}" y="${y(value) + 4}" font-size="11" text-anchor="end">${value.toFixed(0)}</text>`);
      parts.push(`<line x1="${left}" y1="${y(value)}" x2="${width - right}" y2="${y(value)}" stroke="#eee"/>`);
    }
    parts.push(`<text x="14" y="${y0 + panel / 2}" font-size="11" transform="rotate(-90 14 ${y0 + panel / 2})" text-anchor="middle">${unit}</text>`);
    for (let minute = 0; minute <= seconds / 60; minute += 1) {
      parts.push(`<text x="${x(minute * 60)}" y="${y0 + panel + 16}" font-size="11" text-anchor="middle">${minute}</text>`);
    }
    if (limit !== undefined) {
      parts.push(`<line x1="${left}" y1="${y(limit)}" x2="${width - right}" y2="${y(limit)}" stroke="#d62728" stroke-dasharray="6 4"/>`);
      parts.push(`<text x="${left + 6}" y="${y(limit) - 6}" font-size="11" fill="#d62728">limit ${limit} MB</text>`);
    }
    series.forEach((line, index) => {
      const colour = colours[index % colours.length];
      parts.push(`<polyline fill="none" stroke="${colour}" stroke-width="2" points="${line.values.map(([s, value]) => `${x(s).toFixed(1)},${y(value).toFixed(1)}`).join(' ')}"/>`);
      parts.push(`<text x="${width - right + 6}" y="${y0 + 14 + index * 16}" font-size="12" fill="${colour}">${escape(line.name)}</text>`);
    });
    return parts.join('\n');
  }
  const latency = routes.map((route) => ({ name: route, values: points.filter((p) => p.routes[route]?.p99Ms != null).map((p) => [p.seconds, p.routes[route].p99Ms]) }));
  const memory = apps.map((app) => ({ name: app, values: points.filter((p) => p.apps[app]?.rssMb != null).map((p) => [p.seconds, p.apps[app].rssMb]) }));
  const height = top + panel * 2 + gap + 50;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    drawPanel(top, `Soak: p99 latency per route, every 10 s (${RATE} requests/s, ${MINUTES} min)`, 'ms', latency),
    drawPanel(top + panel + gap, 'Resident memory per app', 'MB', memory, RSS_LIMIT_MB),
    `<text x="${(width - right + left) / 2}" y="${height - 8}" font-size="12" text-anchor="middle">minutes</text>`,
    '</svg>',
    '',
  ].join('\n');
}

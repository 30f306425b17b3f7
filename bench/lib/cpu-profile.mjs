// Where an app's CPU went, from the profile `BENCH_CPU_PROF=<app>` makes it write (V8's .cpuprofile, on exit): the
// samples by where they ran (an npm package, a Node.js module, or a source file of ours through the bundle's source
// map), and the samples under one source file of ours (`focus`) by where they ran beneath it.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { join } from 'node:path';

/** The newest .cpuprofile in `folder` written after `since` (ms since the epoch), or undefined. */
export function newestProfile(folder, since) {
  let files;
  try {
    files = readdirSync(folder).filter((name) => name.endsWith('.cpuprofile'));
  } catch {
    return undefined;
  }
  return files
    .map((name) => join(folder, name))
    .map((path) => ({ path, at: statSync(path).mtimeMs }))
    .filter((file) => file.at >= since)
    .sort((a, b) => b.at - a.at)[0]?.path;
}

/**
 * The profile at `path` of a bundle whose source map is `sourceMapPath`: busy time (ms, idle left out), time by place
 * (self time), and for each of `focuses` (a source path of ours, or a folder of them) the samples that have a frame
 * of it in their stack, in all and by the place their innermost frame ran.
 */
export function summariseProfile(path, sourceMapPath, focuses) {
  const profile = JSON.parse(readFileSync(path, 'utf8'));
  const sourceMap = new SourceMap(JSON.parse(readFileSync(sourceMapPath, 'utf8')));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const placeCache = new Map();
  /** Where a frame ran: a package, a Node.js module, a source file of ours, or what V8 calls it. */
  const placeOf = (id) => {
    if (placeCache.has(id)) return placeCache.get(id);
    const { callFrame } = byId.get(id);
    let place;
    if (callFrame.url === '') {
      // A native function (a binding's C++) counts where its caller ran; V8's own entries by their name.
      place = callFrame.functionName.startsWith('(') || !parent.has(id) ? callFrame.functionName : placeOf(parent.get(id));
    } else if (callFrame.url.includes('/node_modules/')) {
      const after = callFrame.url.split('/node_modules/').pop().split('/');
      place = after[0].startsWith('@') ? `${after[0]}/${after[1]}` : after[0];
    } else if (callFrame.url.startsWith('node:')) {
      place = callFrame.url;
    } else {
      const entry = sourceMap.findEntry(callFrame.lineNumber, callFrame.columnNumber);
      place = entry?.originalSource ? entry.originalSource.replace(/^(\.\.\/)+/, '') : callFrame.url;
    }
    placeCache.set(id, place);
    return place;
  };
  const interval = new Map();
  profile.samples.forEach((id, index) => interval.set(index, (profile.timeDeltas[index + 1] ?? 0) / 1000));
  const bySelf = new Map();
  const focused = focuses.map((focus) => ({ focus, ms: 0, under: new Map() }));
  let busyMs = 0;
  profile.samples.forEach((id, index) => {
    const ms = interval.get(index);
    const place = placeOf(id);
    if (place === '(idle)') return;
    busyMs += ms;
    bySelf.set(place, (bySelf.get(place) ?? 0) + ms);
    for (const entry of focused) {
      for (let at = id; at !== undefined; at = parent.get(at)) {
        if (placeOf(at).includes(entry.focus)) {
          entry.ms += ms;
          entry.under.set(place, (entry.under.get(place) ?? 0) + ms);
          break;
        }
      }
    }
  });
  const top = (map, count) => Object.fromEntries([...map].sort((a, b) => b[1] - a[1]).slice(0, count).map(([place, ms]) => [place, Math.round(ms)]));
  return {
    file: path,
    busyMs: Math.round(busyMs),
    bySelf: top(bySelf, 15),
    focuses: focused.map((entry) => ({ focus: entry.focus, ms: Math.round(entry.ms), under: top(entry.under, 10) })),
  };
}

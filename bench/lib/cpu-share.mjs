// CPU time each process used during a measurement (from /proc; Linux only), so a result can say where a request's
// cost goes. On a shared 2-core machine throughput swings from run to run; CPU time per request swings far less.
import { readFileSync, readdirSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

function cpuTicks(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** A short name for a process: the app it runs, or what it is. */
function labelOf(pid) {
  let command;
  try {
    command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return undefined;
  }
  if (Number(pid) === process.pid) return 'load generator (autocannon)';
  const app = /dist\/apps\/(\w+)\//.exec(command);
  if (app) return app[1];
  const helper = /bench\/\w+\/([\w.-]+)\.cjs/.exec(command);
  if (helper) return `${helper[1]} (bench server)`;
  if (command.startsWith('redis-server')) return 'redis';
  if (command.startsWith('postgres')) return 'postgres';
  return 'other';
}

/** Snapshot of every process's CPU ticks; `perRequest(n)` then gives µs of CPU per request, by process kind. */
export function cpuSnapshot() {
  const before = new Map(readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map((pid) => [pid, cpuTicks(pid)]));
  return {
    perRequest(requests) {
      const byLabel = new Map();
      for (const [pid, ticks] of before) {
        const label = labelOf(pid);
        const used = cpuTicks(pid) - ticks;
        if (label === undefined || used <= 0) continue;
        byLabel.set(label, (byLabel.get(label) ?? 0) + used);
      }
      return Object.fromEntries([...byLabel].sort((a, b) => b[1] - a[1]).map(([label, ticks]) => [label, Math.round((ticks / TICKS_PER_SECOND / requests) * 1e6)]));
    },
  };
}

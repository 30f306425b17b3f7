import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

type ReadFile = (path: string) => string | undefined;

const readIfPresent: ReadFile = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/**
 * CPUs this process may use: the container's CPU limit (cgroup v2 `cpu.max`, or v1 `cpu.cfs_quota_us` /
 * `cpu.cfs_period_us`), rounded up, and never more than the CPUs Node sees. `availableParallelism()` alone counts the
 * node's cores: on a 32-core node a pod limited to 2 CPUs would start 32 key-generation threads.
 */
export function cpuBudget(read: ReadFile = readIfPresent, cores = availableParallelism()): number {
  const v2 = read('/sys/fs/cgroup/cpu.max')?.trim().split(/\s+/);
  let quota: number | undefined;
  let period: number | undefined;
  if (v2 && v2.length === 2 && v2[0] !== 'max') {
    [quota, period] = v2.map(Number);
  } else if (!v2) {
    for (const dir of ['/sys/fs/cgroup/cpu', '/sys/fs/cgroup/cpu,cpuacct']) {
      const v1Quota = Number(read(`${dir}/cpu.cfs_quota_us`)?.trim());
      const v1Period = Number(read(`${dir}/cpu.cfs_period_us`)?.trim());
      if (v1Quota > 0 && v1Period > 0) {
        [quota, period] = [v1Quota, v1Period];
        break;
      }
    }
  }
  const limit = quota !== undefined && period !== undefined && quota > 0 && period > 0 ? Math.ceil(quota / period) : cores;
  return Math.max(1, Math.min(cores, limit));
}

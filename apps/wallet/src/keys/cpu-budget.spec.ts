import { cpuBudget } from './cpu-budget';

const files = (entries: Record<string, string>) => (path: string) => entries[path];

describe('cpuBudget', () => {
  it('follows a cgroup v2 CPU limit, rounded up', () => {
    expect(cpuBudget(files({ '/sys/fs/cgroup/cpu.max': '150000 100000\n' }), 32)).toBe(2);
  });

  it('counts the cores when cgroup v2 sets no limit', () => {
    expect(cpuBudget(files({ '/sys/fs/cgroup/cpu.max': 'max 100000\n' }), 8)).toBe(8);
  });

  it('follows a cgroup v1 CFS quota', () => {
    expect(cpuBudget(files({ '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': '400000\n', '/sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000\n' }), 32)).toBe(4);
  });

  it('counts the cores under cgroup v1 without a quota (-1), or with no cgroup files at all', () => {
    expect(cpuBudget(files({ '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': '-1\n', '/sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000\n' }), 6)).toBe(6);
    expect(cpuBudget(files({}), 3)).toBe(3);
  });

  it('never goes above the cores Node sees, nor below one', () => {
    expect(cpuBudget(files({ '/sys/fs/cgroup/cpu.max': '800000 100000' }), 2)).toBe(2);
    expect(cpuBudget(files({ '/sys/fs/cgroup/cpu.max': '10000 100000' }), 16)).toBe(1);
  });
});

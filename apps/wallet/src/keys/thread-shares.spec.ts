import { ThreadShares } from './thread-shares';

/** A pool stand-in whose tasks finish when the test says so; each result names its task and its input. */
function pool(threads: number, maxPerTask: number) {
  const tasks: { count: number; finish: () => void; fail: (error: Error) => void }[] = [];
  const shares = new ThreadShares<number, string>(
    (inputs) =>
      new Promise<string[]>((resolve, reject) => {
        const task = tasks.length;
        tasks.push({ count: inputs.length, finish: () => resolve(inputs.map((input) => `${task}.${input}`)), fail: reject });
      }),
    { threads, maxPerTask },
  );
  return { shares, tasks };
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('ThreadShares', () => {
  it('starts what is asked for while a thread is free at once, alone', async () => {
    const { shares, tasks } = pool(2, 16);
    const result = shares.run(0);
    await turn();
    expect(tasks.map((task) => task.count)).toEqual([1]);
    tasks[0].finish();
    await expect(result).resolves.toBe('0.0');
  });

  it('splits what is asked for in one turn evenly over the free threads', async () => {
    const { shares, tasks } = pool(2, 16);
    const results = Array.from({ length: 9 }, (_, index) => shares.run(index));
    await turn();
    expect(tasks.map((task) => task.count)).toEqual([5, 4]);
    tasks.forEach((task) => task.finish());
    expect(await Promise.all(results)).toEqual(['0.0', '0.1', '0.2', '0.3', '0.4', '1.5', '1.6', '1.7', '1.8']);
  });

  it('while every thread is busy, gives all that wait to the first thread that frees, up to the most per task', async () => {
    const { shares, tasks } = pool(2, 16);
    const first = [shares.run(0), shares.run(1)];
    await turn();
    const waiting = Array.from({ length: 20 }, (_, index) => shares.run(index));
    await turn();
    expect(tasks.map((task) => task.count)).toEqual([1, 1]);
    tasks[0].finish();
    await turn();
    expect(tasks.map((task) => task.count)).toEqual([1, 1, 16]);
    tasks[1].finish();
    await turn();
    expect(tasks.map((task) => task.count)).toEqual([1, 1, 16, 4]);
    tasks.slice(2).forEach((task) => task.finish());
    await Promise.all(first);
    expect(new Set(await Promise.all(waiting)).size).toBe(20);
  });

  it('fails only the callers of a failed task, and goes on with the next', async () => {
    const { shares, tasks } = pool(1, 2);
    const failed = [shares.run(0), shares.run(1)];
    await turn();
    const next = shares.run(2);
    await turn();
    tasks[0].fail(new Error('the worker stopped'));
    await Promise.all(failed.map((result) => expect(result).rejects.toThrow('the worker stopped')));
    expect(tasks.map((task) => task.count)).toEqual([2, 1]);
    tasks[1].finish();
    await expect(next).resolves.toBe('1.2');
  });

  it('fails the callers of a task that cannot start, and starts the next one', async () => {
    let attempts = 0;
    const shares = new ThreadShares<number, number>(
      (inputs) => {
        attempts += 1;
        if (attempts === 1) {
          throw new Error('the pool is closing');
        }
        return Promise.resolve(inputs.map(() => attempts));
      },
      { threads: 1, maxPerTask: 4 },
    );
    await expect(shares.run(0)).rejects.toThrow('the pool is closing');
    await expect(shares.run(1)).resolves.toBe(2);
  });
});

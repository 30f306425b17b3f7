import { StatementBatcher } from './statement-batcher';

/** A batch function that records the batches it was given and answers each item doubled. */
function recording(fail?: (items: number[]) => Error | undefined): { batches: number[][]; run: (items: number[]) => Promise<number[]> } {
  const batches: number[][] = [];
  return {
    batches,
    run: async (items) => {
      batches.push(items);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const error = fail?.(items);
      if (error) {
        throw error;
      }
      return items.map((item) => item * 2);
    },
  };
}

describe('StatementBatcher', () => {
  it('runs a caller alone at once, in a batch of one', async () => {
    const { batches, run } = recording();
    await expect(new StatementBatcher(run).run(1)).resolves.toBe(2);
    expect(batches).toEqual([[1]]);
  });

  it('puts calls made together into one statement and answers each caller its own result', async () => {
    const { batches, run } = recording();
    const batcher = new StatementBatcher(run, { maxInFlight: 1 });
    await expect(Promise.all([1, 2, 3, 4].map((item) => batcher.run(item)))).resolves.toEqual([2, 4, 6, 8]);
    expect(batches).toEqual([[1, 2, 3, 4]]);
  });

  it('queues the calls made while its statements run for the next one, at most maxBatch items each', async () => {
    const { batches, run } = recording();
    const batcher = new StatementBatcher(run, { maxInFlight: 1, maxBatch: 2 });
    const first = batcher.run(1);
    await new Promise((resolve) => setImmediate(resolve));
    const rest = [2, 3, 4].map((item) => batcher.run(item));
    await Promise.all([first, ...rest]);
    expect(batches).toEqual([[1], [2, 3], [4]]);
  });

  it("does not fail the other callers for one item's error: each runs again alone", async () => {
    const bad = new Error('violates foreign key');
    const { batches, run } = recording((items) => (items.includes(3) ? bad : undefined));
    const batcher = new StatementBatcher(run, { maxInFlight: 1 });
    const results = await Promise.allSettled([1, 3, 5].map((item) => batcher.run(item)));
    expect(results).toEqual([
      { status: 'fulfilled', value: 2 },
      { status: 'rejected', reason: bad },
      { status: 'fulfilled', value: 10 },
    ]);
    expect(batches).toEqual([[1, 3, 5], [1], [3], [5]]);
  });

  it('fails every caller of a batch at once when the database is unavailable, without running them again', async () => {
    const outage = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    const { batches, run } = recording(() => outage);
    const batcher = new StatementBatcher(run, { maxInFlight: 1 });
    const results = await Promise.allSettled([1, 2].map((item) => batcher.run(item)));
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(batches).toEqual([[1, 2]]);
  });
});

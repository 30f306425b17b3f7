import { TickBatcher } from './tick-batcher';

describe(TickBatcher.name, () => {
  it('hands over the items of one turn together, by key', async () => {
    const flushed: [string, number[]][] = [];
    const batcher = new TickBatcher<number>((key, items) => flushed.push([key, items]));
    batcher.add('a', 1);
    batcher.add('b', 2);
    batcher.add('a', 3);
    expect(flushed).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(flushed).toEqual([
      ['a', [1, 3]],
      ['b', [2]],
    ]);
  });

  it('hands over a full batch at once', () => {
    const flushed: number[][] = [];
    const batcher = new TickBatcher<number>((_, items) => flushed.push(items), 2);
    batcher.add('a', 1);
    batcher.add('a', 2);
    batcher.add('a', 3);
    expect(flushed).toEqual([[1, 2]]);
  });
});

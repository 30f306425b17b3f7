import { TickBatcher } from './tick-batcher';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe(TickBatcher.name, () => {
  it('hands over the items of one turn together, by key', async () => {
    const flushed: [string, number[]][] = [];
    const batcher = new TickBatcher<number>((key, items) => flushed.push([key, items]), () => undefined);
    batcher.add('a', 1);
    batcher.add('b', 2);
    batcher.add('a', 3);
    expect(flushed).toEqual([]);
    await nextTurn();
    expect(flushed).toEqual([
      ['a', [1, 3]],
      ['b', [2]],
    ]);
  });

  it('hands over a full batch at once', () => {
    const flushed: number[][] = [];
    const batcher = new TickBatcher<number>((_, items) => flushed.push(items), () => undefined, 2);
    batcher.add('a', 1);
    batcher.add('a', 2);
    batcher.add('a', 3);
    expect(flushed).toEqual([[1, 2]]);
  });

  it("gives a key's items to `failed` when handing them over throws, and still hands over the other keys", async () => {
    const flushed: [string, number[]][] = [];
    const failed: [string, number[], string][] = [];
    const batcher = new TickBatcher<number>(
      (key, items) => {
        if (key === 'bad') {
          throw new RangeError('Maximum call stack size exceeded');
        }
        flushed.push([key, items]);
      },
      (key, items, error) => failed.push([key, items, String(error)]),
    );
    batcher.add('bad', 1);
    batcher.add('good', 2);
    await nextTurn();
    expect(failed).toEqual([['bad', [1], 'RangeError: Maximum call stack size exceeded']]);
    expect(flushed).toEqual([['good', [2]]]);
  });

  it('lets nothing escape, not even a failing `failed`', async () => {
    const flushed: string[] = [];
    const batcher = new TickBatcher<number>(
      (key) => {
        if (key === 'bad') {
          throw new Error('cannot send');
        }
        flushed.push(key);
      },
      () => {
        throw new Error('cannot report either');
      },
      2,
    );
    batcher.add('bad', 1);
    expect(() => batcher.add('bad', 2)).not.toThrow();
    batcher.add('bad', 3);
    batcher.add('good', 4);
    expect(() => batcher.flush()).not.toThrow();
    expect(flushed).toEqual(['good']);
  });
});

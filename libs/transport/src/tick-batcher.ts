/**
 * Collects items by key during one turn of the event loop and hands each key's items over together (on
 * `setImmediate`, or at once when a key reaches `maxBatch`). The transport uses it to put all the requests for one
 * service, or all the replies for one gateway, made in the same turn into a single Redis command.
 *
 * Handing over one key's items may fail (a bug, a key missing): `failed` then gets them, and the other keys are still
 * handed over. Nothing thrown ever leaves the batcher, where it would end the process from inside `setImmediate`.
 */
export class TickBatcher<T> {
  private readonly pending = new Map<string, T[]>();
  private scheduled = false;

  constructor(
    private readonly flushKey: (key: string, items: T[]) => void,
    private readonly failed: (key: string, items: T[], error: unknown) => void,
    private readonly maxBatch = 64,
  ) {}

  add(key: string, item: T): void {
    let items = this.pending.get(key);
    if (items === undefined) {
      items = [];
      this.pending.set(key, items);
    }
    items.push(item);
    if (items.length >= this.maxBatch) {
      this.pending.delete(key);
      this.hand(key, items);
      return;
    }
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  flush(): void {
    this.scheduled = false;
    const batches = [...this.pending];
    this.pending.clear();
    for (const [key, items] of batches) {
      this.hand(key, items);
    }
  }

  private hand(key: string, items: T[]): void {
    try {
      this.flushKey(key, items);
    } catch (error) {
      try {
        this.failed(key, items, error);
      } catch {
        // The failure handler itself failed: its items are lost (their callers time out), the other keys still go.
      }
    }
  }
}

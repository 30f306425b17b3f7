/**
 * Collects items by key during one turn of the event loop and hands each key's items over together (on
 * `setImmediate`, or at once when a key reaches `maxBatch`). The transport uses it to put all the requests for one
 * service, or all the replies for one gateway, made in the same turn into a single Redis command.
 */
export class TickBatcher<T> {
  private readonly pending = new Map<string, T[]>();
  private scheduled = false;

  constructor(
    private readonly flushKey: (key: string, items: T[]) => void,
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
      this.flushKey(key, items);
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
      this.flushKey(key, items);
    }
  }
}

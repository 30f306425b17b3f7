import type { QueryResultRow } from 'pg';
import type { DataSource } from 'typeorm';
import { isDatabaseUnavailable } from './database-outage';
import { poolOf } from './pool';

interface Waiting<I, O> {
  item: I;
  resolve: (result: O) => void;
  reject: (error: unknown) => void;
}

export interface StatementBatcherOptions {
  /** Most items in one statement. */
  maxBatch?: number;
  /** Most statements of this batcher running at once; items asked for while all run wait for the next one. */
  maxInFlight?: number;
}

/**
 * One statement shared by concurrent callers, as PostgreSQL's group commit shares a WAL flush: the items asked for in
 * the same turn of the event loop, or while the statements before them run, go to the database together, as one
 * statement and one commit. A caller alone waits one turn of the event loop; under load a new player costs a
 * fraction of a statement, a commit and a round trip instead of several. Each caller's promise settles only after
 * the statement that holds its item has committed.
 *
 * One item cannot fail the others: when a batch fails for anything but a database outage (a row of a game deleted
 * meanwhile, say), each of its items runs again alone and gets its own answer.
 */
export class StatementBatcher<I, O> {
  private readonly queue: Waiting<I, O>[] = [];
  private readonly maxBatch: number;
  private readonly maxInFlight: number;
  private inFlight = 0;
  private scheduled = false;

  /** `runBatch` answers one result per item, in the items' order. */
  constructor(
    private readonly runBatch: (items: I[]) => Promise<O[]>,
    options: StatementBatcherOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 64;
    this.maxInFlight = options.maxInFlight ?? 2;
  }

  run(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.maxInFlight || this.queue.length === 0) {
      return;
    }
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
        this.inFlight += 1;
        void this.execute(this.queue.splice(0, this.maxBatch)).finally(() => {
          this.inFlight -= 1;
          this.schedule();
        });
      }
    });
  }

  private async execute(batch: Waiting<I, O>[]): Promise<void> {
    try {
      const results = await this.runBatch(batch.map((waiting) => waiting.item));
      batch.forEach((waiting, index) => waiting.resolve(results[index]));
    } catch (error) {
      if (batch.length === 1 || isDatabaseUnavailable(error)) {
        batch.forEach((waiting) => waiting.reject(error));
        return;
      }
      await Promise.all(
        batch.map((waiting) =>
          this.runBatch([waiting.item]).then(
            ([result]) => waiting.resolve(result),
            (alone: unknown) => waiting.reject(alone),
          ),
        ),
      );
    }
  }
}

/**
 * One SQL statement run straight on the pg pool behind a TypeORM data source, without the ORM's per-query work: for
 * the hot paths; everything else goes through TypeORM. Deliberately not a named (server-side prepared) statement:
 * after five runs PostgreSQL may keep a generic plan made while the table was still empty (a sequential scan), and
 * a lookup that took 12 µs then takes 400 µs and grows with the table; a plan made for the values at hand costs less.
 */
export class PoolStatement<R extends QueryResultRow> {
  constructor(private readonly text: string) {}

  async run(dataSource: DataSource, values: unknown[]): Promise<R[]> {
    const pool = poolOf(dataSource);
    if (!pool) {
      throw new Error('The database is not connected yet');
    }
    const result = await pool.query<R>(this.text, values);
    return result.rows;
  }
}

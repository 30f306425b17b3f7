import { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AuditActionRow, OutboxEventInput, eventOfAuditAction } from '@game-wallet/contracts';
import type { TransactionalLike } from './audit-chain-sql';
import { newId } from './ids';
import { rowsOf } from './query-rows';

/**
 * A service's transactional outbox: the events of a change are inserted into `<schema>.outbox` by the statement (or in
 * the transaction) that makes the change, so an event exists exactly when its change was committed. A relay on every
 * replica then hands them to identity's webhook dispatcher and deletes them in one transaction; a crash anywhere in
 * between leaves them in the table for the next pass (at least once: the dispatcher ignores an id it already has).
 */
export function outboxUpSql(schema: string): string[] {
  return [
    `CREATE TABLE ${schema}.outbox (
       id uuid PRIMARY KEY,
       type varchar(64) NOT NULL,
       game_id uuid NOT NULL,
       occurred_at timestamptz NOT NULL,
       data jsonb NOT NULL
     )`,
  ];
}

export function outboxDownSql(schema: string): string[] {
  return [`DROP TABLE ${schema}.outbox`];
}

/** An event as the outbox holds it and the dispatcher takes it (UUIDv7 id, ISO 8601 timestamp). */
export type OutboxEvent = OutboxEventInput;

/** The SQL that inserts events, with its parameters, for a statement of a transaction (the ids are UUIDv7 made by the caller). */
export function outboxInsert(schema: string, events: readonly OutboxEvent[]): { sql: string; parameters: unknown[] } {
  return {
    sql: `INSERT INTO ${schema}.outbox (id, type, game_id, occurred_at, data)
          SELECT * FROM unnest($1::uuid[], $2::varchar[], $3::uuid[], $4::timestamptz[], $5::jsonb[])`,
    parameters: [
      events.map((event) => event.id),
      events.map((event) => event.type),
      events.map((event) => event.gameId),
      events.map((event) => event.timestamp),
      events.map((event) => JSON.stringify(event.data)),
    ],
  };
}

/** The event an audited action makes (see `eventOfAuditAction`), into the outbox with `manager`: the action's transaction. */
export async function insertActionEvent(manager: QueryLike, schema: string, row: AuditActionRow): Promise<void> {
  const event = eventOfAuditAction(newId(), row);
  if (event !== null) {
    const { sql, parameters } = outboxInsert(schema, [event]);
    await manager.query(sql, parameters);
  }
}

interface QueryLike {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

interface OutboxRow {
  id: string;
  type: string;
  game_id: string;
  occurred_at: Date;
  data: Record<string, unknown>;
}

/** Where the relay hands a batch of events; `manager` is the transaction that deletes them from the outbox. */
export type OutboxForward = (events: OutboxEvent[], manager: QueryLike) => Promise<void>;

/**
 * Takes up to `batch` events from the outbox, oldest first (rows another replica holds are skipped), hands them to
 * `forward` and deletes them, in one transaction: when `forward` throws nothing is deleted. Resolves with the count.
 */
export async function relayOutbox(data: TransactionalLike, schema: string, forward: OutboxForward, batch = 200): Promise<number> {
  return data.transaction(async (manager) => {
    const deleted = rowsOf<OutboxRow>(await manager.query(
      `DELETE FROM ${schema}.outbox WHERE id IN (SELECT id FROM ${schema}.outbox ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING id, type, game_id, occurred_at, data`,
      [batch],
    ));
    if (deleted.length === 0) {
      return 0;
    }
    const events = deleted
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((row) => ({ id: row.id, type: row.type, gameId: row.game_id, timestamp: row.occurred_at.toISOString(), data: row.data }));
    await forward(events, manager);
    return events.length;
  });
}

/** How often each replica looks into its outbox when the last look found it empty, and after a failure. */
export const OUTBOX_POLL_MS = 100;
export const OUTBOX_RETRY_MS = 1_000;

/**
 * Relays the outbox (see {@link relayOutbox}) from the moment the application is up until it shuts down: batch after
 * batch while there are events, then a look every {@link OUTBOX_POLL_MS}; after a failure (the dispatcher or the
 * database unreachable) again a second later. Each service names its schema and where its events go in a subclass.
 */
export abstract class OutboxRelayService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger: Logger;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;
  private failing = false;

  protected constructor(
    private readonly data: TransactionalLike & QueryLike,
    private readonly schema: string,
  ) {
    this.logger = new Logger(new.target.name);
  }

  /** Hands a batch to the dispatcher; throws when it could not (the events stay in the outbox). */
  protected abstract forward: OutboxForward;

  /** Called once a batch's transaction has committed. */
  protected relayed(): void {
    // nothing by default
  }

  onApplicationBootstrap(): void {
    this.schedule(0);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delay: number): void {
    if (this.stopped) {
      return;
    }
    this.timer = setTimeout(() => {
      this.running = this.pass().finally(() => (this.running = undefined));
    }, delay);
    this.timer.unref();
  }

  private async pass(): Promise<void> {
    try {
      const pending = (await this.data.query(`SELECT EXISTS (SELECT 1 FROM ${this.schema}.outbox) AS pending`)) as { pending: boolean }[];
      if (pending[0]?.pending === true) {
        while (!this.stopped && (await relayOutbox(this.data, this.schema, this.forward)) > 0) {
          this.relayed();
        }
      }
      if (this.failing) {
        this.failing = false;
        this.logger.log('Events are relayed again');
      }
      this.schedule(OUTBOX_POLL_MS);
    } catch (error) {
      if (!this.failing) {
        this.failing = true;
        this.logger.warn(`Relaying events failed; they stay in the outbox and are tried again each second: ${error instanceof Error ? error.message : String(error)}`);
      }
      this.schedule(OUTBOX_RETRY_MS);
    }
  }
}

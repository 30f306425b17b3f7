import { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';

/**
 * The SQL of a service's audit hash chain (see `@game-wallet/crypto`'s audit-chain.ts for what is hashed), created by
 * a migration in the service's own schema:
 *
 * - `<schema>.audit_chain_heads`: per chain (a game, or the platform's nil id) the last `seq` and `hash`;
 * - `<schema>.audit_chain(chains uuid[], docs text[])`: appends one link per element, in order, and answers for each its
 *   position (`ord`, from 1), `seq`, `prev_hash` and `hash` (`sha256(prev_hash || convert_to(doc, 'UTF8'))`). The heads
 *   it touches are locked in id order before any is read, so concurrent statements (any number of rows each) never
 *   deadlock on them and every chain is strictly ordered; the locks last until the caller's transaction ends.
 *
 * A statement that inserts audit rows calls the function first (in a CTE of its own, or before the insert in the same
 * transaction) and stores the three values with each row: a row is written with its link or not at all.
 */
export function auditChainUpSql(schema: string): string[] {
  return [
    `CREATE TABLE ${schema}.audit_chain_heads (
       chain_id uuid PRIMARY KEY,
       seq bigint NOT NULL,
       hash bytea NOT NULL CHECK (length(hash) = 32)
     )`,
    `CREATE FUNCTION ${schema}.audit_chain(chains uuid[], docs text[])
       RETURNS TABLE (ord integer, seq bigint, prev_hash bytea, hash bytea)
       LANGUAGE plpgsql AS $fn$
     #variable_conflict use_column
     DECLARE
       i integer;
       j integer;
       head_ids uuid[];
       head_seqs bigint[];
       head_hashes bytea[];
     BEGIN
       IF coalesce(array_length(chains, 1), 0) <> coalesce(array_length(docs, 1), 0) THEN
         RAISE EXCEPTION 'audit_chain: % chains for % documents', array_length(chains, 1), array_length(docs, 1);
       END IF;
       INSERT INTO ${schema}.audit_chain_heads AS h (chain_id, seq, hash)
         SELECT DISTINCT c, 0, decode(repeat('00', 32), 'hex') FROM unnest(chains) AS c
         ON CONFLICT (chain_id) DO NOTHING;
       PERFORM 1 FROM ${schema}.audit_chain_heads AS h WHERE h.chain_id = ANY(chains) ORDER BY h.chain_id FOR UPDATE;
       -- Read once the locks are held; each head is written once, after the links are made.
       SELECT array_agg(h.chain_id), array_agg(h.seq), array_agg(h.hash) INTO head_ids, head_seqs, head_hashes
         FROM ${schema}.audit_chain_heads AS h WHERE h.chain_id = ANY(chains);
       FOR i IN 1 .. coalesce(array_length(chains, 1), 0) LOOP
         j := array_position(head_ids, chains[i]);
         IF j IS NULL THEN
           RAISE EXCEPTION 'audit_chain: no head for chain %', chains[i];
         END IF;
         ord := i;
         seq := head_seqs[j] + 1;
         prev_hash := head_hashes[j];
         hash := sha256(prev_hash || convert_to(docs[i], 'UTF8'));
         head_seqs[j] := seq;
         head_hashes[j] := hash;
         RETURN NEXT;
       END LOOP;
       UPDATE ${schema}.audit_chain_heads AS h SET seq = u.seq, hash = u.hash
         FROM unnest(head_ids, head_seqs, head_hashes) AS u(chain_id, seq, hash) WHERE h.chain_id = u.chain_id;
     END
     $fn$`,
  ];
}

export function auditChainDownSql(schema: string): string[] {
  return [`DROP FUNCTION ${schema}.audit_chain(uuid[], text[])`, `DROP TABLE ${schema}.audit_chain_heads`];
}

/** A table whose rows the chainer links: how to read a row, and the chain and canonical document of each. */
export interface UnchainedAuditTable<Row> {
  /** `schema.table` */
  table: string;
  /** the columns to read, as SQL (`id` among them) */
  columns: string;
  chainOf: (row: Row) => string;
  canonical: (row: Row) => string;
}

interface QueryRunnerLike {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

export interface TransactionalLike {
  transaction<T>(work: (manager: QueryRunnerLike) => Promise<T>): Promise<T>;
}

/**
 * Links the rows of `spec.table` that have no place in their chain yet (written before the chain existed, or by a
 * previous release during a rollout), oldest first, `batch` at a time, each batch in one transaction; rows another
 * replica is linking are skipped (`SKIP LOCKED`). Resolves with how many it linked.
 */
export async function chainUnchainedRows<Row extends { id: string }>(
  data: TransactionalLike,
  schema: string,
  spec: UnchainedAuditTable<Row>,
  batch = 500,
): Promise<number> {
  let linked = 0;
  for (;;) {
    const count = await data.transaction(async (manager) => {
      const rows = (await manager.query(`SELECT ${spec.columns} FROM ${spec.table} WHERE seq IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`, [batch])) as Row[];
      if (rows.length === 0) {
        return 0;
      }
      const links = (await manager.query(`SELECT ord, seq, prev_hash, hash FROM ${schema}.audit_chain($1::uuid[], $2::text[])`, [
        rows.map(spec.chainOf),
        rows.map(spec.canonical),
      ])) as { ord: number; seq: string; prev_hash: Buffer; hash: Buffer }[];
      await manager.query(
        `UPDATE ${spec.table} AS t SET seq = l.seq, prev_hash = l.prev_hash, hash = l.hash
         FROM unnest($1::uuid[], $2::bigint[], $3::bytea[], $4::bytea[]) AS l(id, seq, prev_hash, hash) WHERE t.id = l.id`,
        [links.map((link) => rows[link.ord - 1].id), links.map((link) => link.seq), links.map((link) => link.prev_hash), links.map((link) => link.hash)],
      );
      return rows.length;
    });
    linked += count;
    if (count < batch) {
      return linked;
    }
  }
}

/** One table's pass of the chainer (see {@link auditTable}). */
export type AuditChainerTable = (data: TransactionalLike, schema: string) => Promise<number>;

/** A table for {@link startAuditChainer}. */
export function auditTable<Row extends { id: string }>(spec: UnchainedAuditTable<Row>): AuditChainerTable {
  return (data, schema) => chainUnchainedRows(data, schema, spec);
}

/** How often each replica looks for rows to link (a previous release's, during a rollout). */
export const AUDIT_CHAINER_INTERVAL_MS = 60_000;

/**
 * Links unchained rows of `tables` now and every {@link AUDIT_CHAINER_INTERVAL_MS} (a pass never overlaps the one
 * before); a failure is reported to `onError` and tried again at the next pass. Returns a function that stops it and
 * resolves once a pass in progress has ended.
 */
export function startAuditChainer(
  data: TransactionalLike,
  schema: string,
  tables: readonly AuditChainerTable[],
  onError: (error: unknown) => void,
  onLinked: (count: number) => void = () => undefined,
): () => Promise<void> {
  let running: Promise<void> | undefined;
  let stopped = false;
  const pass = (): void => {
    if (running !== undefined || stopped) {
      return;
    }
    running = (async () => {
      try {
        let linked = 0;
        for (const table of tables) {
          linked += await table(data, schema);
        }
        if (linked > 0) {
          onLinked(linked);
        }
      } catch (error) {
        onError(error);
      } finally {
        running = undefined;
      }
    })();
  };
  pass();
  const timer = setInterval(pass, AUDIT_CHAINER_INTERVAL_MS);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}

/**
 * A service's chainer (see {@link startAuditChainer}) as a provider: started once the application is up, stopped (a
 * pass in progress finished) when it shuts down. Each service names its schema and tables in a subclass.
 */
export abstract class AuditChainerService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger: Logger;
  private stop?: () => Promise<void>;

  protected constructor(
    private readonly data: TransactionalLike,
    private readonly schema: string,
    private readonly tables: readonly AuditChainerTable[],
  ) {
    this.logger = new Logger(new.target.name);
  }

  onApplicationBootstrap(): void {
    this.stop = startAuditChainer(
      this.data,
      this.schema,
      this.tables,
      (error) => this.logger.warn(`Linking audit rows into their chains failed; tried again within a minute: ${error instanceof Error ? error.message : String(error)}`),
      (count) => this.logger.log(`Linked ${count} audit rows into their chains`),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop?.();
  }
}

/**
 * The WHERE clause of a page of a game's audit export from `tables` (which share one chain): parameters `$1` the game,
 * `$2` the last `seq` already sent, `$3` since and `$4` until (timestamps, or null), `$5` the page size. A window is a
 * run of consecutive links, so it verifies from its first row on: from the first link written at or after `since` to
 * the last before the first written at or after `until`. (Rows are stamped before they take their link, so two written
 * at once may stand in the chain in the other order than their times; a window by time alone could leave a gap.)
 */
export function auditExportWindowSql(tables: readonly string[]): string {
  const firstAt = (parameter: string): string =>
    `(SELECT min(seq) FROM (${tables.map((table) => `SELECT seq FROM ${table} WHERE application_id = $1 AND at >= ${parameter}`).join(' UNION ALL ')}) AS s)`;
  return `application_id = $1 AND seq > $2 AND ($3::timestamptz IS NULL OR seq >= ${firstAt('$3')})
    AND ($4::timestamptz IS NULL OR seq < COALESCE(${firstAt('$4')}, 9223372036854775807)) ORDER BY seq LIMIT $5`;
}

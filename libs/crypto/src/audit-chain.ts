import canonicalize from 'canonicalize';
import { createHash } from 'node:crypto';
import type { AuditActionRow } from '@game-wallet/contracts';

/**
 * The audit trail's hash chain. Each service keeps one chain per game (`<schema>.audit_chain_heads`): every audit row
 * it writes gets the next `seq` and `hash = SHA-256(prevHash ‖ UTF-8(JCS(entry)))`, where `entry` is the row's stored
 * columns as JSON and JCS is RFC 8785 (the `canonicalize` package). PostgreSQL computes the link (`sha256`) under a
 * lock of the game's head row, in the statement that inserts the row; this file makes the canonical text and checks
 * an export.
 */

/** The hash before a chain's first row: 32 zero bytes. */
export const AUDIT_CHAIN_GENESIS = Buffer.alloc(32);

/** The chain of audit rows that belong to no game (operators' own actions). */
export const PLATFORM_CHAIN_ID = '00000000-0000-0000-0000-000000000000';

/** Most characters of one export line the verifier reads (a row's details are bounded far below this). */
export const MAX_AUDIT_LINE_CHARS = 1_000_000;

/** An audit row as stored, the chain's input: JSON values only (dates as ISO 8601 strings). */
export type AuditEntryDocument = Record<string, unknown> & { id: string };

/** One line of an audit export: the row, its place in its service's chain, and the links. */
export interface AuditExportLine {
  /** the service whose chain holds the row: `identity` or `wallet` */
  chain: string;
  seq: number;
  /** hex */
  prevHash: string;
  /** hex */
  hash: string;
  entry: AuditEntryDocument;
}

/** What JSON keeps of a value stored as jsonb (a document read back from the row is made of that). */
export const asStoredJson = <T>(value: T): T => (value === null || value === undefined ? (null as T) : (JSON.parse(JSON.stringify(value)) as T));

/** A row of an audit table of actions (identity's `audit_events`, the wallet's `policy_events`): who did what to what. */
export interface ActionAuditEntry extends AuditActionRow {
  id: string;
}

/** Such a row as SQL reads it (the chain's columns excluded), with {@link ACTION_AUDIT_COLUMNS}. */
export interface ActionAuditRow {
  id: string;
  application_id: string | null;
  at: Date;
  actor: string;
  action: string;
  target: string;
  details: Record<string, unknown>;
}

export const ACTION_AUDIT_COLUMNS = 'id, application_id, at, actor, action, target, details';

/**
 * A row of an action table as its hash chain reads it: every stored column but the chain's own, as JSON. The same
 * function makes the document a row is inserted with and the one an export shows; `table` tells tables apart.
 */
export function actionAuditDocument(table: string, row: ActionAuditEntry): AuditEntryDocument {
  return {
    table,
    id: row.id,
    gameId: row.applicationId,
    at: row.at.toISOString(),
    actor: row.actor,
    action: row.action,
    target: row.target,
    details: asStoredJson(row.details ?? {}),
  };
}

/** {@link actionAuditDocument} of a row as SQL reads it. */
export const actionAuditRowDocument = (table: string, row: ActionAuditRow): AuditEntryDocument =>
  actionAuditDocument(table, { id: row.id, applicationId: row.application_id, at: row.at, actor: row.actor, action: row.action, target: row.target, details: row.details });

/** RFC 8785 canonical JSON of an entry (what is hashed). */
export function canonicalAuditEntry(entry: AuditEntryDocument): string {
  const text = canonicalize(entry);
  if (text === undefined) {
    throw new TypeError('an audit entry must be a JSON object');
  }
  return text;
}

/** `SHA-256(prevHash ‖ UTF-8(canonical))`: the link PostgreSQL computes as `sha256(prev_hash || convert_to(doc, 'UTF8'))`. */
export function auditChainHash(prevHash: Buffer, canonical: string): Buffer {
  return createHash('sha256').update(prevHash).update(canonical, 'utf8').digest();
}

export type AuditProblemKind = 'unreadable' | 'changed' | 'removed' | 'reordered';

export interface AuditVerification {
  ok: boolean;
  /** lines read (rows checked), per chain */
  rows: Record<string, number>;
  /** the first line that does not hold, and why; absent when every row holds */
  problem?: { line: number; kind: AuditProblemKind; chain?: string; seq?: number; id?: string; message: string };
}

/**
 * Checks an export, line by line: each row's hash is its content's, each row links to the one before it in its chain
 * (`prevHash`, `seq` one more), and a chain that starts at `seq` 1 starts from the genesis hash. An export taken with
 * `since` starts mid-chain: its first row's `prevHash` is taken as given. Stops at the first line that does not hold:
 * an edited row fails its hash ("changed"), a missing one leaves a gap in `seq` ("removed"), rows out of order go
 * back in `seq` or break the link ("reordered").
 */
export async function verifyAuditExport(lines: AsyncIterable<string> | Iterable<string>): Promise<AuditVerification> {
  const last = new Map<string, { seq: number; hash: string }>();
  const rows: Record<string, number> = {};
  let number = 0;
  for await (const text of lines) {
    number += 1;
    if (text.trim() === '') {
      continue;
    }
    const line = parseLine(text);
    if (typeof line === 'string') {
      return { ok: false, rows, problem: { line: number, kind: 'unreadable', message: `line ${number} is not an audit export line: ${line}` } };
    }
    const where = `line ${number} (${line.chain} seq ${line.seq}, id ${line.entry.id})`;
    const fail = (kind: AuditProblemKind, why: string): AuditVerification => ({
      ok: false,
      rows,
      problem: { line: number, kind, chain: line.chain, seq: line.seq, id: line.entry.id, message: `${where}: ${why}` },
    });
    const previous = last.get(line.chain);
    if (previous === undefined) {
      if (line.seq === 1 && line.prevHash !== AUDIT_CHAIN_GENESIS.toString('hex')) {
        return fail('changed', 'the first row of the chain does not start from the genesis hash');
      }
    } else if (line.seq <= previous.seq) {
      return fail('reordered', `comes after seq ${previous.seq} of the same chain`);
    } else if (line.seq > previous.seq + 1) {
      return fail('removed', `seq ${previous.seq + 1}${line.seq > previous.seq + 2 ? `–${line.seq - 1}` : ''} of the chain is missing before it`);
    } else if (line.prevHash !== previous.hash) {
      return fail('reordered', 'does not link to the row before it in the chain (prevHash differs from its hash)');
    }
    if (auditChainHash(Buffer.from(line.prevHash, 'hex'), canonicalAuditEntry(line.entry)).toString('hex') !== line.hash) {
      return fail('changed', 'its content does not match its hash');
    }
    last.set(line.chain, { seq: line.seq, hash: line.hash });
    rows[line.chain] = (rows[line.chain] ?? 0) + 1;
  }
  return { ok: true, rows };
}

const HEX_HASH = /^[0-9a-f]{64}$/;

/** A line as an export writes it, or why it is not one. */
function parseLine(text: string): AuditExportLine | string {
  if (text.length > MAX_AUDIT_LINE_CHARS) {
    return `longer than ${MAX_AUDIT_LINE_CHARS} characters`;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  const line = value as Partial<AuditExportLine> | null;
  if (line === null || typeof line !== 'object' || Array.isArray(line)) {
    return 'not a JSON object';
  }
  if (typeof line.chain !== 'string' || line.chain === '') {return 'no chain';}
  if (!Number.isSafeInteger(line.seq) || (line.seq as number) < 1) {return 'no seq (a whole number from 1)';}
  if (typeof line.prevHash !== 'string' || !HEX_HASH.test(line.prevHash)) {return 'no prevHash (64 hex digits)';}
  if (typeof line.hash !== 'string' || !HEX_HASH.test(line.hash)) {return 'no hash (64 hex digits)';}
  const entry = line.entry;
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry) || typeof (entry as { id?: unknown }).id !== 'string') {return 'no entry (an object with an id)';}
  return line as AuditExportLine;
}

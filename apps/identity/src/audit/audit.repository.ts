import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { ACTION_AUDIT_COLUMNS, ActionAuditRow, AuditExportLine, PLATFORM_CHAIN_ID, canonicalAuditEntry } from '@game-wallet/crypto';
import { auditExportWindowSql, insertActionEvent } from '@game-wallet/database';
import { EntityManager, LessThan, Repository } from 'typeorm';
import { auditRowDocument, identityAuditDocument } from './audit-document';
import { AuditEventEntity } from './entities/audit-event.entity';

/** A row and its link in the game's chain (libs/database/src/audit-chain-sql.ts), in the statement that inserts it. */
const INSERT_CHAINED = `
  INSERT INTO identity.audit_events (id, application_id, at, actor, action, target, details, seq, prev_hash, hash)
  SELECT $1, $2, $3, $4, $5, $6, $7, c.seq, c.prev_hash, c.hash FROM identity.audit_chain(ARRAY[$8::uuid], ARRAY[$9::text]) AS c`;

const EXPORT_WINDOW = auditExportWindowSql(['identity.audit_events']);

interface ChainedRow extends ActionAuditRow {
  seq: string;
  prev_hash: Buffer;
  hash: Buffer;
}

@Injectable()
export class AuditRepository {
  constructor(@InjectRepository(AuditEventEntity) private readonly events: Repository<AuditEventEntity>) {}

  /**
   * Inserts with its link in the game's hash chain, and the event it makes (if any) into the outbox, within
   * `manager`'s transaction when given (else in one of their own), so an action, its audit entry and its event commit
   * together (the game's chain head stays locked until then).
   */
  async insert(event: AuditEventEntity, manager?: EntityManager): Promise<void> {
    if (manager === undefined) {
      return this.events.manager.transaction((own) => this.insert(event, own));
    }
    await manager.query(INSERT_CHAINED, [
      event.id,
      event.applicationId,
      event.at,
      event.actor,
      event.action,
      event.target,
      JSON.stringify(event.details),
      event.applicationId ?? PLATFORM_CHAIN_ID,
      canonicalAuditEntry(identityAuditDocument(event)),
    ]);
    await insertActionEvent(manager, 'identity', event);
  }

  /** A game's events, newest first, strictly older than `beforeId` (ids are time-ordered UUIDv7). */
  listForGame(applicationId: string, limit: number, beforeId?: string): Promise<AuditEventEntity[]> {
    return this.events.find({
      where: beforeId === undefined ? { applicationId } : { applicationId, id: LessThan(beforeId) },
      order: { id: 'DESC' },
      take: limit,
    });
  }

  /** A game's chained rows in chain order after `afterSeq`, in the window [`since`, `until`) (see auditExportWindowSql), as export lines. */
  async exportForGame(applicationId: string, afterSeq: number, limit: number, since?: Date, until?: Date): Promise<AuditExportLine[]> {
    const rows: ChainedRow[] = await this.events.query(
      `SELECT ${ACTION_AUDIT_COLUMNS}, seq, prev_hash, hash FROM identity.audit_events
       WHERE ${EXPORT_WINDOW}`,
      [applicationId, afterSeq, since ?? null, until ?? null, limit],
    );
    return rows.map((row) => ({
      chain: 'identity',
      seq: Number(row.seq),
      prevHash: row.prev_hash.toString('hex'),
      hash: row.hash.toString('hex'),
      entry: auditRowDocument(row),
    }));
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AuditExportWindow } from '@game-wallet/contracts';
import { ACTION_AUDIT_COLUMNS, ActionAuditRow, AuditEntryDocument, AuditExportLine } from '@game-wallet/crypto';
import { auditExportWindowSql } from '@game-wallet/database';
import { DataSource } from 'typeorm';
import { SIGNATURE_EVENT_COLUMNS, SignatureEventRow, policyRowDocument, signatureRowDocument } from './audit-documents';

interface Link {
  seq: string;
  prev_hash: Buffer;
  hash: Buffer;
}

const WINDOW = auditExportWindowSql(['wallet.signature_events', 'wallet.policy_events']);

/** The wallet's part of a game's audit export: its chain over signing attempts and policy changes, in chain order. */
@Injectable()
export class AuditExportRepository {
  constructor(@InjectDataSource() private readonly database: DataSource) {}

  async page({ applicationId, afterSeq, limit, since, until }: AuditExportWindow): Promise<AuditExportLine[]> {
    const parameters = [applicationId, afterSeq, since ?? null, until ?? null, limit];
    const [signatures, policies]: [(SignatureEventRow & Link)[], (ActionAuditRow & Link)[]] = await Promise.all([
      this.database.query(`SELECT ${SIGNATURE_EVENT_COLUMNS}, seq, prev_hash, hash FROM wallet.signature_events WHERE ${WINDOW}`, parameters),
      this.database.query(`SELECT ${ACTION_AUDIT_COLUMNS}, seq, prev_hash, hash FROM wallet.policy_events WHERE ${WINDOW}`, parameters),
    ]);
    const lines = [...signatures.map((row) => line(row, signatureRowDocument(row))), ...policies.map((row) => line(row, policyRowDocument(row)))];
    return lines.sort((a, b) => a.seq - b.seq).slice(0, limit);
  }
}

function line(row: Link, entry: AuditEntryDocument): AuditExportLine {
  return { chain: 'wallet', seq: Number(row.seq), prevHash: row.prev_hash.toString('hex'), hash: row.hash.toString('hex'), entry };
}

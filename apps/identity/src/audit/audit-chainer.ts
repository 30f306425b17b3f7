import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ACTION_AUDIT_COLUMNS, ActionAuditRow, PLATFORM_CHAIN_ID, canonicalAuditEntry } from '@game-wallet/crypto';
import { AuditChainerService, auditTable } from '@game-wallet/database';
import { DataSource } from 'typeorm';
import { auditRowDocument } from './audit-document';

/** Links audit rows written without a place in their chain (before the chain existed, or by an older release). */
@Injectable()
export class AuditChainer extends AuditChainerService {
  constructor(@InjectDataSource() data: DataSource) {
    super(data, 'identity', [
      auditTable<ActionAuditRow>({
        table: 'identity.audit_events',
        columns: ACTION_AUDIT_COLUMNS,
        chainOf: (row) => row.application_id ?? PLATFORM_CHAIN_ID,
        canonical: (row) => canonicalAuditEntry(auditRowDocument(row)),
      }),
    ]);
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ACTION_AUDIT_COLUMNS, ActionAuditRow, PLATFORM_CHAIN_ID, canonicalAuditEntry } from '@game-wallet/crypto';
import { AuditChainerService, auditTable } from '@game-wallet/database';
import { DataSource } from 'typeorm';
import { SIGNATURE_EVENT_COLUMNS, SignatureEventRow, policyRowDocument, signatureRowDocument } from './audit-documents';

/** Links audit rows written without a place in their game's chain (before the chain existed, or by an older release). */
@Injectable()
export class AuditChainer extends AuditChainerService {
  constructor(@InjectDataSource() data: DataSource) {
    super(data, 'wallet', [
      auditTable<SignatureEventRow>({
        table: 'wallet.signature_events',
        columns: SIGNATURE_EVENT_COLUMNS,
        chainOf: (row) => row.application_id,
        canonical: (row) => canonicalAuditEntry(signatureRowDocument(row)),
      }),
      auditTable<ActionAuditRow>({
        table: 'wallet.policy_events',
        columns: ACTION_AUDIT_COLUMNS,
        chainOf: (row) => row.application_id ?? PLATFORM_CHAIN_ID,
        canonical: (row) => canonicalAuditEntry(policyRowDocument(row)),
      }),
    ]);
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { canonicalAuditEntry } from '@game-wallet/crypto';
import { AuditChainerService, auditTable } from '@game-wallet/database';
import { DataSource } from 'typeorm';
import { POLICY_EVENT_COLUMNS, PolicyEventRow, SIGNATURE_EVENT_COLUMNS, SignatureEventRow, policyRowDocument, signatureRowDocument } from './audit-documents';

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
      auditTable<PolicyEventRow>({
        table: 'wallet.policy_events',
        columns: POLICY_EVENT_COLUMNS,
        chainOf: (row) => row.application_id,
        canonical: (row) => canonicalAuditEntry(policyRowDocument(row)),
      }),
    ]);
  }
}

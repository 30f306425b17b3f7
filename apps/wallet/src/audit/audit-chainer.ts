import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { canonicalAuditEntry } from '@game-wallet/crypto';
import { auditTable, startAuditChainer } from '@game-wallet/database';
import { DataSource } from 'typeorm';
import { POLICY_EVENT_COLUMNS, PolicyEventRow, SIGNATURE_EVENT_COLUMNS, SignatureEventRow, policyRowDocument, signatureRowDocument } from './audit-documents';

/** Links audit rows written without a place in their game's chain (before the chain existed, or by an older release). */
@Injectable()
export class AuditChainer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(AuditChainer.name);
  private stop?: () => Promise<void>;

  constructor(@InjectDataSource() private readonly data: DataSource) {}

  onApplicationBootstrap(): void {
    this.stop = startAuditChainer(
      this.data,
      'wallet',
      [
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
      ],
      (error) => this.logger.warn(`Linking audit rows into their chains failed; tried again within a minute: ${error instanceof Error ? error.message : String(error)}`),
      (count) => this.logger.log(`Linked ${count} audit rows into their chains`),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop?.();
  }
}

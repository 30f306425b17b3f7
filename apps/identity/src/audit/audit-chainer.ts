import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { PLATFORM_CHAIN_ID, canonicalAuditEntry } from '@game-wallet/crypto';
import { auditTable, startAuditChainer } from '@game-wallet/database';
import { DataSource } from 'typeorm';
import { AUDIT_EVENT_COLUMNS, AuditEventRow, auditRowDocument } from './audit-document';

/** Links audit rows written without a place in their chain (before the chain existed, or by an older release). */
@Injectable()
export class AuditChainer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(AuditChainer.name);
  private stop?: () => Promise<void>;

  constructor(@InjectDataSource() private readonly data: DataSource) {}

  onApplicationBootstrap(): void {
    this.stop = startAuditChainer(
      this.data,
      'identity',
      [
        auditTable<AuditEventRow>({
          table: 'identity.audit_events',
          columns: AUDIT_EVENT_COLUMNS,
          chainOf: (row) => row.application_id ?? PLATFORM_CHAIN_ID,
          canonical: (row) => canonicalAuditEntry(auditRowDocument(row)),
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

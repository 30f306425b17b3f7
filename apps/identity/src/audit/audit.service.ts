import { Injectable } from '@nestjs/common';
import { AuditEntryView, AuditExportLineView, AuditExportWindow, Page, Principal, actorOf, decodeCursor, pageOf } from '@game-wallet/contracts';
import { newId } from '@game-wallet/database';
import { EntityManager } from 'typeorm';
import { AuditRepository } from './audit.repository';
import { AuditEventEntity } from './entities/audit-event.entity';

export interface AuditRecord {
  applicationId: string | null;
  principal: Principal;
  action: string;
  target: string;
  /** Never a secret: ids, names and states only. */
  details?: Record<string, unknown>;
}

/** The identity audit trail: operator sign-ins, games created, API-key lifecycle. */
@Injectable()
export class AuditService {
  constructor(private readonly audit: AuditRepository) {}

  record(record: AuditRecord, manager?: EntityManager): Promise<void> {
    const event: AuditEventEntity = {
      id: newId(),
      applicationId: record.applicationId,
      at: new Date(),
      actor: actorOf(record.principal),
      action: record.action,
      target: record.target,
      details: withClientAddress(record.principal, record.details ?? {}),
    };
    return this.audit.insert(event, manager);
  }

  /** A page of the game's audit export (chain order); see {@link exportWindow}. */
  exportForGame(window: AuditExportWindow): Promise<AuditExportLineView[]> {
    return this.audit.exportForGame(window.applicationId, window.afterSeq, window.limit, window.since, window.until);
  }

  async listForGame(applicationId: string, limit: number, cursor?: string): Promise<Page<AuditEntryView>> {
    const rows = await this.audit.listForGame(applicationId, limit + 1, decodeCursor(cursor));
    return pageOf(rows, limit, (row) => ({
      id: row.id,
      at: row.at.toISOString(),
      actor: row.actor,
      action: row.action,
      target: row.target,
      details: row.details,
    }));
  }
}

/**
 * An operator's action records the client address the gateway saw and the roles identity found the operator acting
 * with (unless the details already name them).
 */
function withClientAddress(principal: Principal, details: Record<string, unknown>): Record<string, unknown> {
  if (principal.kind !== 'operator') {
    return details;
  }
  const withIp = principal.ip !== undefined && !('ip' in details) ? { ...details, ip: principal.ip } : details;
  return principal.roles !== undefined && !('role' in withIp) ? { ...withIp, role: principal.roles.join(',') } : withIp;
}

import { AuditEntryDocument } from '@game-wallet/crypto';
import { AuditEventEntity } from './entities/audit-event.entity';

/**
 * An identity audit row as its hash chain reads it (libs/crypto/src/audit-chain.ts): every stored column but the
 * chain's own, as JSON. The same function makes the document a row is inserted with and the one an export shows.
 */
export function identityAuditDocument(row: AuditEventEntity): AuditEntryDocument {
  return {
    table: 'audit_events',
    id: row.id,
    gameId: row.applicationId,
    at: row.at.toISOString(),
    actor: row.actor,
    action: row.action,
    target: row.target,
    // As stored (jsonb): what JSON keeps of it.
    details: JSON.parse(JSON.stringify(row.details ?? {})) as Record<string, unknown>,
  };
}

/** An `identity.audit_events` row as SQL reads it (the chain's columns excluded). */
export interface AuditEventRow {
  id: string;
  application_id: string | null;
  at: Date;
  actor: string;
  action: string;
  target: string;
  details: Record<string, unknown>;
}

export const AUDIT_EVENT_COLUMNS = 'id, application_id, at, actor, action, target, details';

export const auditRowDocument = (row: AuditEventRow): AuditEntryDocument =>
  identityAuditDocument({ id: row.id, applicationId: row.application_id, at: row.at, actor: row.actor, action: row.action, target: row.target, details: row.details });

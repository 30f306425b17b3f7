import { ActionAuditRow, AuditEntryDocument, actionAuditDocument, actionAuditRowDocument } from '@game-wallet/crypto';
import { AuditEventEntity } from './entities/audit-event.entity';

/** An identity audit row as its hash chain reads it (libs/crypto/src/audit-chain.ts). */
export const identityAuditDocument = (row: AuditEventEntity): AuditEntryDocument => actionAuditDocument('audit_events', row);

/** The same, of a row as SQL reads it (with ACTION_AUDIT_COLUMNS). */
export const auditRowDocument = (row: ActionAuditRow): AuditEntryDocument => actionAuditRowDocument('audit_events', row);

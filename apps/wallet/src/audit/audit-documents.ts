import { ActionAuditRow, AuditEntryDocument, actionAuditDocument, actionAuditRowDocument, asStoredJson } from '@game-wallet/crypto';
import { PolicyEventEntity } from '../policies/policy-event.entity';
import { SignatureEventEntity } from '../signatures/entities/signature-event.entity';

/**
 * The wallet's audit rows as its hash chain reads them (libs/crypto/src/audit-chain.ts): every stored column but the
 * chain's own, as JSON. The same functions make the documents rows are inserted with and those an export shows; one
 * chain per game runs over both tables, and `table` tells their rows apart.
 */
export function signatureAuditDocument(row: SignatureEventEntity): AuditEntryDocument {
  return {
    table: 'signature_events',
    id: row.id,
    gameId: row.applicationId,
    walletId: row.walletId,
    chain: row.chain,
    operation: row.operation,
    decision: row.decision,
    messageSha256: row.messageSha256,
    credential: row.credential,
    at: row.at.toISOString(),
    facts: asStoredJson(row.facts),
    policyVersion: row.policyVersion ?? null,
    ruleId: row.ruleId ?? null,
  };
}

export const policyAuditDocument = (row: PolicyEventEntity): AuditEntryDocument => actionAuditDocument('policy_events', row);

/** A `wallet.signature_events` row as SQL reads it (the chain's columns excluded). */
export interface SignatureEventRow {
  id: string;
  application_id: string;
  wallet_id: string;
  chain: string;
  operation: string;
  decision: string;
  message_sha256: string;
  credential: string;
  at: Date;
  facts: Record<string, unknown> | null;
  policy_version: number | null;
  rule_id: string | null;
}

export const SIGNATURE_EVENT_COLUMNS = 'id, application_id, wallet_id, chain, operation, decision, message_sha256, credential, at, facts, policy_version, rule_id';

export const signatureRowDocument = (row: SignatureEventRow): AuditEntryDocument =>
  signatureAuditDocument({
    id: row.id,
    applicationId: row.application_id,
    walletId: row.wallet_id,
    chain: row.chain,
    operation: row.operation,
    decision: row.decision,
    messageSha256: row.message_sha256,
    credential: row.credential,
    at: row.at,
    facts: row.facts,
    policyVersion: row.policy_version,
    ruleId: row.rule_id,
  });

/** A `wallet.policy_events` row as SQL reads it (with ACTION_AUDIT_COLUMNS). */
export const policyRowDocument = (row: ActionAuditRow): AuditEntryDocument => actionAuditRowDocument('policy_events', row);

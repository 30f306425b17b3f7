import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { PoolStatement, StatementBatcher, newId } from '@game-wallet/database';
import { LessThan, Repository } from 'typeorm';
import { canonicalAuditEntry } from '@game-wallet/crypto';
import { signatureAuditDocument } from '../audit/audit-documents';
import { SignatureEventEntity } from './entities/signature-event.entity';

/**
 * Signing attempts' audit entries, any number in one statement, and with them each signing wallet's last use moved
 * forward to its latest allowed signature (never back, whatever order concurrent signatures commit in): one statement,
 * so both are saved together, with each attempt's event (`wallet.signed` or `wallet.signing_denied`, hashes only) in the
 * outbox. Each entry gets its link in its game's hash chain first (wallet.audit_chain, which locks
 * the games' chain heads in id order); the wallets are locked in id order after, so two such statements that share
 * games or wallets wait for each other instead of deadlocking. Wallets are found by primary key alone (`id = ANY`),
 * so a fresh table without statistics is never scanned to join it with the entries.
 */
const RECORD = new PoolStatement(
  `WITH chained AS MATERIALIZED (
     SELECT * FROM wallet.audit_chain($2::uuid[], $13::text[])
   ), events AS (
     INSERT INTO wallet.signature_events (id, application_id, wallet_id, chain, operation, decision, message_sha256, credential, at, facts, policy_version, rule_id, seq, prev_hash, hash)
     SELECT r.id, r.application_id, r.wallet_id, r.chain, r.operation, r.decision, r.message_sha256, r.credential, r.at, r.facts, r.policy_version, r.rule_id, c.seq, c.prev_hash, c.hash
     FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::varchar[], $5::varchar[], $6::varchar[], $7::varchar[], $8::varchar[], $9::timestamptz[], $10::jsonb[], $11::integer[], $12::varchar[])
       WITH ORDINALITY AS r(id, application_id, wallet_id, chain, operation, decision, message_sha256, credential, at, facts, policy_version, rule_id, ord)
     JOIN chained AS c ON c.ord = r.ord
     RETURNING id, application_id, wallet_id, chain, operation, decision, message_sha256, credential, at, policy_version, rule_id
   ), outbox AS (
     INSERT INTO wallet.outbox (id, type, game_id, occurred_at, data)
     SELECT x.event_id, CASE e.decision WHEN 'denied' THEN 'wallet.signing_denied' ELSE 'wallet.signed' END, e.application_id, e.at,
       jsonb_build_object('auditId', e.id, 'walletId', e.wallet_id, 'chain', e.chain, 'operation', e.operation, 'messageSha256', e.message_sha256,
                          'policyVersion', e.policy_version, 'ruleId', e.rule_id, 'actor', e.credential)
     FROM events AS e JOIN unnest($1::uuid[], $14::uuid[]) AS x(id, event_id) ON x.id = e.id
   ), used AS (
     SELECT wallet_id, max(at) AS at FROM events WHERE decision = 'allowed' GROUP BY wallet_id
   ), locked AS (
     SELECT id FROM wallet.wallets WHERE id = ANY($3::uuid[]) AND id IN (SELECT wallet_id FROM used) ORDER BY id FOR NO KEY UPDATE
   )
   UPDATE wallet.wallets AS w SET last_used_at = GREATEST(w.last_used_at, used.at)
   FROM used, locked WHERE w.id = ANY($3::uuid[]) AND w.id = used.wallet_id AND w.id = locked.id`,
);

@Injectable()
export class SignaturesRepository {
  /** Concurrent signatures share their record's statement and commit. */
  private readonly records = new StatementBatcher<SignatureEventEntity, void>(async (events) => {
    const column = <K extends keyof SignatureEventEntity>(key: K): SignatureEventEntity[K][] => events.map((event) => event[key]);
    await RECORD.run(this.events.manager.connection, [
      column('id'),
      column('applicationId'),
      column('walletId'),
      column('chain'),
      column('operation'),
      column('decision'),
      column('messageSha256'),
      column('credential'),
      column('at'),
      events.map((event) => (event.facts === null ? null : JSON.stringify(event.facts))),
      column('policyVersion'),
      column('ruleId'),
      events.map((event) => canonicalAuditEntry(signatureAuditDocument(event))),
      events.map(() => newId()),
    ]);
    return events.map(() => undefined);
  });

  constructor(@InjectRepository(SignatureEventEntity) private readonly events: Repository<SignatureEventEntity>) {}

  /** Saves the audit entry and, for an allowed signature, the wallet's last use; resolves once committed. */
  record(event: SignatureEventEntity): Promise<void> {
    return this.records.run(event);
  }

  listForGame(applicationId: string, limit: number, beforeId?: string): Promise<SignatureEventEntity[]> {
    return this.events.find({
      where: beforeId === undefined ? { applicationId } : { applicationId, id: LessThan(beforeId) },
      order: { id: 'DESC' },
      take: limit,
    });
  }
}

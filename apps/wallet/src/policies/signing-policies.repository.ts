import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { AppError, PolicyRule, SigningPolicy, SigningPolicyVersionView } from '@game-wallet/contracts';
import { EntityManager, LessThan, Repository } from 'typeorm';
import { canonicalAuditEntry } from '@game-wallet/crypto';
import { insertActionEvent } from '@game-wallet/database';
import { policyAuditDocument } from '../audit/audit-documents';
import { PolicyEventEntity } from './policy-event.entity';
import { SigningPolicyEntity } from './signing-policy.entity';

/** A game's policy as stored: its active version (0: the default, never saved) and its draft. */
export interface StoredPolicy {
  version: number;
  rules: PolicyRule[] | null;
  updatedAt: Date | null;
  updatedBy: string | null;
  draft: StoredDraft | null;
}

export interface StoredDraft {
  rules: PolicyRule[];
  baseVersion: number;
  updatedAt: Date;
  updatedBy: string;
}

/** A new version to store: its rules, who made it, how, the first shape kept for the previous release, and its audit entry. */
export interface NewVersion {
  rules: PolicyRule[];
  createdBy: string;
  origin: SigningPolicyVersionView['origin'];
  /** what a replica of the previous release reads: the first shape sent, else one that refuses every signature */
  firstShape: SigningPolicy;
  /** the version the operator read (`If-Match`); another current one is 412 */
  ifMatch?: number;
  /** the audit entry, made from the version it replaces */
  eventOf: (replaced: { version: number; rules: PolicyRule[] | null }, version: number) => PolicyEventEntity;
  /** clear the draft in the same transaction (a draft activated) */
  clearDraft?: boolean;
}

/** Games' signing policies: every version, the active one, the draft, and the audit trail of their changes. */
@Injectable()
export class SigningPoliciesRepository {
  constructor(
    @InjectRepository(SigningPolicyEntity) private readonly policies: Repository<SigningPolicyEntity>,
    @InjectRepository(PolicyEventEntity) private readonly events: Repository<PolicyEventEntity>,
  ) {}

  /** The game's active version and draft; version 0 and no rules when it never saved a policy. */
  async find(applicationId: string): Promise<StoredPolicy> {
    const rows: { version: number; rules: PolicyRule[] | null; created_at: Date | null; created_by: string | null; draft: StoredDraft | null; draft_updated_at: Date | null }[] =
      await this.policies.query(
        `SELECT p.version, v.rules, v.created_at, v.created_by, p.draft, p.draft_updated_at
         FROM wallet.signing_policies p LEFT JOIN wallet.signing_policy_versions v ON v.application_id = p.application_id AND v.version = p.version
         WHERE p.application_id = $1`,
        [applicationId],
      );
    if (rows.length === 0) {
      return { version: 0, rules: null, updatedAt: null, updatedBy: null, draft: null };
    }
    const [row] = rows;
    return {
      version: row.version,
      rules: row.rules,
      updatedAt: row.created_at,
      updatedBy: row.created_by,
      draft: row.draft === null ? null : { ...row.draft, updatedAt: new Date(row.draft.updatedAt) },
    };
  }

  /**
   * Stores the next version as the game's active one and, in the same transaction, its audit entry. The game's row is
   * locked first (inserted when it has none, so two first saves cannot both read "none"): of two concurrent saves
   * the second waits, and with the version it read in `If-Match` it is refused (412) rather than overwriting.
   */
  async addVersion(applicationId: string, next: NewVersion): Promise<number> {
    return this.policies.manager.transaction(async (manager) => {
      const current = await this.lockedVersion(manager, applicationId, next.firstShape);
      if (next.ifMatch !== undefined && next.ifMatch !== current.version) {
        throw new AppError('PRECONDITION_FAILED', `The signing policy is at version ${current.version}, not ${next.ifMatch}: read it again, then make your change`);
      }
      const version = current.version + 1;
      const event = next.eventOf(current, version);
      await manager.query(
        `INSERT INTO wallet.signing_policy_versions (application_id, version, rules, created_at, created_by, origin) VALUES ($1, $2, $3, $4, $5, $6)`,
        [applicationId, version, JSON.stringify(next.rules), event.at, next.createdBy, next.origin],
      );
      await manager.query(
        `UPDATE wallet.signing_policies SET version = $2, policy = $3, updated_at = $4${next.clearDraft === true ? ', draft = NULL, draft_updated_at = NULL' : ''} WHERE application_id = $1`,
        [applicationId, version, next.firstShape, event.at],
      );
      if (next.clearDraft === true) {
        await manager.query(`DELETE FROM wallet.policy_draft_differences WHERE application_id = $1`, [applicationId]);
      }
      await this.insertEvent(manager, event);
      return version;
    });
  }

  /** Replaces (or with null, removes) the game's draft, with its audit entry; the differences of the draft it replaces are dropped. */
  async setDraft(applicationId: string, draft: StoredDraft | null, firstShape: SigningPolicy, event: PolicyEventEntity): Promise<void> {
    await this.policies.manager.transaction(async (manager) => {
      await this.lockedVersion(manager, applicationId, firstShape);
      await manager.query(`UPDATE wallet.signing_policies SET draft = $2, draft_updated_at = $3 WHERE application_id = $1`, [
        applicationId,
        draft === null ? null : JSON.stringify(draft),
        draft?.updatedAt ?? null,
      ]);
      await manager.query(`DELETE FROM wallet.policy_draft_differences WHERE application_id = $1`, [applicationId]);
      await this.insertEvent(manager, event);
    });
  }

  /** A game's versions, newest first, older than `beforeVersion`. */
  async versions(applicationId: string, limit: number, beforeVersion?: number): Promise<SigningPolicyVersionView[]> {
    const rows: { version: number; rules: PolicyRule[]; created_at: Date; created_by: string; origin: SigningPolicyVersionView['origin'] }[] = await this.policies.query(
      `SELECT version, rules, created_at, created_by, origin FROM wallet.signing_policy_versions
       WHERE application_id = $1 AND version < $2 ORDER BY version DESC LIMIT $3`,
      [applicationId, beforeVersion ?? 2_147_483_647, limit],
    );
    return rows.map((row) => ({ version: row.version, rules: row.rules, createdAt: row.created_at.toISOString(), createdBy: row.created_by, origin: row.origin }));
  }

  /** A game's policy changes, newest first, strictly older than `beforeId` (ids are time-ordered UUIDv7). */
  listEvents(applicationId: string, limit: number, beforeId?: string): Promise<PolicyEventEntity[]> {
    return this.events.find({
      where: beforeId === undefined ? { applicationId } : { applicationId, id: LessThan(beforeId) },
      order: { id: 'DESC' },
      take: limit,
    });
  }

  /** The game's row, locked for this transaction (inserted at version 0 when it has none); its active version and rules. */
  private async lockedVersion(manager: EntityManager, applicationId: string, firstShape: SigningPolicy): Promise<{ version: number; rules: PolicyRule[] | null }> {
    await manager.query(
      `INSERT INTO wallet.signing_policies (application_id, policy, updated_at, version) VALUES ($1, $2, now(), 0) ON CONFLICT (application_id) DO NOTHING`,
      [applicationId, firstShape],
    );
    // The lock first, then the version's rules in a statement of their own: read after the lock is held, they are
    // those of the version a concurrent save just committed (a join in the locking statement would read the older).
    const [{ version }]: { version: number }[] = await manager.query(`SELECT version FROM wallet.signing_policies WHERE application_id = $1 FOR UPDATE`, [applicationId]);
    const rows: { rules: PolicyRule[] }[] = await manager.query(`SELECT rules FROM wallet.signing_policy_versions WHERE application_id = $1 AND version = $2`, [applicationId, version]);
    return { version, rules: rows[0]?.rules ?? null };
  }

  /** The change's audit entry with its link in the game's hash chain (wallet.audit_chain), in the change's transaction. */
  private async insertEvent(manager: EntityManager, event: PolicyEventEntity): Promise<void> {
    await manager.query(
      `INSERT INTO wallet.policy_events (id, application_id, at, actor, action, target, details, seq, prev_hash, hash)
       SELECT $1, $2, $3, $4, $5, $6, $7, c.seq, c.prev_hash, c.hash FROM wallet.audit_chain(ARRAY[$2::uuid], ARRAY[$8::text]) AS c`,
      [event.id, event.applicationId, event.at, event.actor, event.action, event.target, JSON.stringify(event.details), canonicalAuditEntry(policyAuditDocument(event))],
    );
    await insertActionEvent(manager, 'wallet', event);
  }
}

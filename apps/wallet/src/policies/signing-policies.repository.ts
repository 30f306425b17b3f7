import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { SigningPolicy } from '@game-wallet/contracts';
import { LessThan, Repository } from 'typeorm';
import { PolicyEventEntity } from './policy-event.entity';
import { SigningPolicyEntity } from './signing-policy.entity';

/** Games' stored signing policies and the audit trail of their changes. */
@Injectable()
export class SigningPoliciesRepository {
  constructor(
    @InjectRepository(SigningPolicyEntity) private readonly policies: Repository<SigningPolicyEntity>,
    @InjectRepository(PolicyEventEntity) private readonly events: Repository<PolicyEventEntity>,
  ) {}

  /** The game's policy as it was saved (without the limits added since), or null when it never set one. */
  async find(applicationId: string): Promise<SigningPolicy | null> {
    const row = await this.policies.findOneBy({ applicationId });
    return row === null ? null : row.policy;
  }

  /**
   * Stores `policy` as the game's and, in the same transaction, the audit entry `eventOf` makes from the policy it
   * replaces (null when the game had none). The replaced policy is read under the row's lock, and the entry made once
   * it is held, so of two concurrent replacements the second waits, records the first one's policy and comes after it
   * in time. A game without a row is inserted first, with the new policy: a concurrent insert then waits for this
   * transaction to end and finds its row, instead of both reading "none".
   */
  async replace(applicationId: string, policy: SigningPolicy, eventOf: (replaced: SigningPolicy | null) => PolicyEventEntity): Promise<void> {
    await this.policies.manager.transaction(async (manager) => {
      const inserted: unknown[] = await manager.query(
        `INSERT INTO wallet.signing_policies (application_id, policy, updated_at) VALUES ($1, $2, $3) ON CONFLICT (application_id) DO NOTHING RETURNING application_id`,
        [applicationId, policy, new Date()],
      );
      let event: PolicyEventEntity;
      if (inserted.length > 0) {
        event = eventOf(null);
      } else {
        const locked = await manager.query<{ policy: SigningPolicy }[]>(`SELECT policy FROM wallet.signing_policies WHERE application_id = $1 FOR UPDATE`, [applicationId]);
        event = eventOf(locked.length === 0 ? null : locked[0].policy);
        await manager.query(
          `INSERT INTO wallet.signing_policies (application_id, policy, updated_at) VALUES ($1, $2, $3)
           ON CONFLICT (application_id) DO UPDATE SET policy = EXCLUDED.policy, updated_at = EXCLUDED.updated_at`,
          [applicationId, policy, event.at],
        );
      }
      await manager.query(`INSERT INTO wallet.policy_events (id, application_id, at, actor, action, target, details) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
        event.id,
        event.applicationId,
        event.at,
        event.actor,
        event.action,
        event.target,
        event.details,
      ]);
    });
  }

  /** A game's policy changes, newest first, strictly older than `beforeId` (ids are time-ordered UUIDv7). */
  listEvents(applicationId: string, limit: number, beforeId?: string): Promise<PolicyEventEntity[]> {
    return this.events.find({
      where: beforeId === undefined ? { applicationId } : { applicationId, id: LessThan(beforeId) },
      order: { id: 'DESC' },
      take: limit,
    });
  }
}

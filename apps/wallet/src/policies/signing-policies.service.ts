import { Injectable } from '@nestjs/common';
import { AuditEntryView, DEFAULT_SIGNING_POLICY, OperatorPrincipal, SigningPolicy, actorOf, withPolicyDefaults } from '@game-wallet/contracts';
import { newId } from '@game-wallet/database';
import { LRUCache } from 'lru-cache';
import { SigningPoliciesRepository } from './signing-policies.repository';

/** The audit action of a policy change. */
export const POLICY_UPDATED = 'signing_policy.updated';

/**
 * Games' signing policies. Each replica keeps a policy it read for half a second at most, so a change reaches every
 * replica within a second (SPEC §11) without a broadcast, and a burst of signatures reads it once.
 */
@Injectable()
export class SigningPoliciesService {
  private readonly cache = new LRUCache<string, SigningPolicy>({ max: 10_000, ttl: 500 });

  constructor(private readonly policies: SigningPoliciesRepository) {}

  async forGame(applicationId: string): Promise<SigningPolicy> {
    const cached = this.cache.get(applicationId);
    if (cached !== undefined) {
      return cached;
    }
    const policy = effective(await this.policies.find(applicationId));
    this.cache.set(applicationId, policy);
    return policy;
  }

  /** Replaces the game's policy and audits the change (the operator, their address, the policy before and after). */
  async put(applicationId: string, policy: SigningPolicy, operator: OperatorPrincipal): Promise<SigningPolicy> {
    await this.policies.replace(applicationId, policy, (replaced) => ({
      id: newId(),
      applicationId,
      at: new Date(),
      actor: actorOf(operator),
      action: POLICY_UPDATED,
      target: `game:${applicationId}`,
      details: { ...(operator.ip === undefined ? {} : { ip: operator.ip }), before: effective(replaced), after: policy },
    }));
    this.cache.delete(applicationId);
    return policy;
  }

  /** A game's policy changes in the console's audit shape, newest first, older than `beforeId`. */
  async auditEntries(applicationId: string, limit: number, beforeId?: string): Promise<AuditEntryView[]> {
    const rows = await this.policies.listEvents(applicationId, limit, beforeId);
    return rows.map((row) => ({ id: row.id, at: row.at.toISOString(), actor: row.actor, action: row.action, target: row.target, details: row.details }));
  }
}

/**
 * The policy a game signs under: the default when it never set one; a policy saved before a limit existed has no
 * value for it, so no limit, as when it was saved.
 */
function effective(stored: SigningPolicy | null): SigningPolicy {
  return stored === null ? DEFAULT_SIGNING_POLICY : withPolicyDefaults(stored);
}

import { Injectable } from '@nestjs/common';
import {
  AppError,
  AuditEntryView,
  DEFAULT_SIGNING_POLICY,
  OperatorPrincipal,
  PolicyRule,
  SigningPolicy,
  SigningPolicyDraftView,
  SigningPolicyInput,
  SigningPolicyVersionView,
  SigningPolicyView,
  actorOf,
  isRulesPolicy,
  ruleDifference,
  rulesOfPolicy,
  withPolicyDefaults,
} from '@game-wallet/contracts';
import { newId } from '@game-wallet/database';
import { LRUCache } from 'lru-cache';
import { PolicyEventEntity } from './policy-event.entity';
import { assertValidRules } from './rules-validation';
import { SigningPoliciesRepository, StoredPolicy } from './signing-policies.repository';

/** The audit actions of policy changes. */
export const POLICY_UPDATED = 'signing_policy.updated';
export const POLICY_DRAFT_UPDATED = 'signing_policy.draft_updated';
export const POLICY_DRAFT_DELETED = 'signing_policy.draft_deleted';

/** The rules of a game that never saved a policy: the default policy's, converted. */
const DEFAULT_RULES = rulesOfPolicy(DEFAULT_SIGNING_POLICY).rules;

/**
 * What a replica of the previous release reads once a policy is saved as rules: a policy that refuses every
 * signature, so during a rolling update it fails closed instead of signing under a policy it cannot read.
 */
const REFUSES_EVERYTHING: SigningPolicy = { ...DEFAULT_SIGNING_POLICY, operations: { apiKey: [], profile: [] } };

/** A game's policy as the signing path reads it: the active version's rules, and the draft's when there is one. */
export interface GamePolicy {
  version: number;
  rules: PolicyRule[];
  draft: PolicyRule[] | null;
}

/**
 * Games' signing policies (SPEC §11, policy v2): ordered rules, every change a new version. Each replica keeps a
 * policy it read for half a second at most, so a change reaches every replica within a second without a broadcast,
 * and a burst of signatures reads it once.
 */
@Injectable()
export class SigningPoliciesService {
  private readonly cache = new LRUCache<string, GamePolicy>({ max: 10_000, ttl: 500 });

  constructor(private readonly policies: SigningPoliciesRepository) {}

  /** The policy signing reads: at most half a second old. */
  async forGame(applicationId: string): Promise<GamePolicy> {
    const cached = this.cache.get(applicationId);
    if (cached !== undefined) {
      return cached;
    }
    const policy = await this.current(applicationId);
    this.cache.set(applicationId, policy);
    return policy;
  }

  /** The policy as stored now: what an operator's dry run and replay read, right after their own change. */
  async current(applicationId: string): Promise<GamePolicy> {
    const stored = await this.policies.find(applicationId);
    return { version: stored.version, rules: stored.rules ?? DEFAULT_RULES, draft: stored.draft?.rules ?? null };
  }

  async view(applicationId: string): Promise<SigningPolicyView> {
    return viewOf(await this.policies.find(applicationId));
  }

  /**
   * Saves the next version and audits the change (the operator, their address, the rules before and after and what
   * changed between them). The first shape is still taken (deprecated): converted to the rules that decide as it did.
   */
  async put(applicationId: string, input: SigningPolicyInput, ifMatch: number | undefined, operator: OperatorPrincipal): Promise<SigningPolicyView> {
    const v1 = !isRulesPolicy(input);
    const rules = v1 ? rulesOfPolicy(withPolicyDefaults(input)).rules : input.rules;
    if (!v1) {
      assertValidRules(rules);
    }
    await this.policies.addVersion(applicationId, {
      rules,
      createdBy: actorOf(operator),
      origin: v1 ? 'put-v1' : 'put',
      firstShape: v1 ? withPolicyDefaults(input) : REFUSES_EVERYTHING,
      ...(ifMatch === undefined ? {} : { ifMatch }),
      eventOf: (replaced, version) => this.event(applicationId, operator, POLICY_UPDATED, { version, before: replaced.rules ?? DEFAULT_RULES, after: rules }),
    });
    this.cache.delete(applicationId);
    return this.view(applicationId);
  }

  async versions(applicationId: string, limit: number, beforeVersion?: number): Promise<SigningPolicyVersionView[]> {
    return this.policies.versions(applicationId, limit, beforeVersion);
  }

  async draft(applicationId: string): Promise<SigningPolicyDraftView> {
    const { draft } = await this.policies.find(applicationId);
    if (draft === null) {
      throw new AppError('NOT_FOUND', 'This game has no draft signing policy');
    }
    return { rules: draft.rules, baseVersion: draft.baseVersion, updatedAt: draft.updatedAt.toISOString(), updatedBy: draft.updatedBy };
  }

  /** Replaces the game's draft: evaluated beside the active policy on every signing attempt, deciding nothing. */
  async putDraft(applicationId: string, rules: PolicyRule[], operator: OperatorPrincipal): Promise<SigningPolicyDraftView> {
    assertValidRules(rules);
    const stored = await this.policies.find(applicationId);
    const draft = { rules, baseVersion: stored.version, updatedAt: new Date(), updatedBy: actorOf(operator) };
    await this.policies.setDraft(applicationId, draft, firstShapeOf(stored), this.event(applicationId, operator, POLICY_DRAFT_UPDATED, { before: stored.draft?.rules ?? null, after: rules }));
    this.cache.delete(applicationId);
    return { rules, baseVersion: draft.baseVersion, updatedAt: draft.updatedAt.toISOString(), updatedBy: draft.updatedBy };
  }

  async deleteDraft(applicationId: string, operator: OperatorPrincipal): Promise<{ deleted: true }> {
    const stored = await this.policies.find(applicationId);
    if (stored.draft === null) {
      throw new AppError('NOT_FOUND', 'This game has no draft signing policy');
    }
    await this.policies.setDraft(applicationId, null, firstShapeOf(stored), this.event(applicationId, operator, POLICY_DRAFT_DELETED, { before: stored.draft.rules, after: null }));
    this.cache.delete(applicationId);
    return { deleted: true };
  }

  /** Makes the draft the next version (and removes it); `ifMatch` is the active version the operator compared it with. */
  async activateDraft(applicationId: string, ifMatch: number | undefined, operator: OperatorPrincipal): Promise<SigningPolicyView> {
    const stored = await this.policies.find(applicationId);
    if (stored.draft === null) {
      throw new AppError('NOT_FOUND', 'This game has no draft signing policy');
    }
    const rules = stored.draft.rules;
    assertValidRules(rules);
    await this.policies.addVersion(applicationId, {
      rules,
      createdBy: actorOf(operator),
      origin: 'draft',
      firstShape: REFUSES_EVERYTHING,
      ifMatch: ifMatch ?? stored.version,
      clearDraft: true,
      eventOf: (replaced, version) => this.event(applicationId, operator, POLICY_UPDATED, { version, fromDraft: true, before: replaced.rules ?? DEFAULT_RULES, after: rules }),
    });
    this.cache.delete(applicationId);
    return this.view(applicationId);
  }

  /** A game's policy changes in the console's audit shape, newest first, older than `beforeId`. */
  async auditEntries(applicationId: string, limit: number, beforeId?: string): Promise<AuditEntryView[]> {
    const rows = await this.policies.listEvents(applicationId, limit, beforeId);
    return rows.map((row) => ({ id: row.id, at: row.at.toISOString(), actor: row.actor, action: row.action, target: row.target, details: row.details }));
  }

  private event(
    applicationId: string,
    operator: OperatorPrincipal,
    action: string,
    change: { version?: number; fromDraft?: boolean; before: PolicyRule[] | null; after: PolicyRule[] | null },
  ): PolicyEventEntity {
    return {
      id: newId(),
      applicationId,
      at: new Date(),
      actor: actorOf(operator),
      action,
      target: `game:${applicationId}`,
      details: { ...(operator.ip === undefined ? {} : { ip: operator.ip }), ...(operator.roles === undefined ? {} : { role: operator.roles.join(',') }), ...change, difference: ruleDifference(change.before ?? [], change.after ?? []) },
    };
  }
}

function viewOf(stored: StoredPolicy): SigningPolicyView {
  return {
    version: stored.version,
    rules: stored.rules ?? DEFAULT_RULES,
    updatedAt: stored.updatedAt?.toISOString() ?? null,
    updatedBy: stored.updatedBy,
  };
}

/** What the previous release reads for a game whose row is made for a draft: the default while no version was saved. */
const firstShapeOf = (stored: StoredPolicy): SigningPolicy => (stored.version === 0 ? DEFAULT_SIGNING_POLICY : REFUSES_EVERYTHING);

import { ChainName, CredentialKind, Criterion, CRITERION_SCOPE, PolicyDecision, PolicyRule, SigningOperation, VelocityCriterion, criterionText } from '@game-wallet/contracts';
import { CHAIN_SIGNERS } from '../chains';
import { CriterionOutcome, LiveFacts, SigningFacts } from '../chains/chain-signer';
import { messageCriterion } from './message-criteria';

/**
 * Evaluates a game's ordered rules (SPEC §11, policy v2): the first rule whose operation, chain and credential match
 * and whose criteria all hold decides; no match refuses. A criterion that cannot be decided never helps a signature:
 * an accept rule with one does not match; a reject rule with one does (its other criteria holding). Pure but for
 * velocity, which the caller counts (`velocity`): in Redis for a signature, read only for a dry run, and as holding in
 * a replay.
 */

export interface Credential {
  kind: CredentialKind;
  apiKeyId?: string;
}

export interface Evaluation extends PolicyDecision {
  /** true when a criterion consulted could not be decided only because what it reads is never stored (a replay) */
  undecidable: boolean;
}

/**
 * A rule's velocity criteria for this request: undefined when all have room (counted, for a signature), else the one
 * without room and what it observed.
 */
export type VelocityCheck = (rule: PolicyRule, criteria: VelocityCriterion[]) => Promise<{ criterion: VelocityCriterion; outcome: CriterionOutcome } | undefined>;

/** Whether a rule applies to this operation, chain and credential (its criteria aside). */
export function ruleApplies(rule: PolicyRule, operation: SigningOperation, chain: ChainName, credential: Credential): boolean {
  if (rule.operation !== operation || (rule.chains !== undefined && !rule.chains.includes(chain))) {
    return false;
  }
  const wanted = rule.credentials;
  if (wanted === undefined) {
    return true;
  }
  if (wanted.kinds !== undefined && !wanted.kinds.includes(credential.kind)) {
    return false;
  }
  return wanted.apiKeyIds === undefined || (credential.apiKeyId !== undefined && wanted.apiKeyIds.includes(credential.apiKeyId));
}

/**
 * The decision reachable before anything the caller sent is read: a reject rule without criteria that applies before
 * any accept rule, or no accept rule that applies at all. Undefined when the request must be decoded to decide.
 */
export function decisionBeforeDecoding(rules: PolicyRule[], operation: SigningOperation, chain: ChainName, credential: Credential): PolicyDecision | undefined {
  for (const rule of rules) {
    if (!ruleApplies(rule, operation, chain, credential)) {
      continue;
    }
    if (rule.action === 'accept') {
      return undefined;
    }
    if (rule.criteria.length === 0) {
      return { decision: 'reject', ruleId: rule.id, reason: `rule ${rule.id} rejects ${OPERATION_TEXT[operation]} from ${CREDENTIAL_TEXT[credential.kind]}` };
    }
  }
  return { decision: 'reject', ruleId: null, reason: `no rule accepts ${OPERATION_TEXT[operation]} on ${chain} from ${CREDENTIAL_TEXT[credential.kind]}` };
}

/** The decision of `rules` for a decoded request. */
export async function evaluate(
  rules: PolicyRule[],
  credential: Credential,
  facts: SigningFacts,
  live: LiveFacts | undefined,
  velocity: VelocityCheck,
): Promise<Evaluation> {
  const { operation, chain } = facts;
  /** The first accept rule that applied and did not match: why, for the refusal's message. */
  let closest: { rule: PolicyRule; criterion: Criterion; outcome: CriterionOutcome } | undefined;
  let undecidable = false;
  for (const rule of rules) {
    if (!ruleApplies(rule, operation, chain, credential)) {
      continue;
    }
    const decisive = await firstNotHolding(rule, facts, live, velocity);
    undecidable ||= decisive?.outcome.notStored === true;
    if (rule.action === 'accept') {
      if (decisive === undefined) {
        const observed = rule.criteria.length === 0 ? undefined : 'every criterion holds';
        return { decision: 'accept', ruleId: rule.id, reason: `rule ${rule.id} accepts this`, ...(observed === undefined ? {} : { observed }), undecidable };
      }
      closest ??= { rule, ...decisive };
      continue;
    }
    // A reject rule matches unless one of its criteria fails outright (undecidable counts against the signature).
    if (decisive === undefined || decisive.outcome.result === 'unknown') {
      const observed = decisive?.outcome.observed ?? firstObserved(rule, facts, live);
      return { decision: 'reject', ruleId: rule.id, reason: `rule ${rule.id} rejects this`, ...(observed === undefined ? {} : { observed }), undecidable };
    }
  }
  if (closest === undefined) {
    return { decision: 'reject', ruleId: null, reason: `no rule accepts ${OPERATION_TEXT[operation]} on ${chain} from ${CREDENTIAL_TEXT[credential.kind]}`, undecidable };
  }
  const { rule, criterion, outcome } = closest;
  const why = outcome.result === 'unknown' ? 'cannot be decided' : 'does not hold';
  return {
    decision: 'reject',
    ruleId: null,
    reason: `no rule accepted this; in rule ${rule.id}, "${criterionText(criterion, chain)}" ${why}`,
    observed: outcome.observed,
    undecidable,
  };
}

/** The first of a rule's criteria that does not hold (static ones first, velocity last: it is counted only when the rest hold). */
async function firstNotHolding(
  rule: PolicyRule,
  facts: SigningFacts,
  live: LiveFacts | undefined,
  velocity: VelocityCheck,
): Promise<{ criterion: Criterion; outcome: CriterionOutcome } | undefined> {
  let unknown: { criterion: Criterion; outcome: CriterionOutcome } | undefined;
  for (const criterion of rule.criteria) {
    if (criterion.type === 'velocity') {
      continue;
    }
    const outcome = criterionOutcome(criterion, facts, live);
    if (outcome.result === 'fails') {
      return { criterion, outcome };
    }
    if (outcome.result === 'unknown') {
      unknown ??= { criterion, outcome };
    }
  }
  if (unknown !== undefined) {
    return unknown;
  }
  const limits = velocityOf(rule);
  return limits.length === 0 ? undefined : velocity(rule, limits);
}

/** What a matched reject rule observed: its first static criterion's value. */
function firstObserved(rule: PolicyRule, facts: SigningFacts, live: LiveFacts | undefined): string | undefined {
  const criterion = rule.criteria.find((candidate): candidate is Exclude<Criterion, VelocityCriterion> => candidate.type !== 'velocity');
  return criterion === undefined ? undefined : criterionOutcome(criterion, facts, live).observed;
}

/** One static criterion: a message's own, or its chain's; one that does not fit the request cannot be decided. */
export function criterionOutcome(criterion: Exclude<Criterion, VelocityCriterion>, facts: SigningFacts, live: LiveFacts | undefined): CriterionOutcome {
  const scope = CRITERION_SCOPE[criterion.type];
  if (!scope.operations.includes(facts.operation) || !scope.chains.includes(facts.chain)) {
    return { result: 'unknown', observed: `${criterion.type} does not apply to ${OPERATION_TEXT[facts.operation]} on ${facts.chain}` };
  }
  if (facts.operation === 'message') {
    return messageCriterion(criterion, facts, live);
  }
  return CHAIN_SIGNERS[facts.chain].criterion(criterion, facts, live);
}

const velocityOf = (rule: PolicyRule): VelocityCriterion[] => rule.criteria.filter((criterion): criterion is VelocityCriterion => criterion.type === 'velocity');

const OPERATION_TEXT: Record<SigningOperation, string> = { message: 'messages', transaction: 'transactions', 'typed-data': 'typed data' };
const CREDENTIAL_TEXT: Record<CredentialKind, string> = { apiKey: 'an API key', profile: 'a profile JWT' };

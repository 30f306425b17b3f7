import { ruleDifference } from '@game-wallet/contracts/signing-rules';
import type { PolicyRule, RuleDifference } from '@game-wallet/contracts/views';
import type { SigningPolicy } from '@game-wallet/contracts/views';
import { ruleText } from './policy-rules';

/**
 * The audit actions of signing-policy changes. An update's details hold the version made, the rules `before` and
 * `after` and their `difference` (older entries: the whole policy of the first shape before and after); a draft's
 * hold its rules before and after (null: none).
 */
export const POLICY_UPDATED = 'signing_policy.updated';
export const POLICY_DRAFT_UPDATED = 'signing_policy.draft_updated';
export const POLICY_DRAFT_DELETED = 'signing_policy.draft_deleted';
export const POLICY_ACTIONS: readonly string[] = [POLICY_UPDATED, POLICY_DRAFT_UPDATED, POLICY_DRAFT_DELETED];

/**
 * Every field of a policy of the first shape in the order its form showed them, which the audit trail lists an older
 * change's fields in (the values are placeholders).
 */
export const POLICY_FIELD_ORDER: SigningPolicy = {
  operations: { apiKey: [], profile: [] },
  evm: { chainIds: null, maxValueWei: null, maxFeeWei: null, contracts: null, typedDataPrimaryTypes: null },
  sol: { programs: null, maxLamports: null, maxPriorityMicroLamports: null },
  sui: { packages: null, maxGasBudget: null, allowTransfers: true },
};

/** One field of a policy that a change set to another value, both in words. */
export interface PolicyChange {
  /** the field's path, as the API names it (`evm.maxValueWei`) */
  field: string;
  from: string;
  to: string;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A policy value in words: `null` (or a field the policy did not have yet) is "any", as the policy reads it; a list
 * its items separated by commas, an empty one "none"; anything else its JSON.
 */
export function describePolicyValue(value: unknown): string {
  if (value === null || value === undefined) {
    return 'any';
  }
  if (Array.isArray(value)) {
    return value.length === 0 ? 'none' : value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item as Json))).join(', ');
  }
  return typeof value === 'string' ? value : JSON.stringify(value as Json);
}

/**
 * The fields whose value differs between two policies (or any two JSON objects). Objects are walked field by field;
 * lists and other values are compared whole. Fields come in the order of `order` (an object of the same shape: the
 * stored policies' own order is PostgreSQL's, shortest name first), then any other in the order the newer value lists
 * them, then those only the older one had.
 */
export function policyChanges(before: unknown, after: unknown, order?: unknown): PolicyChange[] {
  return changesAt([], before, after, order);
}

function changesAt(path: string[], before: unknown, after: unknown, order: unknown): PolicyChange[] {
  if (isRecord(before) || isRecord(after)) {
    // A field that became an object or stopped being one is compared against "nothing" on the other side.
    const older = isRecord(before) ? before : {};
    const newer = isRecord(after) ? after : {};
    const template = isRecord(order) ? order : {};
    const fields = [...new Set([...Object.keys(template), ...Object.keys(newer), ...Object.keys(older)])];
    return fields
      .filter((field) => Object.hasOwn(newer, field) || Object.hasOwn(older, field))
      .flatMap((field) => changesAt([...path, field], older[field], newer[field], template[field]));
  }
  if (JSON.stringify(before ?? null) === JSON.stringify(after ?? null)) {
    return [];
  }
  return [{ field: path.join('.'), from: describePolicyValue(before), to: describePolicyValue(after) }];
}

/** One change as a line of text: `evm.maxValueWei: any → 1000`. */
export function describePolicyChange(change: PolicyChange): string {
  return `${change.field}: ${change.from} → ${change.to}`;
}

/** What changed between two rule lists, by rule id, as the platform records it. */
const isRuleList = (value: unknown): value is PolicyRule[] =>
  Array.isArray(value) && value.every((rule) => isRecord(rule) && typeof rule.id === 'string' && Array.isArray(rule.criteria));

const isIdList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

function isDifference(value: unknown): value is RuleDifference {
  return isRecord(value) && isIdList(value.added) && isIdList(value.removed) && isIdList(value.changed) && typeof value.reordered === 'boolean';
}

/** Whether an entry's details hold rules (policy v2) rather than a policy of the first shape. */
export const holdsRules = (details: Record<string, unknown>): boolean => isRuleList(details.before) || isRuleList(details.after);

/** A recorded rule in its sentence; one the console cannot read, as its JSON. */
function sentenceOf(rule: PolicyRule): string {
  try {
    return ruleText(rule);
  } catch {
    return JSON.stringify(rule);
  }
}


/** The fields of a rules change that its lines tell; the rest (the client address…) is shown as it is. */
export const RULE_CHANGE_FIELDS = ['version', 'fromDraft', 'before', 'after', 'difference'];

/**
 * A change of a policy's rules (or of its draft) in lines of text: what it made, then each rule added, removed or
 * changed in its sentence, and the new order when it changed: `added shop: Accept transactions on evm when ….`
 */
export function describeRuleChange(action: string, details: Record<string, unknown>): string[] {
  const before = isRuleList(details.before) ? details.before : [];
  const after = isRuleList(details.after) ? details.after : [];
  const lines: string[] = [];
  if (action === POLICY_DRAFT_DELETED) {
    return [`draft deleted, with its ${before.length === 1 ? 'rule' : `${before.length} rules`}`];
  }
  if (action === POLICY_DRAFT_UPDATED && details.before === null) {
    lines.push(`draft started with ${after.length === 1 ? '1 rule' : `${after.length} rules`}`);
  } else if (typeof details.version === 'number') {
    lines.push(`version ${details.version}${details.fromDraft === true ? ', the draft activated' : ''}`);
  }
  if (action === POLICY_DRAFT_UPDATED && details.before === null) {
    return lines;
  }
  const difference = isDifference(details.difference) ? details.difference : ruleDifference(before, after);
  const byId = (rules: PolicyRule[], id: string) => rules.find((rule) => rule.id === id);
  for (const id of difference.added) {
    const rule = byId(after, id);
    lines.push(`added ${id}${rule === undefined ? '' : `: ${sentenceOf(rule)}`}`);
  }
  for (const id of difference.removed) {
    const rule = byId(before, id);
    lines.push(`removed ${id}${rule === undefined ? '' : `: ${sentenceOf(rule)}`}`);
  }
  for (const id of difference.changed) {
    const [old, now] = [byId(before, id), byId(after, id)];
    lines.push(`changed ${id}${old === undefined || now === undefined ? '' : `: ${sentenceOf(old)} → ${sentenceOf(now)}`}`);
  }
  if (difference.reordered) {
    lines.push(`new order: ${after.map((rule) => rule.id).join(', ')}`);
  }
  if (difference.added.length + difference.removed.length + difference.changed.length === 0 && !difference.reordered) {
    lines.push('no rule changed');
  }
  return lines;
}

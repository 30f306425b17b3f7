/** The audit action of a signing-policy change; its details hold the whole policy `before` and `after`. */
export const POLICY_UPDATED = 'signing_policy.updated';

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

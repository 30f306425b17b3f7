/**
 * Bounds of free-form JSON a caller sends (`userData`, typed data's `domain` and `message`; SPEC §11). The value
 * itself is level 1 and each object or array inside it one more.
 */
export const FREE_FORM_JSON_LIMITS = {
  /** levels of objects and arrays */
  maxDepth: 32,
  /** keys of one object, or items of one array */
  maxEntries: 1024,
  /** values in all (objects, arrays, strings, numbers, booleans and nulls) */
  maxValues: 10_000,
} as const;

export interface FreeFormJsonLimits {
  maxDepth: number;
  maxEntries: number;
  maxValues: number;
  /** Refuse NUL in strings and keys: PostgreSQL's `jsonb` and `text` cannot hold it. */
  refuseNul?: boolean;
}

interface Pending {
  value: unknown;
  depth: number;
  key: string | number | undefined;
  parent: Pending | undefined;
}

/**
 * What is wrong with free-form JSON `value` named `field`, or `undefined`: nested deeper than `maxDepth`, an object
 * or array with more than `maxEntries` entries, more than `maxValues` values in all, or a string or key that is not
 * well-formed Unicode (a lone surrogate) or, with `refuseNul`, holds NUL. The answer names where the problem is
 * (`userData.items.3: …`).
 *
 * Iterative and linear in the size of the value (it stops at the first problem), so any input is measured safely:
 * nothing here recurses as deep as the value does.
 */
export function freeFormJsonProblem(value: unknown, field: string, limits: FreeFormJsonLimits = FREE_FORM_JSON_LIMITS): string | undefined {
  const pending: Pending[] = [{ value, depth: 1, key: undefined, parent: undefined }];
  let values = 0;
  while (pending.length > 0) {
    const current = pending.pop() as Pending;
    values += 1;
    if (values > limits.maxValues) {
      return `${field}: must hold at most ${limits.maxValues} values in all`;
    }
    const text = typeof current.value === 'string' ? textProblem(current.value, limits.refuseNul === true) : undefined;
    if (text !== undefined) {
      return `${pathOf(field, current)}: ${text}`;
    }
    if (typeof current.value !== 'object' || current.value === null) {
      continue;
    }
    if (current.depth > limits.maxDepth) {
      return `${field}: must not nest objects and arrays more than ${limits.maxDepth} levels deep`;
    }
    if (Array.isArray(current.value)) {
      if (current.value.length > limits.maxEntries) {
        return `${pathOf(field, current)}: must have at most ${limits.maxEntries} items`;
      }
      current.value.forEach((item, index) => pending.push({ value: item, depth: current.depth + 1, key: index, parent: current }));
      continue;
    }
    const entries = Object.entries(current.value);
    if (entries.length > limits.maxEntries) {
      return `${pathOf(field, current)}: must have at most ${limits.maxEntries} keys`;
    }
    for (const [key, item] of entries) {
      const keyProblem = textProblem(key, limits.refuseNul === true);
      if (keyProblem !== undefined) {
        return `${pathOf(field, current)}: a key ${keyProblem}`;
      }
      pending.push({ value: item, depth: current.depth + 1, key, parent: current });
    }
  }
  return undefined;
}

/** Why a string cannot be taken as text, or `undefined`: a lone surrogate, or (when refused) NUL. */
export function textProblem(text: string, refuseNul: boolean): string | undefined {
  if (!text.isWellFormed()) {
    return 'must be well-formed Unicode (it holds a lone surrogate)';
  }
  if (refuseNul && text.includes('\u0000')) {
    return 'must not contain NUL (\\u0000)';
  }
  return undefined;
}

/** `field.a.0.b` for a value found under `field`; long keys are cut (the path is only ever shown, never parsed). */
function pathOf(field: string, entry: Pending): string {
  const keys: string[] = [];
  for (let at: Pending | undefined = entry; at?.key !== undefined; at = at.parent) {
    const key = String(at.key);
    keys.push(key.length > 40 ? `${key.slice(0, 40)}…` : key);
  }
  return [field, ...keys.reverse()].join('.');
}

import { z } from 'zod';
import { CONTROL_CHARACTERS, parseBody } from '../validation';

const MAX_USER_DATA_BYTES = 16 * 1024;
/** userData itself is level 1; each object or array inside it one more. */
export const MAX_USER_DATA_DEPTH = 32;

const httpUrl = z
  .string()
  .max(2048, 'must be at most 2048 characters')
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an absolute http or https URL');

/** Whether `value` nests objects and arrays deeper than `limit` levels (iterative: any depth is measured safely). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop() as [unknown, number];
    if (typeof current !== 'object' || current === null) {
      continue;
    }
    if (depth > limit) {
      return true;
    }
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      pending.push([child, depth + 1]);
    }
  }
  return false;
}

export const createPlayerBody = z
  .object({
    uniqueId: z
      .string({ error: 'is required and must be a string' })
      .refine((value) => [...value].length >= 1 && [...value].length <= 128, 'must be 1 to 128 characters')
      .refine((value) => !CONTROL_CHARACTERS.test(value), 'must not contain control characters'),
    image: httpUrl.nullable().optional(),
    userData: z
      .record(z.string(), z.unknown(), { error: 'must be a JSON object' })
      .refine((value) => !nestsDeeperThan(value, MAX_USER_DATA_DEPTH), {
        message: `must not nest objects and arrays more than ${MAX_USER_DATA_DEPTH} levels deep`,
        // Measuring the size would recurse as deep as the value does.
        abort: true,
      })
      .refine((value) => Buffer.byteLength(JSON.stringify(value)) <= MAX_USER_DATA_BYTES, 'must be at most 16 KiB as JSON')
      .optional(),
  })
  .strict();

/**
 * SPEC §4.4: uniqueId (1–128 characters, no control characters), image (http/https URL or null), userData (object
 * ≤ 16 KiB, at most 32 levels deep).
 */
export function parseCreatePlayer(raw: unknown): { uniqueId: string; image: string | null; userData: Record<string, unknown> } {
  const body = parseBody(createPlayerBody, raw);
  return { uniqueId: body.uniqueId, image: body.image ?? null, userData: body.userData ?? {} };
}

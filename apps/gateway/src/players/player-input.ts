import { FREE_FORM_JSON_LIMITS, freeFormJsonProblem } from '@game-wallet/contracts';
import { z } from 'zod';
import { parseBody, withoutControlCharacters } from '../validation';

const MAX_USER_DATA_BYTES = 16 * 1024;
/** userData itself is level 1; each object or array inside it one more. */
export const MAX_USER_DATA_DEPTH = FREE_FORM_JSON_LIMITS.maxDepth;

const httpUrl = z
  .string()
  .max(2048, 'must be at most 2048 characters')
  .refine(...withoutControlCharacters)
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an absolute http or https URL');

export const createPlayerBody = z
  .object({
    uniqueId: z
      .string({ error: 'is required and must be a string' })
      .refine((value) => [...value].length >= 1 && [...value].length <= 128, 'must be 1 to 128 characters')
      .refine(...withoutControlCharacters),
    image: httpUrl.nullable().optional(),
    userData: z
      .record(z.string(), z.unknown(), { error: 'must be a JSON object' })
      .describe(
        `at most 16 KiB as JSON, ${FREE_FORM_JSON_LIMITS.maxDepth} levels of objects and arrays, ${FREE_FORM_JSON_LIMITS.maxEntries} entries in one; ` +
          'strings and keys well-formed Unicode without NUL',
      )
      .optional(),
  })
  .strict()
  .superRefine(({ userData }, context) => {
    if (userData !== undefined) {
      const problem = userDataProblem(userData);
      if (problem !== undefined) {
        context.addIssue({ code: 'custom', message: problem });
      }
    }
  });

/**
 * userData is stored as jsonb: no NUL, and within the free-form bounds — checked before its size is measured, as
 * measuring recurses as deep as the value does.
 */
function userDataProblem(userData: Record<string, unknown>): string | undefined {
  const problem = freeFormJsonProblem(userData, 'userData', { ...FREE_FORM_JSON_LIMITS, refuseNul: true });
  if (problem === undefined && Buffer.byteLength(JSON.stringify(userData)) > MAX_USER_DATA_BYTES) {
    return 'userData: must be at most 16 KiB as JSON';
  }
  return problem;
}

/**
 * SPEC §4.4: uniqueId (1–128 characters, no control characters), image (http/https URL or null), userData (object
 * ≤ 16 KiB, within the free-form JSON bounds, no NUL).
 */
export function parseCreatePlayer(raw: unknown): { uniqueId: string; image: string | null; userData: Record<string, unknown> } {
  const body = parseBody(createPlayerBody, raw);
  return { uniqueId: body.uniqueId, image: body.image ?? null, userData: body.userData ?? {} };
}

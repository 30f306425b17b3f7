import { AppError, ErrorCode, PAGE_LIMIT, decodeCursor } from '@game-wallet/contracts';
import { z } from 'zod';

function describe(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => {
      if (issue.code === 'unrecognized_keys') {
        const unknown = `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`;
        return issue.path.length > 0 ? `${issue.path.join('.')}: ${unknown}` : unknown;
      }
      return issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

/**
 * A request body checked against `schema` (strict objects: unknown fields are refused, which catches typos).
 * Failures are 400 with `code` (default `VALIDATION_FAILED`) and a message naming the field.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown, code: ErrorCode = 'VALIDATION_FAILED'): z.output<S> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError('VALIDATION_FAILED', 'The body must be a JSON object');
  }
  const result = schema.safeParse(body);
  if (!result.success) {
    throw new AppError(code, describe(result.error));
  }
  return result.data;
}

export const pageQuery = z.object({
  cursor: z.string().max(200).optional(),
  limit: z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .refine((value) => value >= PAGE_LIMIT.min && value <= PAGE_LIMIT.max, `must be from ${PAGE_LIMIT.min} to ${PAGE_LIMIT.max}`)
    .optional(),
});

/** A query string checked against `schema` (parameters it does not name are ignored); failures are 400 `INVALID_QUERY`. */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.output<S> {
  const result = schema.safeParse(query ?? {});
  if (!result.success) {
    throw new AppError('INVALID_QUERY', describe(result.error));
  }
  return result.data;
}

/** `cursor` and `limit` of a list (limit 1–100, default 50); anything else in the query is ignored. 400 `INVALID_QUERY`. */
export function parsePageQuery(query: unknown): { cursor?: string; limit: number } {
  const page = parseQuery(pageQuery, query);
  decodeCursor(page.cursor);
  return { cursor: page.cursor || undefined, limit: page.limit ?? PAGE_LIMIT.default };
}

/** C0 controls, DEL and C1 controls: refused in names and ids people read. */
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Text people read or the database stores: no control characters (NUL included, which PostgreSQL cannot store).
 * Spread into `.refine(...)`.
 */
export const withoutControlCharacters = [(value: string): boolean => !CONTROL_CHARACTERS.test(value), 'must not contain control characters'] as const;

/** A short trimmed name (games, keys): 1–100 characters, no control characters. */
export const nameField = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters')
  .refine(...withoutControlCharacters);

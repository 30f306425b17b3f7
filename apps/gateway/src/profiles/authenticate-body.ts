import { AppError, PROFILE_TOKEN_MAX_SECONDS } from '@game-wallet/contracts';
import { z } from 'zod';
import { parseBody } from '../validation';

export const DEFAULT_DURATION_SECONDS = 3600;
export const MIN_DURATION_SECONDS = 60;
export const MAX_DURATION_SECONDS = PROFILE_TOKEN_MAX_SECONDS;

/** The documented body; `duration` is checked on its own so that a bad one answers `INVALID_DURATION`. */
export const durationField = z
  .number()
  .int()
  .min(MIN_DURATION_SECONDS)
  .max(MAX_DURATION_SECONDS)
  .nullable()
  .optional()
  .describe('Lifetime of the token in seconds; absent or null: 3600');
export const authenticateBody = z.object({ duration: durationField }).strict();
const body = z.object({ duration: z.unknown().optional() }).strict();

/**
 * SPEC §4.1: `{duration?: number | null}` — whole seconds from 60 to 2592000 (30 days); absent or null → 3600.
 * Anything else → 400 `INVALID_DURATION` ("60" and 1.5 included); an unknown field → 400 `VALIDATION_FAILED`.
 */
export function parseDuration(raw: unknown): number {
  const { duration } = parseBody(body, raw);
  const checked = durationField.safeParse(duration);
  if (!checked.success) {
    throw new AppError('INVALID_DURATION', `duration must be a whole number of seconds from ${MIN_DURATION_SECONDS} to ${MAX_DURATION_SECONDS}, or null`);
  }
  return checked.data ?? DEFAULT_DURATION_SECONDS;
}

import { IdempotencyKeys1763742100000 } from './1763742100000-IdempotencyKeys';

/** Every migration of the `gateway` schema, oldest first. */
export const GATEWAY_MIGRATIONS = [IdempotencyKeys1763742100000];

import { Baseline1763740800000 } from './1763740800000-Baseline';

/** Every migration of the `identity` schema, oldest first. */
export const IDENTITY_MIGRATIONS = [Baseline1763740800000];

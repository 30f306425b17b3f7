import { Baseline1763740800000 } from './1763740800000-Baseline';

/** Every migration of the `core` schema, oldest first. */
export const CORE_MIGRATIONS = [Baseline1763740800000];

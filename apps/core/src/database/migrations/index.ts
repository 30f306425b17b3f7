import { Baseline1763740800000 } from './1763740800000-Baseline';
import { PlayerTables1763741100000 } from './1763741100000-PlayerTables';

/** Every migration of the `core` schema, oldest first. */
export const CORE_MIGRATIONS = [Baseline1763740800000, PlayerTables1763741100000];

import { Baseline1763740800000 } from './1763740800000-Baseline';
import { PlayerTables1763741100000 } from './1763741100000-PlayerTables';

import { Outbox1763742000000 } from './1763742000000-Outbox';

/** Every migration of the `core` schema, oldest first. */
export const CORE_MIGRATIONS = [Baseline1763740800000, PlayerTables1763741100000, Outbox1763742000000];

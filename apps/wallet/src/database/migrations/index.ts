import { Baseline1763740800000 } from './1763740800000-Baseline';

/** Every migration of the `wallet` schema, oldest first. */
export const WALLET_MIGRATIONS = [Baseline1763740800000];

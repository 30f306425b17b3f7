import { Baseline1763740800000 } from './1763740800000-Baseline';
import { WalletTables1763741000000 } from './1763741000000-WalletTables';

/** Every migration of the `wallet` schema, oldest first. */
export const WALLET_MIGRATIONS = [Baseline1763740800000, WalletTables1763741000000];

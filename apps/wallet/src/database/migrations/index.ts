import { Baseline1763740800000 } from './1763740800000-Baseline';
import { WalletTables1763741000000 } from './1763741000000-WalletTables';
import { OwnerBoundSecrets1763741100000 } from './1763741100000-OwnerBoundSecrets';
import { SigningOperations1763741200000 } from './1763741200000-SigningOperations';
import { SigningPolicies1763741300000 } from './1763741300000-SigningPolicies';
import { OwnerBoundSecretsOnly1763741400000 } from './1763741400000-OwnerBoundSecretsOnly';
import { PolicyEvents1763741500000 } from './1763741500000-PolicyEvents';
import { PolicyVersions1763741600000 } from './1763741600000-PolicyVersions';
import { SealedChainKeys1763741700000 } from './1763741700000-SealedChainKeys';
import { AuditChain1763741800000 } from './1763741800000-AuditChain';

import { Outbox1763742000000 } from './1763742000000-Outbox';

/** Every migration of the `wallet` schema, oldest first. */
export const WALLET_MIGRATIONS = [Baseline1763740800000, WalletTables1763741000000, OwnerBoundSecrets1763741100000, SigningOperations1763741200000, SigningPolicies1763741300000, OwnerBoundSecretsOnly1763741400000, PolicyEvents1763741500000, PolicyVersions1763741600000, SealedChainKeys1763741700000, AuditChain1763741800000, Outbox1763742000000];

import { PolicyEventEntity } from '../policies/policy-event.entity';
import { SigningPolicyEntity } from '../policies/signing-policy.entity';
import { SignatureEventEntity } from '../signatures/entities/signature-event.entity';
import { WalletEntity } from '../wallets/entities/wallet.entity';

/** Every entity of the `wallet` schema. */
export const WALLET_ENTITIES = [WalletEntity, SignatureEventEntity, SigningPolicyEntity, PolicyEventEntity];

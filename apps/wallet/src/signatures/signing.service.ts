import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppError, ChainName, SignatureView, actorOf } from '@game-wallet/contracts';
import { newId } from '@game-wallet/database';
import { createHash } from 'node:crypto';
import { chainKey, seedOfEntropy } from '../keys/derivation';
import { KeyIntegrityError, openEntropy } from '../keys/envelope';
import { MASTER_KEYS, MasterKeys } from '../keys/master-keys';
import { signWith } from '../keys/signing';
import { isSolanaTransaction } from '../keys/solana-transaction';
import { GameCaller } from '../wallets/wallet-access';
import { WalletCache } from '../wallets/wallet-cache';
import { WalletsRepository } from '../wallets/wallets.repository';
import { WalletsService, addressesOf } from '../wallets/wallets.service';
import { SignaturesRepository } from './signatures.repository';

/**
 * Signs with a wallet's key. The entropy is opened, the chain key derived, the message signed and every secret buffer
 * zeroed within this one call; the signature, the wallet's last use and the audit entry are saved together.
 */
@Injectable()
export class SigningService {
  private readonly logger = new Logger(SigningService.name);

  constructor(
    private readonly wallets: WalletsService,
    private readonly repository: WalletsRepository,
    private readonly signatures: SignaturesRepository,
    private readonly cache: WalletCache,
    @Inject(MASTER_KEYS) private readonly masterKeys: MasterKeys,
  ) {}

  async sign(walletId: string, chain: ChainName, message: Buffer, caller: GameCaller): Promise<SignatureView> {
    // A 400 before the wallet is looked up (SPEC §2: validation, then 404).
    if (chain === 'sol' && isSolanaTransaction(message)) {
      throw new AppError('MESSAGE_IS_TRANSACTION', 'These bytes are a Solana transaction: message signing does not sign transactions');
    }
    const wallet = await this.wallets.getWithSecret(walletId, caller);
    let entropy: Buffer;
    try {
      entropy = openEntropy(wallet, wallet, this.masterKeys.keys);
    } catch (error) {
      if (error instanceof KeyIntegrityError) {
        this.logger.error(`Key integrity check failed for wallet ${wallet.id}: its stored key material does not authenticate`);
        throw new AppError('KEY_INTEGRITY_FAILED', 'The key material of this wallet failed its integrity check');
      }
      throw error;
    }
    const seed = seedOfEntropy(entropy);
    entropy.fill(0);
    const key = chainKey(seed, chain);
    seed.fill(0);
    let signature: string;
    try {
      signature = signWith(chain, key, message);
    } finally {
      key.fill(0);
    }
    const at = new Date();
    await this.repository.transaction(async (manager) => {
      await this.repository.touch(wallet.id, at, manager);
      await this.signatures.insert(
        {
          id: newId(),
          applicationId: wallet.applicationId,
          walletId: wallet.id,
          chain,
          messageSha256: createHash('sha256').update(message).digest('hex'),
          credential: actorOf(caller),
          at,
        },
        manager,
      );
    });
    await this.cache.signed(wallet.id, at);
    return { chain, address: addressesOf(wallet)[chain], signature };
  }
}

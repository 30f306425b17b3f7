import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppError, ChainName } from '@game-wallet/contracts';
import { LRUCache } from 'lru-cache';
import { SIGNATURE_PRIMITIVES } from '../chains/signature-primitives';
import { ChainKeyMismatchError, SEALED_CHAIN_KEY_BYTES } from '../keys/chain-key-envelope';
import { addressOf } from '../keys/derivation';
import { KeyIntegrityError, openEntropy, openSealedChainKey } from '../keys/envelope';
import { KeyGenerator } from '../keys/key-generator';
import { MasterKeyring } from '../keys/master-keyring';
import { MASTER_KEYS } from '../keys/master-keys';
import { OwnerBinding } from '../keys/owner-binding';
import { WalletEntity } from '../wallets/entities/wallet.entity';
import { SIGNING_PLACEMENT_TOKEN, SigningPlacement } from './signing-placement';

const SEALED = { evm: 'sealedEvmKey', sol: 'sealedSolKey', sui: 'sealedSuiKey' } as const;
const ADDRESS = { evm: 'addressEvm', sol: 'addressSol', sui: 'addressSui' } as const;

/**
 * A wallet's chain key for one signature, and the signature made with it. The key is opened from the wallet's sealed
 * chain key when it has one (its data key unwrapped by the keyring, the one sealed key opened: microseconds), else
 * derived from its entropy on a worker (the way of wallets the backfill has not reached: milliseconds). Every key and
 * data key is zeroed once used.
 *
 * Integrity: the sealed key's associated data names the wallet, its owner and the chain, so a key moved from another
 * row, owner or column does not open. What that cannot catch is a key sealed under this wallet's data key that is not
 * its key (only a writer holding the data key: a defect in sealing, or a forged address column): so a sealed key is
 * also checked against the wallet's stored address before its first use. The check is remembered per replica for
 * that sealed value and address (the GCM tag names the value: another value under the same tag does not open), so it
 * costs the address derivation — a scalar multiplication on evm — once per wallet and chain, not per signature.
 * Either failure answers 500 `KEY_INTEGRITY_FAILED`, is logged without any secret, and signs nothing.
 */
@Injectable()
export class ChainKeys {
  private readonly logger = new Logger(ChainKeys.name);
  private readonly matched = new LRUCache<string, string>({ max: 20_000 });

  constructor(
    private readonly keys: KeyGenerator,
    @Inject(MASTER_KEYS) private readonly masterKeys: MasterKeyring,
    private readonly ownerBinding: OwnerBinding,
    /** Where each chain signs (a test may place them elsewhere; the service takes SIGNING_PLACEMENT). */
    @Inject(SIGNING_PLACEMENT_TOKEN) private readonly placement: Readonly<Record<ChainName, SigningPlacement>>,
  ) {}

  /** The wallet's private key for `chain`, in a buffer the caller zeroes (or hands to {@link sign}). */
  async open(wallet: WalletEntity, chain: ChainName): Promise<Uint8Array> {
    const packed = wallet[SEALED[chain]];
    const acceptVersion1 = this.ownerBinding.acceptsVersion1;
    try {
      if (packed === null || packed === undefined) {
        const entropy = await openEntropy(wallet, wallet, this.masterKeys, { acceptVersion1 });
        return await this.keys.deriveChainKey(entropy, chain); // the entropy is zeroed as it goes
      }
      const key = await openSealedChainKey(wallet, wallet, chain, packed, this.masterKeys, { acceptVersion1 });
      try {
        this.checkAddress(wallet, chain, packed, key);
      } catch (error) {
        key.fill(0);
        throw error;
      }
      return key;
    } catch (error) {
      if (error instanceof KeyIntegrityError || error instanceof ChainKeyMismatchError) {
        const what = error instanceof ChainKeyMismatchError ? `its sealed ${chain} key does not match its ${chain} address` : 'its stored key material does not authenticate';
        this.logger.error(`Key integrity check failed for wallet ${wallet.id}: ${what}`);
        throw new AppError('KEY_INTEGRITY_FAILED', 'The key material of this wallet failed its integrity check');
      }
      throw error;
    }
  }

  /** `chain`'s signature of `payload` with the key once open, where the chain signs; the key is zeroed whatever happens. */
  async sign(key: Promise<Uint8Array>, chain: ChainName, payload: Uint8Array): Promise<Uint8Array> {
    const opened = await key;
    if (this.placement[chain] === 'worker') {
      return this.keys.signOnWorker(opened, chain, payload);
    }
    try {
      return SIGNATURE_PRIMITIVES[chain](opened, payload);
    } finally {
      opened.fill(0);
    }
  }

  private checkAddress(wallet: WalletEntity, chain: ChainName, packed: Buffer, key: Uint8Array): void {
    const address = wallet[ADDRESS[chain]];
    const seen = `${packed.subarray(SEALED_CHAIN_KEY_BYTES - 16).toString('base64')}|${address}`;
    const entry = `${wallet.id}|${chain}`;
    if (this.matched.get(entry) === seen) {
      return;
    }
    if (addressOf(chain, key) !== address) {
      throw new ChainKeyMismatchError(wallet.id, chain);
    }
    this.matched.set(entry, seen);
  }
}

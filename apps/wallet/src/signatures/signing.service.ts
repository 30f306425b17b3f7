import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  AppError,
  ChainName,
  SignatureView,
  SignedTransactionView,
  SigningOperation,
  GamePrincipal,
  TransactionRequest,
  TypedDataRequest,
  actorOf,
} from '@game-wallet/contracts';
import { newId } from '@game-wallet/database';
import { createHash } from 'node:crypto';
import { CHAIN_SIGNERS, SigningRequest, decode, receivedBytes } from '../chains';
import { KeyIntegrityError, openEntropy } from '../keys/envelope';
import { OwnerBinding } from '../keys/owner-binding';
import { KeyGenerator } from '../keys/key-generator';
import { MasterKeyring } from '../keys/master-keyring';
import { MASTER_KEYS } from '../keys/master-keys';
import { WalletCache } from '../wallets/wallet-cache';
import { WalletsService, addressesOf } from '../wallets/wallets.service';
import { WalletEntity } from '../wallets/entities/wallet.entity';
import { SignaturesRepository } from './signatures.repository';
import { checkOperation } from './signing-policy';
import { SigningPoliciesService } from '../policies/signing-policies.service';

/**
 * Signs with a wallet's key, one pipeline for every signing route; what differs by chain is in the chain's file
 * under `chains/`. The entropy is opened, the chain key derived (on a worker thread), the payload signed and every
 * secret buffer zeroed within this one call; the signature, the wallet's last use and the audit entry are saved
 * together.
 */
@Injectable()
export class SigningService {
  private readonly logger = new Logger(SigningService.name);

  constructor(
    private readonly wallets: WalletsService,
    private readonly signatures: SignaturesRepository,
    private readonly cache: WalletCache,
    private readonly policies: SigningPoliciesService,
    private readonly keys: KeyGenerator,
    @Inject(MASTER_KEYS) private readonly masterKeys: MasterKeyring,
    private readonly ownerBinding: OwnerBinding,
  ) {}

  /** A message: EIP-191 on evm, the raw bytes on sol (refused when they are a transaction), Sui's personal message. */
  sign(walletId: string, chain: ChainName, message: Buffer, caller: GamePrincipal): Promise<SignatureView> {
    return this.run(walletId, { operation: 'message', chain, message }, caller) as Promise<SignatureView>;
  }

  /** A transaction on any chain (SPEC §11), answered as the chain broadcasts it. */
  signTransaction(walletId: string, transaction: TransactionRequest, caller: GamePrincipal): Promise<SignedTransactionView> {
    return this.run(walletId, { operation: 'transaction', chain: transaction.chain, transaction }, caller) as Promise<SignedTransactionView>;
  }

  /** EIP-712 typed data (`eth_signTypedData_v4`): `0x` r ‖ s ‖ v. */
  signTypedData(walletId: string, typedData: TypedDataRequest, caller: GamePrincipal): Promise<SignatureView> {
    return this.run(walletId, { operation: 'typed-data', chain: 'evm', typedData }, caller) as Promise<SignatureView>;
  }

  /**
   * The signing pipeline. The caller's right to ask for the operation is checked before anything it sent is decoded
   * or hashed; then the request is decoded (400), the wallet found (404, then 403 for another owner), the checks that
   * need its address made (400), the game's policy applied (403, recorded in the audit trail), and the payload signed
   * and recorded.
   */
  private async run(walletId: string, request: SigningRequest, caller: GamePrincipal): Promise<SignatureView | SignedTransactionView> {
    const { chain, operation } = request;
    const policy = await this.policies.forGame(caller.applicationId);
    try {
      checkOperation(policy, caller, operation);
    } catch (error) {
      // Audited against the wallet, after the wallet's own answers (404, then 403 for another owner).
      const wallet = await this.wallets.getWithSecret(walletId, caller);
      await this.record(wallet, caller, chain, operation, receivedBytes(request), 'denied');
      throw error;
    }
    const decoded = await decode(CHAIN_SIGNERS[chain], request);
    const wallet = await this.wallets.getWithSecret(walletId, caller);
    const prepared = decoded.forWallet(addressesOf(wallet)[chain]);
    try {
      prepared.check(policy);
    } catch (error) {
      if (error instanceof AppError && error.code === 'POLICY_DENIED') {
        await this.record(wallet, caller, chain, operation, prepared.audited, 'denied');
      }
      throw error;
    }
    const { view, signed } = await prepared.sign((use) => this.withChainKey(wallet, chain, use));
    await this.record(wallet, caller, chain, operation, signed, 'allowed');
    return view;
  }

  /**
   * Runs `sign` with the wallet's key for `chain`: the entropy is opened, the chain key derived, and every secret
   * buffer zeroed before this returns, whatever `sign` does.
   */
  private async withChainKey<T>(wallet: WalletEntity, chain: ChainName, sign: (key: Uint8Array) => T): Promise<T> {
    let entropy: Buffer;
    try {
      entropy = await openEntropy(wallet, wallet, this.masterKeys, { acceptVersion1: this.ownerBinding.acceptsVersion1 });
    } catch (error) {
      if (error instanceof KeyIntegrityError) {
        this.logger.error(`Key integrity check failed for wallet ${wallet.id}: its stored key material does not authenticate`);
        throw new AppError('KEY_INTEGRITY_FAILED', 'The key material of this wallet failed its integrity check');
      }
      throw error;
    }
    // Derived on a worker thread; the entropy is zeroed here as it goes.
    const key = await this.keys.deriveChainKey(entropy, chain);
    try {
      return sign(key);
    } finally {
      key.fill(0);
    }
  }

  /** The signing attempt's audit entry and, when it was signed, the wallet's last use, saved together (see SignaturesRepository). */
  private async record(
    wallet: WalletEntity,
    caller: GamePrincipal,
    chain: ChainName,
    operation: SigningOperation,
    signed: Uint8Array,
    decision: 'allowed' | 'denied',
  ): Promise<void> {
    const at = new Date();
    await this.signatures.record({
      id: newId(),
      applicationId: wallet.applicationId,
      walletId: wallet.id,
      chain,
      operation,
      decision,
      messageSha256: createHash('sha256').update(signed).digest('hex'),
      credential: actorOf(caller),
      at,
    });
    if (decision === 'allowed') {
      await this.cache.signed(wallet.id, at);
    }
  }
}

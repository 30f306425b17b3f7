import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  AppError,
  ChainName,
  EvmTransactionRequest,
  SignatureView,
  SignedTransactionView,
  SigningOperation,
  SigningPolicy,
  GamePrincipal,
  TransactionRequest,
  TypedDataRequest,
  actorOf,
  typedDataProblem,
} from '@game-wallet/contracts';
import { newId } from '@game-wallet/database';
import { ed25519 } from '@noble/curves/ed25519';
import { base58 } from '@scure/base';
import { createHash } from 'node:crypto';
import { KeyIntegrityError, openEntropy } from '../keys/envelope';
import { OwnerBinding } from '../keys/owner-binding';
import { KeyGenerator } from '../keys/key-generator';
import { MasterKeyring } from '../keys/master-keyring';
import { MASTER_KEYS } from '../keys/master-keys';
import { evmSignatureHex, signEvmDigest, signWith, suiSignatureOf } from '../keys/signing';
import { solanaSignerSlot, solanaTransactionToSign, suiTransactionData, suiTransactionDigest, withSolanaSignature } from '../keys/chain-transactions';
import { evmTransactionToSign, signedEvmTransaction, typedDataDigest } from '../keys/evm-payloads';
import { isSolanaTransaction } from '../keys/solana-transaction';
import { WalletCache } from '../wallets/wallet-cache';
import { WalletsService, addressesOf } from '../wallets/wallets.service';
import { WalletEntity } from '../wallets/entities/wallet.entity';
import { SignaturesRepository } from './signatures.repository';
import { checkEvmTransaction, checkOperation, checkTypedData } from './signing-policy';
import { checkSolanaTransaction } from './solana-policy';
import { checkSuiTransaction } from './sui-policy';
import { SigningPoliciesService } from '../policies/signing-policies.service';

/**
 * Signs with a wallet's key. The entropy is opened, the chain key derived (on a worker thread), the message signed and
 * every secret buffer zeroed within this one call; the signature, the wallet's last use and the audit entry are saved
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

  async sign(walletId: string, chain: ChainName, message: Buffer, caller: GamePrincipal): Promise<SignatureView> {
    await this.policyAllowing(walletId, caller, chain, 'message', () => message);
    // A 400 before the wallet is looked up (SPEC §2: validation, then 404).
    if (chain === 'sol' && isSolanaTransaction(message)) {
      throw new AppError('MESSAGE_IS_TRANSACTION', 'These bytes are a Solana transaction: message signing does not sign transactions');
    }
    const wallet = await this.wallets.getWithSecret(walletId, caller);
    const signature = await this.withChainKey(wallet, chain, (key) => signWith(chain, key, message));
    await this.record(wallet, caller, chain, 'message', message, 'allowed');
    return { chain, address: addressesOf(wallet)[chain], signature };
  }

  /**
   * A transaction on any chain (SPEC §11): the caller's right to sign transactions is checked before the payload is
   * read at all; then the payload is decoded (400), the wallet found (404, 403), the chain's rules checked, and the
   * transaction signed and returned as the chain broadcasts it.
   */
  async signTransaction(walletId: string, request: TransactionRequest, caller: GamePrincipal): Promise<SignedTransactionView> {
    const received = request.chain === 'evm' ? undefined : Buffer.from(request.transaction, 'base64');
    const policy = await this.policyAllowing(walletId, caller, request.chain, 'transaction', () => received ?? Buffer.from(JSON.stringify(request.transaction)));
    switch (request.chain) {
      case 'evm':
        return this.signEvmTransaction(walletId, policy, request.transaction, caller);
      case 'sol':
        return this.signSolanaTransaction(walletId, policy, received as Buffer, caller);
      case 'sui':
        return this.signSuiTransaction(walletId, policy, received as Buffer, caller);
    }
  }

  /** An EVM transaction (EIP-1559 or legacy): the raw signed bytes to broadcast and their hash. */
  private async signEvmTransaction(walletId: string, policy: SigningPolicy, request: EvmTransactionRequest, caller: GamePrincipal): Promise<SignedTransactionView> {
    const transaction = await evmTransactionToSign(request);
    const wallet = await this.wallets.getWithSecret(walletId, caller);
    const unsigned = bytesOfHex(transaction.unsignedSerialized);
    await this.authorize(wallet, caller, 'evm', 'transaction', unsigned, () => checkEvmTransaction(policy, transaction));
    const digest = bytesOfHex(transaction.unsignedHash);
    const signature = await this.withChainKey(wallet, 'evm', (key) => signEvmDigest(key, digest));
    const { raw, hash } = await signedEvmTransaction(transaction, signature);
    await this.record(wallet, caller, 'evm', 'transaction', unsigned, 'allowed');
    return { chain: 'evm', address: addressesOf(wallet).evm, signedTransaction: raw, hash };
  }

  /** A Solana transaction (legacy or v0): the wallet's signature in its slot; 400 `NOT_A_SIGNER` when it has none. */
  private async signSolanaTransaction(walletId: string, policy: SigningPolicy, bytes: Buffer, caller: GamePrincipal): Promise<SignedTransactionView> {
    const transaction = solanaTransactionToSign(bytes);
    const wallet = await this.wallets.getWithSecret(walletId, caller);
    const address = addressesOf(wallet).sol;
    const slot = solanaSignerSlot(transaction, base58.decode(address));
    const message = bytes.subarray(transaction.messageOffset);
    await this.authorize(wallet, caller, 'sol', 'transaction', message, () => checkSolanaTransaction(policy, transaction.message));
    const signature = await this.withChainKey(wallet, 'sol', (key) => ed25519.sign(message, key));
    const signed = withSolanaSignature(bytes, transaction, slot, signature);
    await this.record(wallet, caller, 'sol', 'transaction', message, 'allowed');
    return { chain: 'sol', address, signature: base58.encode(signature), signedTransaction: Buffer.from(signed).toString('base64') };
  }

  /** Sui TransactionData: a signature over its intent; 400 `SENDER_MISMATCH` when another address sends it. */
  private async signSuiTransaction(walletId: string, policy: SigningPolicy, bytes: Buffer, caller: GamePrincipal): Promise<SignedTransactionView> {
    const data = suiTransactionData(bytes);
    const wallet = await this.wallets.getWithSecret(walletId, caller);
    const address = addressesOf(wallet).sui;
    if (data.V1.sender.toLowerCase() !== address.toLowerCase()) {
      throw new AppError('SENDER_MISMATCH', `The transaction's sender ${data.V1.sender} is not this wallet's Sui address`);
    }
    await this.authorize(wallet, caller, 'sui', 'transaction', bytes, () => checkSuiTransaction(policy, data));
    const digest = suiTransactionDigest(bytes);
    const signature = await this.withChainKey(wallet, 'sui', (key) => suiSignatureOf(key, digest));
    await this.record(wallet, caller, 'sui', 'transaction', bytes, 'allowed');
    return { chain: 'sui', address, signature };
  }

  /**
   * EIP-712 typed data (`eth_signTypedData_v4`): `0x` r ‖ s ‖ v. After the operation, its shape is checked (the
   * gateway's bounds, again: linear in its size), then the rules that read the request as sent, and only then is it
   * hashed.
   */
  async signTypedData(walletId: string, typedData: TypedDataRequest, caller: GamePrincipal): Promise<SignatureView> {
    // Until it is hashed, a refusal is recorded under the SHA-256 of the request as received.
    const received = (): Uint8Array => Buffer.from(JSON.stringify(typedData));
    const policy = await this.policyAllowing(walletId, caller, 'evm', 'typed-data', received);
    const problem = typedDataProblem(typedData);
    if (problem !== undefined) {
      throw new AppError('VALIDATION_FAILED', problem);
    }
    const wallet = await this.wallets.getWithSecret(walletId, caller);
    await this.authorize(wallet, caller, 'evm', 'typed-data', received(), () => checkTypedData(policy, typedData));
    const digest = await typedDataDigest(typedData);
    const signature = await this.withChainKey(wallet, 'evm', (key) => evmSignatureHex(signEvmDigest(key, digest)));
    await this.record(wallet, caller, 'evm', 'typed-data', digest, 'allowed');
    return { chain: 'evm', address: addressesOf(wallet).evm, signature };
  }

  /**
   * The caller's game's signing policy, once it lets the caller's kind of credential ask for `operation` at all:
   * checked before anything the caller sent is decoded or hashed, so a caller the policy refuses costs no parsing. A
   * refusal is audited against the wallet, after the wallet's own answers (404, then 403 for another owner), as
   * before; `received` is what the audit entry's SHA-256 is taken of.
   */
  private async policyAllowing(walletId: string, caller: GamePrincipal, chain: ChainName, operation: SigningOperation, received: () => Uint8Array): Promise<SigningPolicy> {
    const policy = await this.policies.forGame(caller.applicationId);
    try {
      checkOperation(policy, caller, operation);
      return policy;
    } catch (error) {
      const wallet = await this.wallets.getWithSecret(walletId, caller);
      await this.record(wallet, caller, chain, operation, received(), 'denied');
      throw error;
    }
  }

  /**
   * Runs a check of the game's signing policy (SPEC §11). A refusal is recorded in the audit trail, with the SHA-256
   * of what was to be signed, then answered 403 `POLICY_DENIED`.
   */
  private async authorize(
    wallet: WalletEntity,
    caller: GamePrincipal,
    chain: ChainName,
    operation: SigningOperation,
    signed: Uint8Array,
    check: () => void,
  ): Promise<void> {
    try {
      check();
    } catch (error) {
      if (error instanceof AppError && error.code === 'POLICY_DENIED') {
        await this.record(wallet, caller, chain, operation, signed, 'denied');
      }
      throw error;
    }
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

const bytesOfHex = (hex: string): Uint8Array => Buffer.from(hex.replace(/^0x/, ''), 'hex');

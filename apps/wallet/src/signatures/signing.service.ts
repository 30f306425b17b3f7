import { Injectable } from '@nestjs/common';
import {
  AppError,
  ChainName,
  PolicyDecision,
  SignatureView,
  SignedTransactionView,
  GamePrincipal,
  TransactionRequest,
  TypedDataRequest,
  actorOf,
} from '@game-wallet/contracts';
import { newId } from '@game-wallet/database';
import { createHash } from 'node:crypto';
import { CHAIN_SIGNERS, SigningRequest, decode, receivedBytes } from '../chains';
import { WalletCache } from '../wallets/wallet-cache';
import { WalletsService, addressesOf } from '../wallets/wallets.service';
import { WalletEntity } from '../wallets/entities/wallet.entity';
import { SignaturesRepository } from './signatures.repository';
import { ChainKeys } from './chain-keys';
import { Credential, decisionBeforeDecoding, evaluate } from '../policies/rules-engine';
import { ShadowPolicy } from '../policies/shadow-policy';
import { VelocityLimits } from '../policies/velocity';
import { SigningFacts } from '../chains/chain-signer';
import { storedFacts } from '../chains';
import { SigningPoliciesService } from '../policies/signing-policies.service';

/**
 * Signs with a wallet's key, one pipeline for every signing route; what differs by chain is in the chain's file
 * under `chains/`. The chain key is opened (ChainKeys: from the wallet's sealed chain key, or derived from its entropy
 * on a worker thread), the payload signed and every secret buffer zeroed within this one call (a key opened for a signature the velocity count then refuses is zeroed
 * as soon as it is there); the signature, the wallet's last use and the audit entry are saved together.
 */
@Injectable()
export class SigningService {
  constructor(
    private readonly wallets: WalletsService,
    private readonly signatures: SignaturesRepository,
    private readonly cache: WalletCache,
    private readonly policies: SigningPoliciesService,
    private readonly chainKeys: ChainKeys,
    private readonly velocity: VelocityLimits,
    private readonly shadow: ShadowPolicy,
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
   * The signing pipeline. When the game's rules refuse the operation whatever the payload (no rule could accept it),
   * it is refused before anything the caller sent is decoded or hashed; otherwise the request is decoded (400), the
   * wallet found (404, then 403 for another owner), the checks that need its address made (400), the rules evaluated
   * (403 `POLICY_DENIED` with the deciding rule and observed value, recorded in the audit trail; velocity counted as
   * the signature is accepted), and the payload signed and recorded with the facts the rules read. The game's draft
   * policy, if any, is evaluated afterwards, off the answer's path.
   */
  private async run(walletId: string, request: SigningRequest, caller: GamePrincipal): Promise<SignatureView | SignedTransactionView> {
    const { chain, operation } = request;
    const policy = await this.policies.forGame(caller.applicationId);
    const credential = credentialOf(caller);
    const early = decisionBeforeDecoding(policy.rules, operation, chain, credential);
    if (early !== undefined) {
      // Audited against the wallet, after the wallet's own answers (404, then 403 for another owner).
      const wallet = await this.wallets.getWithSecret(walletId, caller);
      // Nothing was decoded: a draft that would read the request cannot be decided on these facts (see ShadowPolicy).
      const facts: SigningFacts = { operation, chain, nativeValue: null, undecoded: true };
      const attempt = await this.record(wallet, caller, credential, facts, receivedBytes(request), { ...early, version: policy.version });
      this.shadow.evaluate(policy, attempt, credential, facts, undefined, early);
      throw refusal(early);
    }
    const decoded = await decode(CHAIN_SIGNERS[chain], request);
    const wallet = await this.wallets.getWithSecret(walletId, caller);
    const prepared = decoded.forWallet(addressesOf(wallet)[chain]);
    const subject = { gameId: wallet.applicationId, walletId: wallet.id, profileId: wallet.profileId };
    // Once a rule's other criteria hold, only its velocity count stands between the request and a signature: the
    // key is opened while Redis counts, instead of after.
    let key: Promise<Uint8Array> | undefined;
    const openKey = (): Promise<Uint8Array> => (key ??= this.chainKeys.open(wallet, chain));
    let decision: Awaited<ReturnType<typeof evaluate>>;
    try {
      decision = await evaluate(policy.rules, credential, decoded.facts, decoded.live, (rule, limits) => {
        void openKey().catch(() => undefined);
        return this.velocity.check(rule, limits, subject, decoded.facts, true);
      });
    } catch (error) {
      discard(key);
      throw error;
    }
    if (decision.decision === 'reject') {
      discard(key);
      const attempt = await this.record(wallet, caller, credential, decoded.facts, prepared.audited, { ...decision, version: policy.version });
      this.shadow.evaluate(policy, attempt, credential, decoded.facts, decoded.live, decision);
      throw refusal(decision);
    }
    const { view, signed } = await prepared.sign((payload) => this.chainKeys.sign(openKey(), chain, payload));
    const attempt = await this.record(wallet, caller, credential, decoded.facts, signed, { ...decision, version: policy.version });
    this.shadow.evaluate(policy, attempt, credential, decoded.facts, decoded.live, decision);
    return view;
  }

  /** The signing attempt's audit entry, with the facts the rules read and what decided, and, when it was signed, the wallet's last use; saved together (see SignaturesRepository). */
  private async record(
    wallet: WalletEntity,
    caller: GamePrincipal,
    credential: Credential,
    facts: SigningFacts,
    signed: Uint8Array,
    decision: PolicyDecision & { version: number },
  ): Promise<{ id: string; walletId: string; gameId: string; at: Date }> {
    const at = new Date();
    const id = newId();
    const allowed = decision.decision === 'accept';
    await this.signatures.record({
      id,
      applicationId: wallet.applicationId,
      walletId: wallet.id,
      chain: facts.chain,
      operation: facts.operation,
      decision: allowed ? 'allowed' : 'denied',
      messageSha256: createHash('sha256').update(signed).digest('hex'),
      credential: actorOf(caller),
      at,
      // The credential too: a replay matches rules by API key, which a profile JWT's own id does not name.
      facts: { ...storedFacts(facts), credential },
      policyVersion: decision.version,
      ruleId: decision.ruleId,
    });
    if (allowed) {
      await this.cache.signed(wallet.id, at);
    }
    return { id, walletId: wallet.id, gameId: wallet.applicationId, at };
  }
}

/** A key opened for a signature that will not be made: zeroed as soon as it is there. */
function discard(key: Promise<Uint8Array> | undefined): void {
  void key?.then(
    (opened) => opened.fill(0),
    () => undefined,
  );
}

/** The rules' view of a caller: its kind, and the API key it is (or, for a profile JWT, that issued its chain). */
export function credentialOf(caller: GamePrincipal): Credential {
  return caller.kind === 'apiKey' ? { kind: 'apiKey', apiKeyId: caller.keyId } : { kind: 'profile', ...(caller.apiKeyId === undefined ? {} : { apiKeyId: caller.apiKeyId }) };
}

/** 403 `POLICY_DENIED`: the reason and observed value in the message, and in `details` for a program to read. */
export function refusal(decision: PolicyDecision): AppError {
  const observed = decision.observed === undefined ? '' : ` (observed: ${decision.observed})`;
  return new AppError('POLICY_DENIED', `The game's signing policy refuses this: ${decision.reason}${observed}`, undefined, {
    ruleId: decision.ruleId,
    reason: decision.reason,
    ...(decision.observed === undefined ? {} : { observed: decision.observed }),
  });
}

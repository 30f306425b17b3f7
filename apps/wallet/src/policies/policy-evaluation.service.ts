import { Injectable } from '@nestjs/common';
import { AppError, EvmTransactionRequest, PolicyEvaluationRequest, PolicyEvaluationView, TypedDataRequest } from '@game-wallet/contracts';
import { CHAIN_SIGNERS, SigningRequest, decode } from '../chains';
import { SigningFacts } from '../chains/chain-signer';
import { WalletsService, addressesOf } from '../wallets/wallets.service';
import { decisionBeforeDecoding, evaluate } from './rules-engine';
import { SigningPoliciesService } from './signing-policies.service';
import { VelocityLimits } from './velocity';

/**
 * The dry run (`POST …/signing-policy/evaluate`): the decision the signing route would make for this request, with
 * the facts the rules read, without signing and without counting velocity (the wallet's counts are read when a
 * wallet is named; without one, velocity limits hold). It runs the signing route's own steps: the decision reachable
 * before decoding, the chain's decoding (400), the wallet's checks (404, 400) and the rules.
 */
@Injectable()
export class PolicyEvaluationService {
  constructor(
    private readonly policies: SigningPoliciesService,
    private readonly wallets: WalletsService,
    private readonly velocity: VelocityLimits,
  ) {}

  async evaluate(gameId: string, request: PolicyEvaluationRequest): Promise<PolicyEvaluationView> {
    const policy = await this.policies.current(gameId);
    const draft = request.policy === 'draft';
    if (draft && policy.draft === null) {
      throw new AppError('NOT_FOUND', 'This game has no draft signing policy');
    }
    const rules = draft ? (policy.draft ?? []) : policy.rules;
    const version = draft ? null : policy.version;
    const { operation, chain, credential } = request;
    const early = decisionBeforeDecoding(rules, operation, chain, credential);
    if (early !== undefined) {
      const facts: SigningFacts = { operation, chain, nativeValue: null };
      return { ...early, version, facts };
    }
    const decoded = await decode(CHAIN_SIGNERS[chain], signingRequestOf(request));
    const wallet = request.walletId === undefined ? undefined : await this.wallets.get(request.walletId, { kind: 'apiKey', applicationId: gameId, keyId: 'dry-run' });
    if (wallet !== undefined) {
      decoded.forWallet(addressesOf(wallet)[chain]);
    }
    const decision = await evaluate(rules, credential, decoded.facts, decoded.live, async (rule, limits) =>
      wallet === undefined ? undefined : this.velocity.check(rule, limits, { gameId, walletId: wallet.id, profileId: wallet.profileId }, decoded.facts, false),
    );
    return { decision: decision.decision, ruleId: decision.ruleId, reason: decision.reason, ...(decision.observed === undefined ? {} : { observed: decision.observed }), version, facts: decoded.facts };
  }
}

/** The signing route's request of a dry run's payload (checked by the gateway against the route's own schema). */
function signingRequestOf({ operation, chain, payload }: PolicyEvaluationRequest): SigningRequest {
  switch (operation) {
    case 'message':
      return { operation, chain, message: Buffer.from(payload as string, 'base64') };
    case 'typed-data':
      if (chain !== 'evm') {
        throw new AppError('VALIDATION_FAILED', 'chain: typed data is signed on evm only');
      }
      return { operation, chain, typedData: payload as TypedDataRequest };
    case 'transaction':
      return chain === 'evm'
        ? { operation, chain, transaction: { chain, transaction: payload as EvmTransactionRequest } }
        : { operation, chain, transaction: { chain, transaction: payload as string } };
  }
}

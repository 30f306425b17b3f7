import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  AppError,
  PATTERNS,
  Page,
  PolicyDifferenceView,
  PolicyEvaluationView,
  PolicyReplayView,
  SigningPolicyDraftView,
  SigningPolicyVersionView,
  SigningPolicyView,
  encodeCursor,
  decodeCursor,
  requireOperator,
} from '@game-wallet/contracts';
import { EnvelopeOf, Handles } from '@game-wallet/transport';
import { PolicyEvaluationService } from './policy-evaluation.service';
import { ShadowPolicy } from './shadow-policy';
import { SigningPoliciesService } from './signing-policies.service';

/** A game's signing policy, its versions, dry runs and draft, for console operators (the gateway checks the game exists first). */
@Controller()
export class PoliciesController {
  constructor(
    private readonly policies: SigningPoliciesService,
    private readonly evaluation: PolicyEvaluationService,
    private readonly shadow: ShadowPolicy,
  ) {}

  @Handles(PATTERNS.wallet.getSigningPolicy)
  get(@Payload() { payload, principal }: EnvelopeOf<'wallet.policies.get'>): Promise<SigningPolicyView> {
    requireOperator(principal);
    return this.policies.view(payload.gameId);
  }

  @Handles(PATTERNS.wallet.putSigningPolicy)
  put(@Payload() { payload, principal }: EnvelopeOf<'wallet.policies.put'>): Promise<SigningPolicyView> {
    return this.policies.put(payload.gameId, payload.policy, payload.ifMatch, requireOperator(principal));
  }

  @Handles(PATTERNS.wallet.listSigningPolicyVersions)
  async versions(@Payload() { payload, principal }: EnvelopeOf<'wallet.policies.versions'>): Promise<Page<SigningPolicyVersionView>> {
    requireOperator(principal);
    const before = payload.cursor === undefined || payload.cursor === '' ? undefined : Number(Buffer.from(payload.cursor, 'base64url').toString('utf8'));
    if (before !== undefined && !(Number.isSafeInteger(before) && before > 0)) {
      throw new AppError('INVALID_QUERY', 'cursor: not a cursor of this list');
    }
    const items = await this.policies.versions(payload.gameId, payload.limit + 1, before);
    const page = items.slice(0, payload.limit);
    return { items: page, nextCursor: items.length > payload.limit ? encodeCursor(String(page[page.length - 1].version)) : null };
  }

  @Handles(PATTERNS.wallet.evaluateSigningPolicy)
  evaluate(@Payload() { payload, principal }: EnvelopeOf<'wallet.policies.evaluate'>): Promise<PolicyEvaluationView> {
    requireOperator(principal);
    return this.evaluation.evaluate(payload.gameId, payload.evaluation);
  }

  @Handles(PATTERNS.wallet.getSigningPolicyDraft)
  draft(@Payload() { payload, principal }: EnvelopeOf<'wallet.policies.draft.get'>): Promise<SigningPolicyDraftView> {
    requireOperator(principal);
    return this.policies.draft(payload.gameId);
  }

  @Handles(PATTERNS.wallet.putSigningPolicyDraft)
  putDraft(@Payload() { payload, principal }: EnvelopeOf<'wallet.policies.draft.put'>): Promise<SigningPolicyDraftView> {
    return this.policies.putDraft(payload.gameId, payload.draft.rules, requireOperator(principal));
  }

  @Handles(PATTERNS.wallet.deleteSigningPolicyDraft)
  deleteDraft(@Payload() { payload, principal }: EnvelopeOf<'wallet.policies.draft.delete'>): Promise<{ deleted: true }> {
    return this.policies.deleteDraft(payload.gameId, requireOperator(principal));
  }

  @Handles(PATTERNS.wallet.listSigningPolicyDifferences)
  async differences(@Payload() { payload, principal }: EnvelopeOf<'wallet.policies.draft.differences'>): Promise<Page<PolicyDifferenceView>> {
    requireOperator(principal);
    const items = await this.shadow.differences(payload.gameId, payload.limit + 1, payload.cursor === undefined ? undefined : decodeCursor(payload.cursor));
    const page = items.slice(0, payload.limit);
    return { items: page, nextCursor: items.length > payload.limit ? encodeCursor(page[page.length - 1].attemptId) : null };
  }

  @Handles(PATTERNS.wallet.replaySigningPolicyDraft)
  async replay(@Payload() { payload, principal }: EnvelopeOf<'wallet.policies.draft.replay'>): Promise<PolicyReplayView> {
    requireOperator(principal);
    const policy = await this.policies.current(payload.gameId);
    if (policy.draft === null) {
      throw new AppError('NOT_FOUND', 'This game has no draft signing policy');
    }
    return this.shadow.replay(payload.gameId, policy.draft, payload.since === undefined ? undefined : new Date(payload.since));
  }

  @Handles(PATTERNS.wallet.activateSigningPolicyDraft)
  activate(@Payload() { payload, principal }: EnvelopeOf<'wallet.policies.draft.activate'>): Promise<SigningPolicyView> {
    return this.policies.activateDraft(payload.gameId, payload.ifMatch, requireOperator(principal));
  }
}

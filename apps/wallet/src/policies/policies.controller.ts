import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
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
} from '@game-wallet/contracts';
import { ConsoleAuthorizer } from '@game-wallet/service';
import { EnvelopeOf, Handles, RedisStreamsContext } from '@game-wallet/transport';
import { PolicyEvaluationService } from './policy-evaluation.service';
import { ShadowPolicy } from './shadow-policy';
import { SigningPoliciesService } from './signing-policies.service';

/** A game's signing policy, its versions, dry runs and draft, for console operators (identity decides who may: `identity.console.authorize`). */
@Controller()
export class PoliciesController {
  constructor(
    private readonly policies: SigningPoliciesService,
    private readonly evaluation: PolicyEvaluationService,
    private readonly shadow: ShadowPolicy,
    private readonly access: ConsoleAuthorizer,
  ) {}

  @Handles(PATTERNS.wallet.getSigningPolicy)
  async get(@Payload() { payload, principal }: EnvelopeOf<'wallet.policies.get'>, @Ctx() context: RedisStreamsContext): Promise<SigningPolicyView> {
    await this.access.require(principal, 'policy.read', payload.gameId, context);
    return this.policies.view(payload.gameId);
  }

  @Handles(PATTERNS.wallet.putSigningPolicy)
  async put(@Payload() { payload, principal }: EnvelopeOf<'wallet.policies.put'>, @Ctx() context: RedisStreamsContext): Promise<SigningPolicyView> {
    const operator = await this.access.require(principal, 'policy.write', payload.gameId, context);
    return this.policies.put(payload.gameId, payload.policy, payload.ifMatch, operator);
  }

  @Handles(PATTERNS.wallet.listSigningPolicyVersions)
  async versions(@Payload() { payload, principal }: EnvelopeOf<'wallet.policies.versions'>, @Ctx() context: RedisStreamsContext): Promise<Page<SigningPolicyVersionView>> {
    await this.access.require(principal, 'policy.read', payload.gameId, context);
    const before = payload.cursor === undefined || payload.cursor === '' ? undefined : Number(Buffer.from(payload.cursor, 'base64url').toString('utf8'));
    if (before !== undefined && !(Number.isSafeInteger(before) && before > 0)) {
      throw new AppError('INVALID_QUERY', 'cursor: not a cursor of this list');
    }
    const items = await this.policies.versions(payload.gameId, payload.limit + 1, before);
    const page = items.slice(0, payload.limit);
    return { items: page, nextCursor: items.length > payload.limit ? encodeCursor(String(page[page.length - 1].version)) : null };
  }

  @Handles(PATTERNS.wallet.evaluateSigningPolicy)
  async evaluate(@Payload() { payload, principal }: EnvelopeOf<'wallet.policies.evaluate'>, @Ctx() context: RedisStreamsContext): Promise<PolicyEvaluationView> {
    await this.access.require(principal, 'policy.read', payload.gameId, context);
    return this.evaluation.evaluate(payload.gameId, payload.evaluation);
  }

  @Handles(PATTERNS.wallet.getSigningPolicyDraft)
  async draft(@Payload() { payload, principal }: EnvelopeOf<'wallet.policies.draft.get'>, @Ctx() context: RedisStreamsContext): Promise<SigningPolicyDraftView> {
    await this.access.require(principal, 'policy.read', payload.gameId, context);
    return this.policies.draft(payload.gameId);
  }

  @Handles(PATTERNS.wallet.putSigningPolicyDraft)
  async putDraft(@Payload() { payload, principal }: EnvelopeOf<'wallet.policies.draft.put'>, @Ctx() context: RedisStreamsContext): Promise<SigningPolicyDraftView> {
    const operator = await this.access.require(principal, 'policy.draft', payload.gameId, context);
    return this.policies.putDraft(payload.gameId, payload.draft.rules, operator);
  }

  @Handles(PATTERNS.wallet.deleteSigningPolicyDraft)
  async deleteDraft(@Payload() { payload, principal }: EnvelopeOf<'wallet.policies.draft.delete'>, @Ctx() context: RedisStreamsContext): Promise<{ deleted: true }> {
    const operator = await this.access.require(principal, 'policy.draft', payload.gameId, context);
    return this.policies.deleteDraft(payload.gameId, operator);
  }

  @Handles(PATTERNS.wallet.listSigningPolicyDifferences)
  async differences(@Payload() { payload, principal }: EnvelopeOf<'wallet.policies.draft.differences'>, @Ctx() context: RedisStreamsContext): Promise<Page<PolicyDifferenceView>> {
    await this.access.require(principal, 'policy.read', payload.gameId, context);
    const items = await this.shadow.differences(payload.gameId, payload.limit + 1, payload.cursor === undefined ? undefined : decodeCursor(payload.cursor));
    const page = items.slice(0, payload.limit);
    return { items: page, nextCursor: items.length > payload.limit ? encodeCursor(page[page.length - 1].attemptId) : null };
  }

  @Handles(PATTERNS.wallet.replaySigningPolicyDraft)
  async replay(@Payload() { payload, principal }: EnvelopeOf<'wallet.policies.draft.replay'>, @Ctx() context: RedisStreamsContext): Promise<PolicyReplayView> {
    await this.access.require(principal, 'policy.read', payload.gameId, context);
    const policy = await this.policies.current(payload.gameId);
    if (policy.draft === null) {
      throw new AppError('NOT_FOUND', 'This game has no draft signing policy');
    }
    return this.shadow.replay(payload.gameId, policy.draft, payload.since === undefined ? undefined : new Date(payload.since));
  }

  @Handles(PATTERNS.wallet.activateSigningPolicyDraft)
  async activate(@Payload() { payload, principal }: EnvelopeOf<'wallet.policies.draft.activate'>, @Ctx() context: RedisStreamsContext): Promise<SigningPolicyView> {
    const operator = await this.access.require(principal, 'policy.write', payload.gameId, context);
    return this.policies.activateDraft(payload.gameId, payload.ifMatch, operator);
  }
}

import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { PolicyDecision, PolicyDifferenceView, PolicyReplayView, PolicyRule } from '@game-wallet/contracts';
import { newId } from '@game-wallet/database';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { LiveFacts, SigningFacts } from '../chains/chain-signer';
import { Credential, Evaluation, decisionBeforeDecoding, evaluate } from './rules-engine';
import { GamePolicy } from './signing-policies.service';

/** Attempts a replay reads at the most, newest first. */
export const MAX_REPLAYED_ATTEMPTS = 100_000;
/** Changed attempts a replay lists (it counts them all). */
const LISTED_CHANGES = 100;
/** Attempts read and evaluated between two turns of the event loop. */
const REPLAY_CHUNK = 200;

/** A draft never signs, so its velocity limits have no counts of their own: in the shadow and in a replay they hold. */
const velocityHolds = async (): Promise<undefined> => undefined;

interface DifferenceRow {
  id: string;
  attempt_id: string;
  at: Date;
  wallet_id: string;
  operation: PolicyDifferenceView['operation'];
  chain: PolicyDifferenceView['chain'];
  active_decision: PolicyDecision['decision'];
  active_rule_id: string | null;
  draft_decision: PolicyDecision['decision'];
  draft_rule_id: string | null;
}

/**
 * The draft policy in shadow (SPEC §11): every signing attempt is evaluated against the game's draft after the active
 * decision is made and answered; where they disagree, the attempt is recorded (`policy_draft_differences`) and
 * listed. A replay evaluates the draft over the facts stored with past attempts.
 */
@Injectable()
export class ShadowPolicy {
  private readonly logger = new Logger(ShadowPolicy.name);

  constructor(@InjectDataSource() private readonly data: DataSource) {}

  /** Evaluates the draft, if the game has one, off the answer's path; a difference is recorded, a failure only logged. */
  evaluate(policy: GamePolicy, attempt: { id: string; walletId: string; gameId: string; at: Date }, credential: Credential, facts: SigningFacts, live: LiveFacts | undefined, active: PolicyDecision): void {
    const draft = policy.draft;
    if (draft === null) {
      return;
    }
    setImmediate(() => {
      this.recordDifference(draft, attempt, credential, facts, live, active).catch((error: unknown) =>
        this.logger.warn(`The draft policy of game ${attempt.gameId} could not be compared on attempt ${attempt.id}: ${error instanceof Error ? error.message : String(error)}`),
      );
    });
  }

  async differences(gameId: string, limit: number, beforeId?: string): Promise<PolicyDifferenceView[]> {
    const rows: DifferenceRow[] = await this.data.query(
      `SELECT * FROM wallet.policy_draft_differences WHERE application_id = $1 AND ($2::uuid IS NULL OR id < $2) ORDER BY id DESC LIMIT $3`,
      [gameId, beforeId ?? null, limit],
    );
    return rows.map(differenceView);
  }

  /**
   * The draft over the game's past attempts since `since` (at most the last 100,000), against what was decided then:
   * how many it would change, each way, and the newest changes. Read and evaluated in chunks, yielding to the event
   * loop between them. Attempts made before facts were kept, or whose decision reads what is never stored (a
   * message's bytes), are counted as undecidable.
   */
  async replay(gameId: string, draft: PolicyRule[], since?: Date): Promise<PolicyReplayView> {
    const result: PolicyReplayView = { evaluated: 0, changed: 0, newlyRejected: 0, newlyAccepted: 0, undecidable: 0, changes: [] };
    let beforeId: string | null = null;
    while (result.evaluated + result.undecidable < MAX_REPLAYED_ATTEMPTS) {
      const take = Math.min(REPLAY_CHUNK, MAX_REPLAYED_ATTEMPTS - result.evaluated - result.undecidable);
      const rows: { id: string; at: Date; wallet_id: string; decision: string; rule_id: string | null; credential: string; facts: SigningFacts | null }[] = await this.data.query(
        `SELECT id, at, wallet_id, decision, rule_id, credential, facts FROM wallet.signature_events
         WHERE application_id = $1 AND ($2::timestamptz IS NULL OR at >= $2) AND ($3::uuid IS NULL OR id < $3)
         ORDER BY id DESC LIMIT $4`,
        [gameId, since ?? null, beforeId, take],
      );
      for (const row of rows) {
        const credential = (row.facts?.credential as Credential | undefined) ?? credentialOfActor(row.credential);
        if (row.facts === null || row.facts.truncated === true || credential === undefined) {
          result.undecidable += 1;
          continue;
        }
        const decided = await draftDecision(draft, credential, row.facts, undefined);
        if (decided.undecidable) {
          result.undecidable += 1;
          continue;
        }
        result.evaluated += 1;
        const before = row.decision === 'allowed' ? 'accept' : 'reject';
        if (decided.decision !== before) {
          result.changed += 1;
          result[decided.decision === 'reject' ? 'newlyRejected' : 'newlyAccepted'] += 1;
          if (result.changes.length < LISTED_CHANGES) {
            result.changes.push({
              attemptId: row.id,
              at: row.at.toISOString(),
              walletId: row.wallet_id,
              operation: row.facts.operation,
              chain: row.facts.chain,
              active: { decision: before, ruleId: row.rule_id },
              draft: { decision: decided.decision, ruleId: decided.ruleId },
            });
          }
        }
      }
      if (rows.length < take) {
        break;
      }
      beforeId = rows[rows.length - 1].id;
      await yieldToLoop();
    }
    return result;
  }

  private async recordDifference(
    draft: PolicyRule[],
    attempt: { id: string; walletId: string; gameId: string; at: Date },
    credential: Credential,
    facts: SigningFacts,
    live: LiveFacts | undefined,
    active: PolicyDecision,
  ): Promise<void> {
    const decided = await draftDecision(draft, credential, facts, live);
    if (decided.undecidable || decided.decision === active.decision) {
      return;
    }
    await this.data.query(
      `INSERT INTO wallet.policy_draft_differences (id, application_id, attempt_id, at, wallet_id, operation, chain, active_decision, active_rule_id, draft_decision, draft_rule_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [newId(), attempt.gameId, attempt.id, attempt.at, attempt.walletId, facts.operation, facts.chain, active.decision, active.ruleId, decided.decision, decided.ruleId],
    );
  }
}

/**
 * The draft's decision on an attempt's facts. An attempt the active policy refused before decoding anything has no
 * facts to read: the draft decides it only if it too would refuse it before decoding, else it cannot be decided.
 */
async function draftDecision(draft: PolicyRule[], credential: Credential, facts: SigningFacts, live: LiveFacts | undefined): Promise<Pick<Evaluation, 'decision' | 'ruleId' | 'undecidable'>> {
  if (facts.undecoded === true) {
    const early = decisionBeforeDecoding(draft, facts.operation, facts.chain, credential);
    return early === undefined ? { decision: 'reject', ruleId: null, undecidable: true } : { ...early, undecidable: false };
  }
  return evaluate(draft, credential, facts, live, velocityHolds);
}

function differenceView(row: DifferenceRow): PolicyDifferenceView {
  return {
    attemptId: row.attempt_id,
    at: row.at.toISOString(),
    walletId: row.wallet_id,
    operation: row.operation,
    chain: row.chain,
    active: { decision: row.active_decision, ruleId: row.active_rule_id },
    draft: { decision: row.draft_decision, ruleId: row.draft_rule_id },
  };
}

/** The rules' view of a recorded credential (`api-key:<id>`, `profile:<id>`): a profile's issuing key is not recorded. */
function credentialOfActor(actor: string): Credential | undefined {
  if (actor.startsWith('api-key:')) {
    return { kind: 'apiKey', apiKeyId: actor.slice('api-key:'.length) };
  }
  return actor.startsWith('profile:') ? { kind: 'profile' } : undefined;
}

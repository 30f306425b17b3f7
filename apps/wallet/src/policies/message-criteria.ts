import { Criterion, VelocityCriterion } from '@game-wallet/contracts';
import { LRUCache } from 'lru-cache';
import { RE2JS } from 're2js';
import { COMPARE_NUMBERS, CriterionOutcome, LiveFacts, SigningFacts } from '../chains/chain-signer';

/**
 * The criteria of message signing, on every chain: a pattern the message must (or must not) match, and its length.
 * Patterns run on RE2 semantics (`re2js`: pure JavaScript, linear in the message's length — no backtracking, no
 * look-around or back-references), and are bounded when a policy is saved: at most 512 characters and a compiled
 * program of at most 1,000 instructions (a short pattern can expand: `\pL{1000}` is a thousand), so a match costs at
 * most that × the message's length. The message is read as UTF-8; bytes that are not are undecidable. Its bytes
 * are at hand only while the request is (`live`): a replay cannot decide a pattern.
 */

export const MAX_PATTERN_LENGTH = 512;
export const MAX_PATTERN_PROGRAM = 1_000;

const compiled = new LRUCache<string, RE2JS>({ max: 1_000 });

function compile(pattern: string): RE2JS {
  let regex = compiled.get(pattern);
  if (regex === undefined) {
    regex = RE2JS.compile(pattern);
    compiled.set(pattern, regex);
  }
  return regex;
}

export function messageCriterion(criterion: Exclude<Criterion, VelocityCriterion>, facts: SigningFacts, live: LiveFacts | undefined): CriterionOutcome {
  const length = typeof facts.length === 'number' ? facts.length : undefined;
  switch (criterion.type) {
    case 'messageLength': {
      if (length === undefined) {
        return { result: 'unknown', observed: 'the length is not known' };
      }
      return { result: COMPARE_NUMBERS[criterion.operator](BigInt(length), BigInt(criterion.value)) ? 'holds' : 'fails', observed: `${length} bytes` };
    }
    case 'messagePattern': {
      if (live?.message === undefined) {
        return { result: 'unknown', observed: 'the message is not stored, so a pattern cannot be replayed', notStored: true };
      }
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(live.message);
      } catch {
        return { result: 'unknown', observed: 'the message is not UTF-8 text' };
      }
      const matches = compile(criterion.pattern).test(text);
      return { result: matches === criterion.match ? 'holds' : 'fails', observed: matches ? 'the message matches' : 'the message does not match' };
    }
    default:
      return { result: 'unknown', observed: `${criterion.type} does not apply to messages` };
  }
}

/** What is wrong with a message criterion as a policy states it (400 when saved), or undefined. */
export function messageCriterionProblem(criterion: Criterion): string | undefined {
  if (criterion.type !== 'messagePattern') {
    return undefined;
  }
  if (criterion.pattern.length > MAX_PATTERN_LENGTH) {
    return `pattern: at most ${MAX_PATTERN_LENGTH} characters`;
  }
  try {
    const size = compile(criterion.pattern).programSize();
    if (size > MAX_PATTERN_PROGRAM) {
      return `pattern: compiles to ${size} instructions, more than ${MAX_PATTERN_PROGRAM} (a repeat count multiplies its part)`;
    }
  } catch (error) {
    return `pattern: not an RE2 pattern (${error instanceof Error ? error.message.replace('error parsing regexp: ', '').slice(0, 200) : 'unreadable'})`;
  }
  return undefined;
}


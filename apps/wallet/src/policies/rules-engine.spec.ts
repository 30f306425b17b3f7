import { PolicyRule } from '@game-wallet/contracts';
import { SigningFacts } from '../chains/chain-signer';
import { decisionBeforeDecoding, evaluate } from './rules-engine';

const apiKey = { kind: 'apiKey' as const, apiKeyId: '0190a0a0-0000-7000-8000-000000000001' };
const profile = { kind: 'profile' as const };
const noVelocity = async (): Promise<undefined> => undefined;
const message = (text: string): { facts: SigningFacts; live: { message: Uint8Array } } => {
  const bytes = Buffer.from(text);
  return { facts: { operation: 'message', chain: 'evm', nativeValue: '0', length: bytes.length }, live: { message: bytes } };
};
const rule = (id: string, action: PolicyRule['action'], criteria: PolicyRule['criteria'] = [], extra: Partial<PolicyRule> = {}): PolicyRule => ({
  id,
  action,
  operation: 'message',
  criteria,
  ...extra,
});

describe('signing policy rules', () => {
  it('lets the first rule that matches decide: an earlier reject beats a later accept', async () => {
    const { facts, live } = message('sell 10');
    const rules = [rule('no-sell', 'reject', [{ type: 'messagePattern', pattern: 'sell', match: true }]), rule('any', 'accept')];
    expect(await evaluate(rules, apiKey, facts, live, noVelocity)).toMatchObject({ decision: 'reject', ruleId: 'no-sell', observed: 'the message matches' });
    const other = message('buy 10');
    expect(await evaluate(rules, apiKey, other.facts, other.live, noVelocity)).toMatchObject({ decision: 'accept', ruleId: 'any' });
  });

  it('refuses when no rule matches, naming the closest accept rule, the criterion it needed and what was observed', async () => {
    const { facts, live } = message('x'.repeat(11));
    const decision = await evaluate([rule('short', 'accept', [{ type: 'messageLength', operator: '<=', value: '10' }])], apiKey, facts, live, noVelocity);
    expect(decision).toMatchObject({ decision: 'reject', ruleId: null, observed: '11 bytes' });
    expect(decision.reason).toBe('no rule accepted this; in rule short, "the length is at most 10 bytes" does not hold');
    expect(await evaluate([], apiKey, facts, live, noVelocity)).toMatchObject({ decision: 'reject', ruleId: null, reason: 'no rule accepts messages on evm from an API key' });
  });

  it('never lets an undecidable criterion help a signature: an accept rule with one does not match, a reject rule with one does', async () => {
    const text = { facts: { operation: 'message', chain: 'evm', nativeValue: '0', length: 2 } as SigningFacts, live: { message: Uint8Array.of(0xff, 0xfe) } };
    const pattern = { type: 'messagePattern' as const, pattern: 'ok', match: false };
    expect(await evaluate([rule('needs-text', 'accept', [pattern])], apiKey, text.facts, text.live, noVelocity)).toMatchObject({ decision: 'reject', ruleId: null, observed: 'the message is not UTF-8 text' });
    expect(await evaluate([rule('refuse-text', 'reject', [pattern]), rule('any', 'accept')], apiKey, text.facts, text.live, noVelocity)).toMatchObject({ decision: 'reject', ruleId: 'refuse-text' });
  });

  it('matches a rule on its operation, chains and credentials (kinds and API key ids)', async () => {
    const { facts, live } = message('hi');
    const rules = [
      rule('sol-only', 'accept', [], { chains: ['sol'] }),
      rule('other-key', 'accept', [], { credentials: { apiKeyIds: ['0190a0a0-0000-7000-8000-000000000002'] } }),
      rule('profiles', 'accept', [], { credentials: { kinds: ['profile'] } }),
      rule('this-key', 'accept', [], { credentials: { kinds: ['apiKey'], apiKeyIds: [apiKey.apiKeyId] } }),
    ];
    expect(await evaluate(rules, apiKey, facts, live, noVelocity)).toMatchObject({ decision: 'accept', ruleId: 'this-key' });
    expect(await evaluate(rules, profile, facts, live, noVelocity)).toMatchObject({ decision: 'accept', ruleId: 'profiles' });
    expect(await evaluate(rules, apiKey, { ...facts, operation: 'typed-data' }, live, noVelocity)).toMatchObject({ decision: 'reject', ruleId: null });
  });

  it('counts velocity only for an accept rule whose other criteria hold, and moves on to the next rule when it has no room', async () => {
    const { facts, live } = message('hi');
    const limited = rule('limited', 'accept', [
      { type: 'messageLength', operator: '<=', value: '1' },
      { type: 'velocity', scope: 'wallet', windowSeconds: 60, maxCount: 1 },
    ]);
    const counted: string[] = [];
    const full = async (candidate: PolicyRule) => {
      counted.push(candidate.id);
      return { criterion: candidate.criteria[1] as never, outcome: { result: 'fails' as const, observed: '1 signatures in the window' } };
    };
    expect(await evaluate([limited], apiKey, facts, live, full)).toMatchObject({ decision: 'reject' });
    expect(counted).toEqual([]);
    const open = rule('open', 'accept', [{ type: 'velocity', scope: 'game', windowSeconds: 60, maxCount: 5 }]);
    expect(await evaluate([open, rule('fallback', 'accept')], apiKey, facts, live, full)).toMatchObject({ decision: 'accept', ruleId: 'fallback' });
    expect(counted).toEqual(['open']);
  });

  it('decides before decoding only when no rule could accept: a reject rule without criteria first, or no accept rule at all', () => {
    expect(decisionBeforeDecoding([rule('any', 'accept')], 'message', 'evm', apiKey)).toBeUndefined();
    expect(decisionBeforeDecoding([rule('stop', 'reject'), rule('any', 'accept')], 'message', 'evm', apiKey)).toMatchObject({ decision: 'reject', ruleId: 'stop' });
    expect(decisionBeforeDecoding([rule('maybe', 'reject', [{ type: 'messageLength', operator: '>', value: '5' }]), rule('any', 'accept')], 'message', 'evm', apiKey)).toBeUndefined();
    expect(decisionBeforeDecoding([rule('profiles', 'accept', [], { credentials: { kinds: ['profile'] } })], 'message', 'evm', apiKey)).toEqual({
      decision: 'reject',
      ruleId: null,
      reason: 'no rule accepts messages on evm from an API key',
    });
  });

  it('marks a replay undecidable when a pattern needs the message, which is never stored', async () => {
    const { facts } = message('hi');
    const decision = await evaluate([rule('pattern', 'accept', [{ type: 'messagePattern', pattern: 'hi', match: true }])], apiKey, facts, undefined, noVelocity);
    expect(decision).toMatchObject({ decision: 'reject', undecidable: true });
  });
});

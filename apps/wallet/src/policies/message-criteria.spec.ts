import { SigningFacts } from '../chains/chain-signer';
import { messageCriterion, messageCriterionProblem } from './message-criteria';

const facts = (text: string): { facts: SigningFacts; live: { message: Uint8Array } } => ({
  facts: { operation: 'message', chain: 'sol', nativeValue: '0', length: Buffer.byteLength(text) },
  live: { message: Buffer.from(text) },
});

describe('message criteria', () => {
  it('holds a pattern the message must match, and refuses one it does not (RE2 search semantics)', () => {
    const { facts: read, live } = facts('claim reward 42');
    expect(messageCriterion({ type: 'messagePattern', pattern: '^claim reward [0-9]+$', match: true }, read, live)).toEqual({ result: 'holds', observed: 'the message matches' });
    expect(messageCriterion({ type: 'messagePattern', pattern: 'transfer', match: true }, read, live)).toEqual({ result: 'fails', observed: 'the message does not match' });
    expect(messageCriterion({ type: 'messagePattern', pattern: 'reward', match: false }, read, live).result).toBe('fails');
  });

  it('matches a pathological pattern in linear time (no backtracking)', () => {
    const { facts: read, live } = facts(`${'a'.repeat(60_000)}!`);
    // A backtracking engine does not finish this within the test's timeout past about 30 characters.
    expect(messageCriterion({ type: 'messagePattern', pattern: '(a+)+$', match: true }, read, live).result).toBe('fails');
  });

  it('cannot decide a pattern over bytes that are not UTF-8, or without the message (a replay)', () => {
    const read: SigningFacts = { operation: 'message', chain: 'evm', nativeValue: '0', length: 2 };
    expect(messageCriterion({ type: 'messagePattern', pattern: '.', match: true }, read, { message: Uint8Array.of(0xc3, 0x28) }).result).toBe('unknown');
    expect(messageCriterion({ type: 'messagePattern', pattern: '.', match: true }, read, undefined)).toMatchObject({ result: 'unknown', notStored: true });
  });

  it('compares the length in bytes', () => {
    const { facts: read, live } = facts('héllo');
    expect(messageCriterion({ type: 'messageLength', operator: '<=', value: '6' }, read, live)).toEqual({ result: 'holds', observed: '6 bytes' });
    expect(messageCriterion({ type: 'messageLength', operator: '<', value: '6' }, read, live).result).toBe('fails');
  });

  it('refuses patterns RE2 cannot compile, longer than 512 characters, or compiling to more than 1,000 instructions', () => {
    expect(messageCriterionProblem({ type: 'messagePattern', pattern: '(?=look-ahead)', match: true })).toMatch(/^pattern: not an RE2 pattern/);
    expect(messageCriterionProblem({ type: 'messagePattern', pattern: 'a'.repeat(513), match: true })).toBe('pattern: at most 512 characters');
    expect(messageCriterionProblem({ type: 'messagePattern', pattern: '\\pL{1000}', match: true })).toMatch(/^pattern: compiles to \d+ instructions, more than 1000/);
    expect(messageCriterionProblem({ type: 'messagePattern', pattern: '^[a-z ]*(sell|buy)[0-9]+$', match: true })).toBeUndefined();
  });
});

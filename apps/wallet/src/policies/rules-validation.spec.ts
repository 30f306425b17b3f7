import { PolicyRule } from '@game-wallet/contracts';
import { rulesProblem } from './rules-validation';

const rule = (extra: Partial<PolicyRule>): PolicyRule => ({ id: 'r', action: 'accept', operation: 'message', criteria: [], ...extra });

describe('rules as the wallet saves them', () => {
  it('refuses a NUL character or half of a surrogate pair anywhere in the rules, naming the place (PostgreSQL cannot store them)', () => {
    expect(rulesProblem([rule({ description: 'a\u0000b' })])).toBe('rules.0.description: must not hold a NUL character or half of a surrogate pair');
    expect(rulesProblem([rule({ description: '\ud800' })])).toBe('rules.0.description: must not hold a NUL character or half of a surrogate pair');
    expect(rulesProblem([rule({ description: 'a 😀 b' })])).toBeUndefined();
  });

  it('refuses a repeated id, typed data on another chain, a criterion outside its rule, and velocity in a reject rule', () => {
    expect(rulesProblem([rule({}), rule({})])).toBe('rules.1 (r): id r is used by an earlier rule');
    expect(rulesProblem([rule({ operation: 'typed-data' })])).toBe('rules.0 (r): typed data is signed on evm only: give the rule chains ["evm"]');
    expect(rulesProblem([rule({ operation: 'transaction', criteria: [{ type: 'evmValue', operator: '<=', value: '1' }] })])).toBe(
      'rules.0 (r).criteria.0 (evmValue): reads evm only: give the rule chains ["evm"]',
    );
    expect(rulesProblem([rule({ action: 'reject', criteria: [{ type: 'velocity', scope: 'game', windowSeconds: 60, maxCount: 1 }] })])).toBe(
      'rules.0 (r).criteria.0 (velocity): a velocity limit belongs to an accept rule (it bounds what is accepted)',
    );
  });
});

describe('what a policy may cost a request', () => {
  it('refuses more than 50 evmData criteria in one policy (each decodes the calldata by its own fragment)', () => {
    const call = { type: 'evmData' as const, function: 'function transfer(address to, uint256 amount)', conditions: [] };
    const rules = (count: number): PolicyRule[] => Array.from({ length: count }, (_, index) => ({ id: `r${index}`, action: 'accept', operation: 'transaction', chains: ['evm'], criteria: [call] }));
    expect(rulesProblem(rules(50))).toBeUndefined();
    expect(rulesProblem(rules(51))).toBe('rules: 51 evmData criteria, more than 50 in one policy');
  });
});

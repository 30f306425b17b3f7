import { CRITERION_SCOPE } from '@game-wallet/contracts/signing-rules';
import type { PolicyRule } from '@game-wallet/contracts/views';
import { describe, expect, it } from 'vitest';
import { EXAMPLES } from '../test-rules';
import { CRITERIA, CRITERION_TYPES, criterionFits, ruleText } from './policy-rules';

describe('the criteria the editor offers', () => {
  it('are every criterion type', () => {
    expect(new Set(EXAMPLES.flatMap((rule) => rule.criteria.map((criterion) => criterion.type)))).toEqual(new Set(CRITERION_TYPES));
    expect(new Set(CRITERION_TYPES)).toEqual(new Set(Object.keys(CRITERION_SCOPE)));
  });

  it('read an example in words, as the platform words it', () => {
    expect(ruleText(EXAMPLES[1]!)).toBe(
      'Accept transactions on evm from API keys (API key 0193a2b4-5c6d-7e8f-9a0b-1c2d3e4f5a6b) when the address called or paid is in [0x1111111111111111111111111111111111111111, 0x2222222222222222222222222222222222222222], and the value is at most 10 wei, and the chain id is not in [1, 10, 137 and 2 more], and the most the fees may reach is below 21000000000000 wei, and no contract creation, and a call of transfer(address to, uint256 amount) with amount at most 5 and to in [0x1111111111111111111111111111111111111111, 0x2222222222222222222222222222222222222222], and a call of approve(address,uint256).',
    );
  });
});

describe('criterion scope', () => {
  it("is the platform's", () => {
    expect(Object.fromEntries(CRITERION_TYPES.map((type) => [type, { operations: CRITERIA[type].operations, chains: CRITERIA[type].chains }]))).toEqual(CRITERION_SCOPE);
  });

  it('offers what a rule of that operation, those chains and that action can read', () => {
    const fitting = (rule: Pick<PolicyRule, 'operation' | 'chains' | 'action'>) => CRITERION_TYPES.filter((type) => criterionFits(type, rule));
    expect(fitting({ action: 'accept', operation: 'transaction' })).toEqual(['velocity']);
    expect(fitting({ action: 'reject', operation: 'message', chains: ['sol'] })).toEqual(['messagePattern', 'messageLength']);
    expect(fitting({ action: 'accept', operation: 'transaction', chains: ['sui'] })).toEqual(['suiMoveCall', 'suiTransfers', 'suiGasBudget', 'suiPublish', 'velocity']);
    expect(fitting({ action: 'reject', operation: 'typed-data', chains: ['evm'] })).toEqual(['evmTypedDataVerifyingContract', 'evmTypedDataPrimaryType', 'evmTypedDataChainId', 'evmTypedDataField']);
    expect(fitting({ action: 'reject', operation: 'transaction', chains: ['evm', 'sol'] })).toEqual([]);
  });
});

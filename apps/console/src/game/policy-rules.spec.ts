import { CRITERION_SCOPE, type PolicyRule, ruleSentence, rulesOfPolicy } from '@game-wallet/contracts/signing-rules';
import { describe, expect, it } from 'vitest';
import { ADDRESSES, EXAMPLES } from '../test-rules';
import { CRITERIA, CRITERION_TYPES, criterionFits, ruleText, windowWords } from './policy-rules';

describe('rule sentences', () => {
  it('hold every criterion type', () => {
    expect(new Set(EXAMPLES.flatMap((rule) => rule.criteria.map((criterion) => criterion.type)))).toEqual(new Set(CRITERION_TYPES));
  });

  it.each(EXAMPLES.map((rule) => [rule.id, rule] as const))('reads rule %s as the platform reads it', (_id, rule) => {
    expect(ruleText(rule)).toBe(ruleSentence(rule));
  });

  it('reads the rules of the first policy shape as the platform does', () => {
    const converted = rulesOfPolicy({
      operations: { apiKey: ['message', 'transaction', 'typed-data'], profile: ['message'] },
      evm: { chainIds: ['8453'], maxValueWei: '1000', maxFeeWei: null, contracts: ADDRESSES, typedDataPrimaryTypes: ['Order'] },
      sol: { programs: null, maxLamports: '5000', maxPriorityMicroLamports: null },
      sui: { packages: ['0x2'], allowTransfers: false, maxGasBudget: null },
    }).rules;
    expect(converted.map(ruleText)).toEqual(converted.map(ruleSentence));
  });

  it('reads an example in words', () => {
    expect(ruleText(EXAMPLES[1]!)).toBe(
      'Accept transactions on evm from API keys (API key 0193a2b4-5c6d-7e8f-9a0b-1c2d3e4f5a6b) when the address called or paid in [0x1111111111111111111111111111111111111111, 0x2222222222222222222222222222222222222222], and the value <= 10 wei, and the chain id not in [1, 10, 137 and 2 more], and the most the fees may reach < 21000000000000 wei, and no contract creation, and a call of transfer(address to, uint256 amount) with amount <= 5 and to in [0x1111111111111111111111111111111111111111, 0x2222222222222222222222222222222222222222], and a call of approve(address,uint256).',
    );
    expect(windowWords(60)).toBe('a minute');
    expect(windowWords(61)).toBe('61 seconds');
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

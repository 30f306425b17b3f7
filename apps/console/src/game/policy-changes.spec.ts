import type { SigningPolicy } from '@game-wallet/contracts/views';
import { describe, expect, it } from 'vitest';
import { describePolicyChange, describePolicyValue, policyChanges } from './policy-changes';

const DEFAULT: SigningPolicy = {
  operations: { apiKey: ['message', 'transaction', 'typed-data'], profile: ['message'] },
  evm: { chainIds: null, maxValueWei: null, maxFeeWei: null, contracts: null, typedDataPrimaryTypes: null },
  sol: { programs: null, maxLamports: null, maxPriorityMicroLamports: null },
  sui: { packages: null, allowTransfers: true, maxGasBudget: null },
};

describe('policyChanges', () => {
  it('names each changed field with its old and new value in words, in the policy order', () => {
    const after: SigningPolicy = {
      ...DEFAULT,
      operations: { ...DEFAULT.operations, profile: ['message', 'transaction'] },
      evm: { ...DEFAULT.evm, maxValueWei: '1000', chainIds: ['1', '8453'] },
      sui: { ...DEFAULT.sui, allowTransfers: false },
    };
    expect(policyChanges(DEFAULT, after).map(describePolicyChange)).toEqual([
      'operations.profile: message → message, transaction',
      'evm.chainIds: any → 1, 8453',
      'evm.maxValueWei: any → 1000',
      'sui.allowTransfers: true → false',
    ]);
  });

  it('shows a limit taken away as "any" and an emptied list as "none"', () => {
    const before: SigningPolicy = { ...DEFAULT, operations: { ...DEFAULT.operations, profile: ['message'] }, sol: { ...DEFAULT.sol, maxLamports: '5000' } };
    const after: SigningPolicy = { ...before, operations: { ...before.operations, profile: [] }, sol: { ...before.sol, maxLamports: null } };
    expect(policyChanges(before, after)).toEqual([
      { field: 'operations.profile', from: 'message', to: 'none' },
      { field: 'sol.maxLamports', from: '5000', to: 'any' },
    ]);
  });

  it('finds nothing when the same policy was saved again', () => {
    expect(policyChanges(DEFAULT, structuredClone(DEFAULT))).toEqual([]);
  });

  it('reads a field one side does not have as "any", and lists fields only the older policy had after the newer ones', () => {
    const older = { evm: { maxValueWei: '10', retired: 'x' } };
    const newer = { evm: { maxValueWei: '10', maxFeeWei: '7' }, sui: { maxGasBudget: '5' } };
    expect(policyChanges(older, newer).map(describePolicyChange)).toEqual(['evm.maxFeeWei: any → 7', 'evm.retired: x → any', 'sui.maxGasBudget: any → 5']);
  });

  it('lists the fields in the order given, whatever order the stored policies have', () => {
    const stored = { sui: { maxGasBudget: '5', allowTransfers: false }, evm: { maxValueWei: '1' } };
    const order = { evm: { maxValueWei: null }, sui: { allowTransfers: true, maxGasBudget: null } };
    expect(policyChanges({}, stored, order).map((change) => change.field)).toEqual(['evm.maxValueWei', 'sui.allowTransfers', 'sui.maxGasBudget']);
  });

  it('describes values that are neither limits nor lists as JSON, as text', () => {
    expect(describePolicyValue({ a: 1 })).toBe('{"a":1}');
    expect(describePolicyValue([{ rule: 1 }, 'x'])).toBe('{"rule":1}, x');
    expect(describePolicyValue('<b>not markup</b>')).toBe('<b>not markup</b>');
    expect(policyChanges(null, { a: 1 })).toEqual([{ field: 'a', from: 'any', to: '1' }]);
  });
});

import type { PolicyRule } from '@game-wallet/contracts/views';
import type { SigningPolicy } from '@game-wallet/contracts/views';
import { describe, expect, it } from 'vitest';
import { POLICY_DRAFT_DELETED, POLICY_DRAFT_UPDATED, POLICY_UPDATED, describePolicyChange, describePolicyValue, describeRuleChange, holdsRules, policyChanges } from './policy-changes';

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

describe('describeRuleChange', () => {
  const shop: PolicyRule = { id: 'shop', action: 'accept', operation: 'transaction', chains: ['evm'], criteria: [{ type: 'evmValue', operator: '<=', value: '10' }] };
  const messages: PolicyRule = { id: 'messages', action: 'accept', operation: 'message', criteria: [] };
  const sol: PolicyRule = { id: 'no-sol', action: 'reject', operation: 'transaction', chains: ['sol'], criteria: [] };

  it('names the version, then each rule added, removed or changed in its sentence, and the new order', () => {
    const after = [{ ...shop, criteria: [{ type: 'evmValue', operator: '<=', value: '20' }] }, sol, messages] as PolicyRule[];
    expect(
      describeRuleChange(POLICY_UPDATED, { version: 4, before: [messages, shop], after, difference: { added: ['no-sol'], removed: [], changed: ['shop'], reordered: true }, ip: '127.0.0.1' }),
    ).toEqual([
      'version 4',
      'added no-sol: Reject transactions on sol.',
      'changed shop: Accept transactions on evm when the value is at most 10 wei. → Accept transactions on evm when the value is at most 20 wei.',
      'new order: shop, no-sol, messages',
    ]);
    expect(describeRuleChange(POLICY_UPDATED, { version: 5, fromDraft: true, before: [shop], after: [], difference: { added: [], removed: ['shop'], changed: [], reordered: false } })).toEqual([
      'version 5, the draft activated',
      'removed shop: Accept transactions on evm when the value is at most 10 wei.',
    ]);
    expect(describeRuleChange(POLICY_UPDATED, { version: 6, before: [shop], after: [shop], difference: { added: [], removed: [], changed: [], reordered: false } })).toEqual(['version 6', 'no rule changed']);
  });

  it('tells a draft started, changed and deleted', () => {
    expect(describeRuleChange(POLICY_DRAFT_UPDATED, { before: null, after: [shop, messages], difference: { added: ['shop', 'messages'], removed: [], changed: [], reordered: false } })).toEqual([
      'draft started with 2 rules',
    ]);
    expect(describeRuleChange(POLICY_DRAFT_UPDATED, { before: [shop, messages], after: [messages], difference: { added: [], removed: ['shop'], changed: [], reordered: false } })).toEqual([
      'removed shop: Accept transactions on evm when the value is at most 10 wei.',
    ]);
    expect(describeRuleChange(POLICY_DRAFT_DELETED, { before: [shop, messages], after: null, difference: { added: [], removed: ['shop', 'messages'], changed: [], reordered: false } })).toEqual([
      'draft deleted, with its 2 rules',
    ]);
  });

  it('works out a difference an entry did not record, and shows a rule it cannot read as its JSON', () => {
    expect(describeRuleChange(POLICY_UPDATED, { before: [shop, messages], after: [messages, { ...shop, action: 'reject' }] })).toEqual([
      'changed shop: Accept transactions on evm when the value is at most 10 wei. → Reject transactions on evm when the value is at most 10 wei.',
      'new order: messages, shop',
    ]);
    const odd = { id: 'odd', criteria: [{ type: 'unknown' }] };
    expect(describeRuleChange(POLICY_UPDATED, { before: [], after: [odd] })).toEqual(['added odd: {"id":"odd","criteria":[{"type":"unknown"}]}']);
    expect(holdsRules({ before: [], after: [odd] })).toBe(true);
    expect(holdsRules({ before: DEFAULT, after: DEFAULT })).toBe(false);
  });
});

import type { SigningPolicy } from '@game-wallet/contracts/views';
import { describe, expect, it } from 'vitest';
import { formOfPolicy, policyOfForm } from './signing-policy-form';

const policy: SigningPolicy = {
  operations: { apiKey: ['message', 'transaction', 'typed-data'], profile: ['message'] },
  evm: { chainIds: ['1', '8453'], maxValueWei: '1000', maxFeeWei: '21000000000000', contracts: null, typedDataPrimaryTypes: ['Order'] },
  sol: { programs: null, maxLamports: '5000', maxPriorityMicroLamports: null },
  sui: { packages: ['0x2'], allowTransfers: false, maxGasBudget: '50000000' },
};

describe('signing policy form', () => {
  it('edits a policy and gives it back unchanged', () => {
    expect(policyOfForm(formOfPolicy(policy))).toEqual(policy);
  });

  it('reads lists one a line or separated by commas, and empty fields as "any"', () => {
    const form = { ...formOfPolicy(policy), evmChainIds: '1, 10\n8453', evmMaxValueWei: '  ', suiPackages: '\n' };
    expect(policyOfForm(form)).toMatchObject({ evm: { chainIds: ['1', '10', '8453'], maxValueWei: null }, sui: { packages: null } });
  });

  it('keeps the operations in their usual order whatever order they were ticked in', () => {
    const form = { ...formOfPolicy(policy), profile: ['typed-data', 'message'] as const };
    expect(policyOfForm({ ...form, profile: [...form.profile] }).operations.profile).toEqual(['message', 'typed-data']);
  });
});

import { DEFAULT_SIGNING_POLICY, GamePrincipal, SigningPolicy } from '@game-wallet/contracts';
import { Transaction } from 'ethers';
import { checkEvmTransaction, checkTypedData } from '../chains/evm';
import { checkOperation } from './signing-policy';

const policy = (change: Partial<SigningPolicy>): SigningPolicy => ({ ...structuredClone(DEFAULT_SIGNING_POLICY), ...change });
const apiKey = { kind: 'apiKey', applicationId: 'g', keyId: 'k' } as unknown as GamePrincipal;
const profile = { kind: 'profile', applicationId: 'g', profileId: 'p' } as unknown as GamePrincipal;
const refused = (check: () => void): string | undefined => {
  try {
    check();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
};

describe('signing policy checks', () => {
  it('lets API keys sign everything and profile JWTs messages only, by default', () => {
    expect(refused(() => checkOperation(DEFAULT_SIGNING_POLICY, apiKey, 'transaction'))).toBeUndefined();
    expect(refused(() => checkOperation(DEFAULT_SIGNING_POLICY, profile, 'message'))).toBeUndefined();
    expect(refused(() => checkOperation(DEFAULT_SIGNING_POLICY, profile, 'typed-data'))).toBe('POLICY_DENIED');
  });

  it('evm: chain ids, value cap and addresses', () => {
    const rules = policy({ evm: { ...DEFAULT_SIGNING_POLICY.evm, chainIds: ['1'], maxValueWei: '10', contracts: ['0x00000000000000000000000000000000000000aa'] } });
    const tx = (fields: Record<string, unknown>) => Transaction.from({ type: 2, chainId: 1, to: '0x00000000000000000000000000000000000000AA', value: 10, ...fields });
    expect(refused(() => checkEvmTransaction(rules, tx({})))).toBeUndefined();
    expect(refused(() => checkEvmTransaction(rules, tx({ chainId: 2 })))).toBe('POLICY_DENIED');
    expect(refused(() => checkEvmTransaction(rules, tx({ value: 11 })))).toBe('POLICY_DENIED');
    expect(refused(() => checkEvmTransaction(rules, tx({ to: '0x00000000000000000000000000000000000000bb' })))).toBe('POLICY_DENIED');
    expect(refused(() => checkEvmTransaction(rules, tx({ to: null })))).toBe('POLICY_DENIED');
    expect(refused(() => checkEvmTransaction(DEFAULT_SIGNING_POLICY, tx({ chainId: 2, value: 10n ** 30n, to: null })))).toBeUndefined();
  });

  it('evm: the fees gasLimit × the highest fee per gas may reach (evm.maxFeeWei), legacy and EIP-1559', () => {
    const rules = policy({ evm: { ...DEFAULT_SIGNING_POLICY.evm, maxFeeWei: '21000000' } });
    expect(refused(() => checkEvmTransaction(rules, Transaction.from({ type: 2, chainId: 1, gasLimit: 21000, maxFeePerGas: 1000, maxPriorityFeePerGas: 1 })))).toBeUndefined();
    expect(refused(() => checkEvmTransaction(rules, Transaction.from({ type: 2, chainId: 1, gasLimit: 21000, maxFeePerGas: 1001, maxPriorityFeePerGas: 1 })))).toBe('POLICY_DENIED');
    expect(refused(() => checkEvmTransaction(rules, Transaction.from({ type: 2, chainId: 1, gasLimit: 21001, maxFeePerGas: 1000, maxPriorityFeePerGas: 1 })))).toBe('POLICY_DENIED');
    expect(refused(() => checkEvmTransaction(rules, Transaction.from({ type: 0, chainId: 1, gasLimit: 21000, gasPrice: 1000 })))).toBeUndefined();
    expect(refused(() => checkEvmTransaction(rules, Transaction.from({ type: 0, chainId: 1, gasLimit: 21000, gasPrice: 1001 })))).toBe('POLICY_DENIED');
    // An invalid transaction offering a priority fee above its max fee is held to the larger of the two.
    expect(refused(() => checkEvmTransaction(rules, Transaction.from({ type: 2, chainId: 1, gasLimit: 21000, maxFeePerGas: 1, maxPriorityFeePerGas: 5000 })))).toBe('POLICY_DENIED');
  });

  it('evm typed data: the verifying contract must be listed when evm.contracts is set, and the primary type when typedDataPrimaryTypes is', () => {
    const shop = '0x00000000000000000000000000000000000000aa';
    const rules = policy({ evm: { ...DEFAULT_SIGNING_POLICY.evm, contracts: [shop], typedDataPrimaryTypes: ['Order'] } });
    const typed = (domain: Record<string, unknown>, primaryType = 'Order') => ({ domain, types: {}, primaryType, message: {} });
    expect(refused(() => checkTypedData(rules, typed({ verifyingContract: '0x00000000000000000000000000000000000000AA' })))).toBeUndefined();
    expect(refused(() => checkTypedData(rules, typed({ verifyingContract: '0x00000000000000000000000000000000000000bb' })))).toBe('POLICY_DENIED');
    expect(refused(() => checkTypedData(rules, typed({})))).toBe('POLICY_DENIED');
    expect(refused(() => checkTypedData(rules, typed({ verifyingContract: ['0x00000000000000000000000000000000000000aa'] })))).toBe('POLICY_DENIED');
    expect(refused(() => checkTypedData(rules, typed({ verifyingContract: shop }, 'Permit')))).toBe('POLICY_DENIED');
    expect(refused(() => checkTypedData(DEFAULT_SIGNING_POLICY, typed({}, 'Permit')))).toBeUndefined();
  });

  it('evm typed data: a domain chainId that is not a whole number is 400, not a failure', () => {
    const typed = (chainId: unknown) => ({ domain: { chainId }, types: {}, primaryType: 'A', message: {} });
    for (const chainId of ['abc', 1.5, -1, '9'.repeat(79), { x: 1 }, true]) {
      expect(refused(() => checkTypedData(DEFAULT_SIGNING_POLICY, typed(chainId)))).toBe('VALIDATION_FAILED');
    }
    expect(refused(() => checkTypedData(DEFAULT_SIGNING_POLICY, typed('0x2105')))).toBeUndefined();
  });

  it('evm typed data: the domain chain id when chain ids are limited', () => {
    const rules = policy({ evm: { ...DEFAULT_SIGNING_POLICY.evm, chainIds: ['8453'], maxValueWei: null, contracts: null } });
    const typed = (domain: Record<string, unknown>) => ({ domain, types: {}, primaryType: 'A', message: {} });
    expect(refused(() => checkTypedData(rules, typed({ chainId: 8453 })))).toBeUndefined();
    expect(refused(() => checkTypedData(rules, typed({ chainId: '0x1' })))).toBe('POLICY_DENIED');
    expect(refused(() => checkTypedData(rules, typed({})))).toBe('POLICY_DENIED');
    expect(refused(() => checkTypedData(DEFAULT_SIGNING_POLICY, typed({})))).toBeUndefined();
  });
});

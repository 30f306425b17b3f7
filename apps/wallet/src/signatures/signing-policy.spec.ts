import { DEFAULT_SIGNING_POLICY, SigningPolicy } from '@game-wallet/contracts';
import { Transaction } from 'ethers';
import { Credential } from '../policies/rules-engine';
import { FirstShapeRequest, firstShapeDecision } from '../chains/first-shape.fixture';

const policy = (change: Partial<SigningPolicy>): SigningPolicy => ({ ...structuredClone(DEFAULT_SIGNING_POLICY), ...change });
const apiKey: Credential = { kind: 'apiKey' };
const profile: Credential = { kind: 'profile' };
/** undefined when the converted rules allow the request; else the code of the refusal (403 POLICY_DENIED, or 400). */
const refused = async (rules: SigningPolicy, request: FirstShapeRequest, credential = apiKey): Promise<string | undefined> => {
  const decision = await firstShapeDecision(rules, request, credential);
  return decision === 'allowed' ? undefined : decision.code;
};

/** The first policy shape's operations and evm limits, as the rules it converts to decide them. */
describe('signing policy of the first shape: operations and evm', () => {
  it('lets API keys sign everything and profile JWTs messages only, by default', async () => {
    expect(await refused(DEFAULT_SIGNING_POLICY, { evm: Transaction.from({ type: 2, chainId: 1 }) }, apiKey)).toBeUndefined();
    expect(await refused(DEFAULT_SIGNING_POLICY, { message: Buffer.from('hello') }, profile)).toBeUndefined();
    expect(await firstShapeDecision(DEFAULT_SIGNING_POLICY, { typedData: { domain: {}, types: { A: [] }, primaryType: 'A', message: {} } }, profile)).toEqual({
      code: 'POLICY_DENIED',
      reason: 'no rule accepts typed data on evm from a profile JWT',
    });
  });

  it('evm: chain ids, value cap and addresses', async () => {
    const rules = policy({ evm: { ...DEFAULT_SIGNING_POLICY.evm, chainIds: ['1'], maxValueWei: '10', contracts: ['0x00000000000000000000000000000000000000aa'] } });
    const tx = (fields: Record<string, unknown>) => ({ evm: Transaction.from({ type: 2, chainId: 1, to: '0x00000000000000000000000000000000000000AA', value: 10, ...fields }) });
    expect(await refused(rules, tx({}))).toBeUndefined();
    expect(await refused(rules, tx({ chainId: 2 }))).toBe('POLICY_DENIED');
    expect(await refused(rules, tx({ value: 11 }))).toBe('POLICY_DENIED');
    expect(await refused(rules, tx({ to: '0x00000000000000000000000000000000000000bb' }))).toBe('POLICY_DENIED');
    expect(await refused(rules, tx({ to: null }))).toBe('POLICY_DENIED');
    expect(await refused(DEFAULT_SIGNING_POLICY, tx({ chainId: 2, value: 10n ** 30n, to: null }))).toBeUndefined();
  });

  it('evm: the fees gasLimit × the highest fee per gas may reach (evm.maxFeeWei), legacy and EIP-1559', async () => {
    const rules = policy({ evm: { ...DEFAULT_SIGNING_POLICY.evm, maxFeeWei: '21000000' } });
    const tx = (fields: Record<string, unknown>) => ({ evm: Transaction.from({ chainId: 1, gasLimit: 21000, ...fields }) });
    expect(await refused(rules, tx({ type: 2, maxFeePerGas: 1000, maxPriorityFeePerGas: 1 }))).toBeUndefined();
    expect(await refused(rules, tx({ type: 2, maxFeePerGas: 1001, maxPriorityFeePerGas: 1 }))).toBe('POLICY_DENIED');
    expect(await refused(rules, tx({ type: 2, gasLimit: 21001, maxFeePerGas: 1000, maxPriorityFeePerGas: 1 }))).toBe('POLICY_DENIED');
    expect(await refused(rules, tx({ type: 0, gasPrice: 1000 }))).toBeUndefined();
    expect(await refused(rules, tx({ type: 0, gasPrice: 1001 }))).toBe('POLICY_DENIED');
    // An invalid transaction offering a priority fee above its max fee is held to the larger of the two.
    expect(await firstShapeDecision(rules, tx({ type: 2, maxFeePerGas: 1, maxPriorityFeePerGas: 5000 }))).toEqual({
      code: 'POLICY_DENIED',
      reason: 'no rule accepted this; in rule apiKey-transaction-evm, "the most the fees may reach is at most 21000000 wei" does not hold',
      observed: 'fee 105000000 wei',
    });
  });

  it('evm typed data: the verifying contract must be listed when evm.contracts is set, and the primary type when typedDataPrimaryTypes is', async () => {
    const shop = '0x00000000000000000000000000000000000000aa';
    const rules = policy({ evm: { ...DEFAULT_SIGNING_POLICY.evm, contracts: [shop], typedDataPrimaryTypes: ['Order'] } });
    const typed = (domain: Record<string, unknown>, primaryType = 'Order') => ({ typedData: { domain, types: {}, primaryType, message: {} } });
    expect(await refused(rules, typed({ verifyingContract: '0x00000000000000000000000000000000000000AA' }))).toBeUndefined();
    expect(await refused(rules, typed({ verifyingContract: '0x00000000000000000000000000000000000000bb' }))).toBe('POLICY_DENIED');
    expect(await refused(rules, typed({}))).toBe('POLICY_DENIED');
    expect(await refused(rules, typed({ verifyingContract: ['0x00000000000000000000000000000000000000aa'] }))).toBe('POLICY_DENIED');
    expect(await refused(rules, typed({ verifyingContract: shop }, 'Permit'))).toBe('POLICY_DENIED');
    expect(await refused(DEFAULT_SIGNING_POLICY, typed({}, 'Permit'))).toBeUndefined();
  });

  it('evm typed data: a domain chainId that is not a whole number is 400, not a failure', async () => {
    const typed = (chainId: unknown) => ({ typedData: { domain: { chainId }, types: {}, primaryType: 'A', message: {} } });
    for (const chainId of ['abc', 1.5, -1, '9'.repeat(79), { x: 1 }, true]) {
      expect(await refused(DEFAULT_SIGNING_POLICY, typed(chainId))).toBe('VALIDATION_FAILED');
    }
    expect(await refused(DEFAULT_SIGNING_POLICY, typed('0x2105'))).toBeUndefined();
  });

  it('evm typed data: the domain chain id when chain ids are limited', async () => {
    const rules = policy({ evm: { ...DEFAULT_SIGNING_POLICY.evm, chainIds: ['8453'], maxValueWei: null, contracts: null } });
    const typed = (domain: Record<string, unknown>) => ({ typedData: { domain, types: {}, primaryType: 'A', message: {} } });
    expect(await refused(rules, typed({ chainId: 8453 }))).toBeUndefined();
    expect(await refused(rules, typed({ chainId: '0x1' }))).toBe('POLICY_DENIED');
    expect(await refused(rules, typed({}))).toBe('POLICY_DENIED');
    expect(await refused(DEFAULT_SIGNING_POLICY, typed({}))).toBeUndefined();
  });
});

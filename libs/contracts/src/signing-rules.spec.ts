import { DEFAULT_SIGNING_POLICY, SigningPolicy } from './wallet';
import { PolicyRule, ruleSentence, rulesOfPolicy } from './signing-rules';

describe('signing rules', () => {
  it('converts the default policy into one accept rule per operation and credential kind it allows', () => {
    expect(rulesOfPolicy(DEFAULT_SIGNING_POLICY).rules.map((rule) => rule.id)).toEqual([
      'apiKey-message',
      'apiKey-transaction-evm',
      'apiKey-transaction-sol',
      'apiKey-transaction-sui',
      'apiKey-typed-data',
      'profile-message',
    ]);
  });

  it("converts each chain's limits into its transaction rule's criteria", () => {
    const policy: SigningPolicy = {
      operations: { apiKey: ['transaction', 'typed-data'], profile: [] },
      evm: { chainIds: ['8453'], maxValueWei: '10', maxFeeWei: '21000', contracts: ['0x00000000000000000000000000000000000000aa'], typedDataPrimaryTypes: ['Permit'] },
      sol: { programs: ['11111111111111111111111111111111'], maxLamports: null, maxPriorityMicroLamports: null },
      sui: { packages: ['0x2'], allowTransfers: false, maxGasBudget: null },
    };
    const byId = new Map(rulesOfPolicy(policy).rules.map((rule) => [rule.id, rule.criteria.map((criterion) => criterion.type)]));
    expect(byId.get('apiKey-transaction-evm')).toEqual(['evmChainId', 'evmValue', 'evmFee', 'evmContractCreation', 'evmAddress']);
    // A sol limit makes what cannot be counted refused, as before: the other two are bounded at their most.
    expect(byId.get('apiKey-transaction-sol')).toEqual(['solProgram', 'solLamports', 'solPriorityFee']);
    expect(byId.get('apiKey-transaction-sui')).toEqual(['suiPublish', 'suiMoveCall', 'suiTransfers', 'suiGasBudget']);
    expect(byId.get('apiKey-typed-data')).toEqual(['evmTypedDataChainId', 'evmTypedDataVerifyingContract', 'evmTypedDataPrimaryType']);
  });

  it('reads each rule as one sentence', () => {
    const rule: PolicyRule = {
      id: 'shop',
      action: 'accept',
      operation: 'transaction',
      chains: ['evm'],
      credentials: { kinds: ['apiKey'] },
      criteria: [
        { type: 'evmData', function: 'function transfer(address to, uint256 amount)', conditions: [{ param: 'amount', operator: '<=', value: '10000000' }] },
        { type: 'velocity', scope: 'profile', windowSeconds: 86_400, maxCount: 20 },
      ],
    };
    expect(ruleSentence(rule)).toBe('Accept transactions on evm from API keys when a call of transfer(address to, uint256 amount) with amount at most 10000000, and at most 20 signatures per profile in a day.');
    expect(ruleSentence({ id: 'rest', action: 'reject', operation: 'message', criteria: [] })).toBe('Reject messages.');
  });
});

import { DEFAULT_SIGNING_POLICY, GamePrincipal, SigningPolicy } from '@game-wallet/contracts';
import { Transaction as SuiTransaction } from '@mysten/sui/transactions';
import { Transaction } from 'ethers';
import { SolanaMessage } from '../keys/solana-transaction';
import { checkEvmTransaction, checkOperation, checkSolanaTransaction, checkSuiTransaction, checkTypedData } from './signing-policy';

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

  it('evm typed data: the domain chain id when chain ids are limited', () => {
    const rules = policy({ evm: { ...DEFAULT_SIGNING_POLICY.evm, chainIds: ['8453'], maxValueWei: null, contracts: null } });
    const typed = (domain: Record<string, unknown>) => ({ domain, types: {}, primaryType: 'A', message: {} });
    expect(refused(() => checkTypedData(rules, typed({ chainId: 8453 })))).toBeUndefined();
    expect(refused(() => checkTypedData(rules, typed({ chainId: '0x1' })))).toBe('POLICY_DENIED');
    expect(refused(() => checkTypedData(rules, typed({})))).toBe('POLICY_DENIED');
    expect(refused(() => checkTypedData(DEFAULT_SIGNING_POLICY, typed({})))).toBeUndefined();
  });

  it('sol: programs of every instruction, and the sum of System transfers', () => {
    const system = new Uint8Array(32);
    const other = new Uint8Array(32).fill(5);
    const transfer = (lamports: bigint) => {
      const data = new Uint8Array(12);
      new DataView(data.buffer).setUint32(0, 2, true);
      new DataView(data.buffer).setBigUint64(4, lamports, true);
      return data;
    };
    const message = (instructions: SolanaMessage['instructions']): SolanaMessage => ({ versioned: false, requiredSignatures: 1, accountKeys: [new Uint8Array(32).fill(1), system, other], instructions });
    const rules = policy({ sol: { ...DEFAULT_SIGNING_POLICY.sol, programs: ['11111111111111111111111111111111'], maxLamports: '100' } });
    expect(refused(() => checkSolanaTransaction(rules, message([{ programIdIndex: 1, data: transfer(60n) }, { programIdIndex: 1, data: transfer(40n) }])))).toBeUndefined();
    expect(refused(() => checkSolanaTransaction(rules, message([{ programIdIndex: 1, data: transfer(60n) }, { programIdIndex: 1, data: transfer(41n) }])))).toBe('POLICY_DENIED');
    expect(refused(() => checkSolanaTransaction(rules, message([{ programIdIndex: 2, data: new Uint8Array() }])))).toBe('POLICY_DENIED');
  });

  it('sui: Move packages and coin transfers', async () => {
    const build = async (commands: (tx: SuiTransaction) => void) => {
      const tx = new SuiTransaction();
      tx.setSender(`0x${'11'.repeat(32)}`);
      tx.setGasPrice(1);
      tx.setGasBudget(1000);
      tx.setGasPayment([{ objectId: `0x${'22'.repeat(32)}`, version: '1', digest: '11111111111111111111111111111111' }]);
      commands(tx);
      return tx.build();
    };
    const rules = policy({ sui: { ...DEFAULT_SIGNING_POLICY.sui, packages: ['0x2'], allowTransfers: false } });
    const call = (target: string) => (tx: SuiTransaction) => void tx.moveCall({ target, arguments: [tx.object.clock()] });
    const allowed = await build(call('0x2::clock::timestamp_ms'));
    const otherPackage = await build(call('0x3::clock::timestamp_ms'));
    const split = await build((tx) => void tx.splitCoins(tx.gas, [1]));
    expect(refused(() => checkSuiTransaction(rules, allowed))).toBeUndefined();
    expect(refused(() => checkSuiTransaction(rules, otherPackage))).toBe('POLICY_DENIED');
    expect(refused(() => checkSuiTransaction(rules, split))).toBe('POLICY_DENIED');
    expect(refused(() => checkSuiTransaction(DEFAULT_SIGNING_POLICY, split))).toBeUndefined();
  });
});

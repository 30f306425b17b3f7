import { DEFAULT_SIGNING_POLICY, SigningPolicy } from '@game-wallet/contracts';
import { Transaction } from '@mysten/sui/transactions';
import { firstShapeDecision } from './first-shape.fixture';

/** The first policy shape's Move packages, value-moving calls, Publish/Upgrade and gas budget, as the rules it converts to decide them, over transactions built by @mysten/sui. */
describe('signing policy of the first shape: sui', () => {
  const recipient = `0x${'33'.repeat(32)}`;
  const coinType = '0x2::sui::SUI';
  const withLimits = (sui: Partial<SigningPolicy['sui']>): SigningPolicy => ({ ...structuredClone(DEFAULT_SIGNING_POLICY), sui: { ...DEFAULT_SIGNING_POLICY.sui, ...sui } });
  const owned = (byte: string) => (tx: Transaction) => tx.objectRef({ objectId: `0x${byte.repeat(32)}`, version: '1', digest: '11111111111111111111111111111111' });
  const frameworkOnly = withLimits({ packages: ['0x2'], allowTransfers: false });
  const build = async (commands: (tx: Transaction) => void, budget = 10_000_000) => {
    const tx = new Transaction();
    tx.setSender(`0x${'11'.repeat(32)}`);
    tx.setGasPrice(1000);
    tx.setGasBudget(budget);
    tx.setGasPayment([{ objectId: `0x${'22'.repeat(32)}`, version: '1', digest: '11111111111111111111111111111111' }]);
    commands(tx);
    return tx.build();
  };
  const outcome = async (policy: SigningPolicy, commands: (tx: Transaction) => void, budget?: number) => firstShapeDecision(policy, { sui: await build(commands, budget) });
  /** The refusal when the rule's criterion `needs` does not hold for what was `observed`. */
  const refusal = (needs: string, observed: string) => ({ code: 'POLICY_DENIED', reason: `no rule accepted this; in rule apiKey-transaction-sui, "${needs}" does not hold`, observed });
  const movesValue = (observed: string) => refusal('no transfer of coins or objects', observed);

  it('allows the framework calls that cannot move value, such as reading the clock', async () => {
    expect(await outcome(frameworkOnly, (tx) => void tx.moveCall({ target: '0x2::clock::timestamp_ms', arguments: [tx.object.clock()] }))).toBe('allowed');
  });

  it.each([
    ['0x2::pay::split_and_transfer', (tx: Transaction) => void tx.moveCall({ target: '0x2::pay::split_and_transfer', typeArguments: [coinType], arguments: [tx.gas, tx.pure.u64(1), tx.pure.address(recipient)] })],
    ['0x2::transfer::public_transfer', (tx: Transaction) => void tx.moveCall({ target: '0x2::transfer::public_transfer', typeArguments: ['0x2::coin::Coin<0x2::sui::SUI>'], arguments: [tx.gas, tx.pure.address(recipient)] })],
    ['0x2::sui::transfer', (tx: Transaction) => void tx.moveCall({ target: '0x2::sui::transfer', arguments: [tx.gas, tx.pure.address(recipient)] })],
    ['0x2::coin::join', (tx: Transaction) => void tx.moveCall({ target: '0x2::coin::join', typeArguments: [coinType], arguments: [tx.gas, owned('44')(tx)] })],
    ['0x2::coin::send_funds', (tx: Transaction) => void tx.moveCall({ target: '0x2::coin::send_funds', typeArguments: [coinType], arguments: [tx.gas, tx.pure.address(recipient)] })],
    ['0x2::kiosk::place', (tx: Transaction) => void tx.moveCall({ target: '0x2::kiosk::place', arguments: [owned('55')(tx)] })],
  ])('refuses %s with transfers off, and allows it with transfers on', async (target, commands) => {
    expect(await outcome(frameworkOnly, commands)).toEqual(movesValue(`Move call ${target}`));
    expect(await outcome(withLimits({ packages: ['0x2'] }), commands)).toBe('allowed');
  });

  it('refuses the bridge and DeepBook with transfers off, whatever the module', async () => {
    const call = (target: string) => (tx: Transaction) => void tx.moveCall({ target, arguments: [] });
    expect(await outcome(withLimits({ allowTransfers: false }), call('0xb::bridge::send_token'))).toEqual(movesValue('Move call 0xb::bridge::send_token'));
    expect(await outcome(withLimits({ allowTransfers: false }), call('0xdee9::clob_v2::place_market_order'))).toEqual(movesValue('Move call 0xdee9::clob_v2::place_market_order'));
  });

  it('refuses Publish and Upgrade whenever sui.packages is set', async () => {
    const publish = (tx: Transaction) => void tx.transferObjects([tx.publish({ modules: [[1, 2, 3]], dependencies: ['0x1', '0x2'] })], recipient);
    const upgrade = (tx: Transaction) =>
      void tx.upgrade({ modules: [[1, 2, 3]], dependencies: ['0x1', '0x2'], package: `0x${'66'.repeat(32)}`, ticket: owned('77')(tx) });
    expect(await outcome(withLimits({ packages: ['0x2'] }), publish)).toEqual(refusal('no Publish or Upgrade', 'Publish'));
    expect(await outcome(withLimits({ packages: ['0x2'] }), upgrade)).toEqual(refusal('no Publish or Upgrade', 'Upgrade'));
    expect(await outcome(DEFAULT_SIGNING_POLICY, upgrade)).toBe('allowed');
  });

  it('caps the gas budget (sui.maxGasBudget)', async () => {
    const rules = withLimits({ maxGasBudget: '10000000' });
    const clock = (tx: Transaction) => void tx.moveCall({ target: '0x2::clock::timestamp_ms', arguments: [tx.object.clock()] });
    expect(await outcome(rules, clock, 10_000_000)).toBe('allowed');
    expect(await outcome(rules, clock, 10_000_001)).toEqual(refusal('the gas budget is at most 10000000 MIST', 'gas budget 10000001 MIST'));
  });

  it('refuses TransferObjects, SplitCoins and MergeCoins with transfers off', async () => {
    expect(await outcome(frameworkOnly, (tx) => void tx.splitCoins(tx.gas, [1]))).toEqual(movesValue('SplitCoins'));
    expect(await outcome(frameworkOnly, (tx) => void tx.mergeCoins(tx.gas, [owned('44')(tx)]))).toEqual(movesValue('MergeCoins'));
    expect(await outcome(DEFAULT_SIGNING_POLICY, (tx) => void tx.transferObjects([tx.gas], recipient))).toBe('allowed');
  });
});

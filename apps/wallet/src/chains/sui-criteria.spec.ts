import { Criterion, DEFAULT_SIGNING_POLICY, SigningPolicy } from '@game-wallet/contracts';
import { bcs } from '@mysten/sui/bcs';
import { Transaction } from '@mysten/sui/transactions';
import { SigningFacts } from './chain-signer';
import { firstShapeDecision } from './first-shape.fixture';
import { sui } from './sui';

/** Policy v2 on Sui: what a transaction's facts say, and each Sui criterion over them, on transactions built offline by @mysten/sui. */
describe('Sui transaction facts and criteria', () => {
  const shop = `0x${'ab'.repeat(32)}`;
  const recipient = `0x${'33'.repeat(32)}`;
  const framework = `0x${'0'.repeat(63)}2`;
  type Commands = (tx: Transaction) => unknown;

  const owned = (tx: Transaction, byte: string) => tx.objectRef({ objectId: `0x${byte.repeat(32)}`, version: '1', digest: '11111111111111111111111111111111' });
  const call =
    (target: string, args: (tx: Transaction) => Parameters<Transaction['moveCall']>[0]['arguments'] = () => [], typeArguments: string[] = []): Commands =>
    (tx) =>
      tx.moveCall({ target, typeArguments, arguments: args(tx) });
  const buy = call(`${shop}::shop::buy`, (tx) => [owned(tx, '55'), tx.pure.u64(3)]);
  const clock = call('0x2::clock::timestamp_ms', (tx) => [tx.object.clock()]);
  const payToRecipient = call('0x2::pay::split_and_transfer', (tx) => [tx.gas, tx.pure.u64(1), tx.pure.address(recipient)], ['0x2::sui::SUI']);
  const splitAndSend: Commands = (tx) => tx.transferObjects([tx.splitCoins(tx.gas, [1000])[0]], recipient);
  const merge: Commands = (tx) => tx.mergeCoins(owned(tx, '44'), [owned(tx, '45')]);
  const publish: Commands = (tx) => tx.transferObjects([tx.publish({ modules: [[161, 28, 235, 11]], dependencies: ['0x1', '0x2'] })], recipient);
  const upgrade: Commands = (tx) => tx.upgrade({ modules: [[161, 28, 235, 11]], dependencies: ['0x1', '0x2'], package: `0x${'66'.repeat(32)}`, ticket: owned(tx, '77') });

  const base64Of = async (commands: Commands[], budget = 10_000_000): Promise<string> => {
    const tx = new Transaction();
    tx.setSender(`0x${'11'.repeat(32)}`);
    tx.setGasPrice(1000);
    tx.setGasBudget(budget);
    tx.setGasPayment([{ objectId: `0x${'22'.repeat(32)}`, version: '1', digest: '11111111111111111111111111111111' }]);
    commands.forEach((command) => command(tx));
    return Buffer.from(await tx.build()).toString('base64');
  };
  const factsOf = async (commands: Commands[], budget?: number): Promise<SigningFacts> => (await sui.transaction(await base64Of(commands, budget))).facts;
  /** A transaction of a kind only validators send (ChangeEpoch): no commands to read. */
  const notProgrammable = Buffer.from(
    bcs.TransactionData.serialize({
      V1: { kind: { ChangeEpoch: true }, sender: recipient, gasData: { payment: [], owner: recipient, price: '1000', budget: '5000' }, expiration: { None: true } },
    }).toBytes(),
  ).toString('base64');
  const outcome = (criterion: Criterion, facts: SigningFacts) => sui.criterion(criterion, facts);

  describe('decoding', () => {
    it('refuses TransactionData followed by bytes it does not hold (400), as it refuses bytes that are not TransactionData', async () => {
      const bytes = Buffer.from(await base64Of([clock]), 'base64');
      await expect(sui.transaction(bytes.toString('base64'))).resolves.toBeDefined();
      await expect(sui.transaction(Buffer.concat([bytes, Buffer.of(0)]).toString('base64'))).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        message: 'transaction: not Sui TransactionData in BCS (bytes after its end, or not in canonical form)',
      });
      await expect(sui.transaction(bytes.subarray(0, -1).toString('base64'))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    });
  });

  describe('facts', () => {
    it('lists each command with its kind, and a Move call with its normalized target and whether it can move value', async () => {
      const facts = await factsOf([buy, payToRecipient, splitAndSend, merge, (tx) => tx.makeMoveVec({ elements: [owned(tx, '46')] })], 12_345_678);
      expect(facts).toEqual({
        operation: 'transaction',
        chain: 'sui',
        nativeValue: null,
        programmable: true,
        gasBudget: '12345678',
        commands: [
          { kind: 'MoveCall', target: `${shop}::shop::buy`, movesValue: false },
          { kind: 'MoveCall', target: `${framework}::pay::split_and_transfer`, movesValue: true },
          { kind: 'SplitCoins' },
          { kind: 'TransferObjects' },
          { kind: 'MergeCoins' },
          { kind: 'MakeMoveVec' },
        ],
      });
      expect(JSON.parse(JSON.stringify(facts))).toEqual(facts);
    });

    it('says a transaction of another kind than programmable is not, with no commands and no native value', async () => {
      expect((await sui.transaction(notProgrammable)).facts).toEqual({ operation: 'transaction', chain: 'sui', nativeValue: null, programmable: false, gasBudget: '5000', commands: [] });
    });

    it.each<[string, Commands[], string | null]>([
      ['nothing taken out of the gas coin', [(tx) => tx.moveCall({ target: `${shop}::shop::ping` })], '0'],
      ['uncountable when an object of the wallet goes to a command (another SUI coin, perhaps)', [buy, merge, (tx) => tx.mergeCoins(tx.gas, [owned(tx, '44')])], null],
      ['one split off the gas coin', [splitAndSend], '1000'],
      ['the sum of every amount split off the gas coin', [splitAndSend, (tx) => tx.splitCoins(tx.gas, [tx.pure.u64(2500n), 18_000_000_000_000_000_000n])], '18000000000000003500'],
      ['uncountable when another coin is split (it may be SUI)', [(tx) => tx.splitCoins(owned(tx, '44'), [7])], null],
      ['uncountable when the gas coin is transferred whole', [splitAndSend, (tx) => tx.transferObjects([tx.gas], recipient)], null],
      ['uncountable when the gas coin goes to a Move call', [payToRecipient], null],
      ['uncountable when an amount is not a pure u64', [(tx) => tx.splitCoins(tx.gas, [tx.pure.u32(5)])], null],
      ['uncountable when an amount is computed by a Move call', [(tx) => tx.splitCoins(tx.gas, [tx.moveCall({ target: `${shop}::shop::price` })])], null],
    ])('counts the native value in MIST: %s', async (_, commands, nativeValue) => {
      expect((await factsOf(commands)).nativeValue).toBe(nativeValue);
    });
  });

  describe('suiMoveCall', () => {
    const moveCall = (operator: 'in' | 'not in', ...values: string[]): Criterion => ({ type: 'suiMoveCall', operator, values });

    it('holds when every Move call is in the list: a whole package, a module, or one function', async () => {
      const facts = await factsOf([buy, clock]);
      expect(outcome(moveCall('in', `${shop}::*`, '0x2::clock::*'), facts)).toEqual({ result: 'holds', observed: `Move call ${shop}::shop::buy and 1 more` });
      expect(outcome(moveCall('in', `${shop}::shop::buy`, `${framework}::*`), facts).result).toBe('holds');
      expect(outcome(moveCall('in'), await factsOf([splitAndSend]))).toEqual({ result: 'holds', observed: 'no Move call' });
    });

    it('fails on the first Move call not in the list, naming it', async () => {
      const facts = await factsOf([buy, clock]);
      expect(outcome(moveCall('in', `${shop}::shop::sell`, '0x2::*'), facts)).toEqual({ result: 'fails', observed: `Move call ${shop}::shop::buy` });
      expect(outcome(moveCall('in', `${shop}::*`), facts)).toEqual({ result: 'fails', observed: 'Move call 0x2::clock::timestamp_ms' });
    });

    it('reads 0x2::coin::* as every function of the framework coin module, and no other module', async () => {
      const join = call('0x2::coin::join', (tx) => [tx.gas, owned(tx, '44')], ['0x2::sui::SUI']);
      expect(outcome(moveCall('in', '0x2::coin::*'), await factsOf([join])).result).toBe('holds');
      expect(outcome(moveCall('in', '0x2::coin::*'), await factsOf([payToRecipient]))).toEqual({ result: 'fails', observed: 'Move call 0x2::pay::split_and_transfer' });
    });

    it('holds with "not in" when no Move call is in the list, and fails on the first that is', async () => {
      const facts = await factsOf([buy, call('0x2::transfer::public_transfer', (tx) => [owned(tx, '44'), tx.pure.address(recipient)], [`${shop}::shop::Item`])]);
      expect(outcome(moveCall('not in', '0x2::pay::*', `${shop}::shop::sell`), facts).result).toBe('holds');
      expect(outcome(moveCall('not in', '0x2::transfer::public_transfer'), facts)).toEqual({ result: 'fails', observed: 'Move call 0x2::transfer::public_transfer' });
    });

    it('keeps the observed Move call within 200 characters', async () => {
      const long = `m${'o'.repeat(127)}`;
      const result = outcome(moveCall('in', '0x2::*'), await factsOf([call(`${shop}::${long}::${long}`)]));
      expect(result.result).toBe('fails');
      expect(result.observed).toHaveLength(200);
    });
  });

  describe('suiTransfers', () => {
    const noTransfers: Criterion = { type: 'suiTransfers', allowed: false };

    it('holds with allowed: false when nothing moves coins or objects', async () => {
      expect(outcome(noTransfers, await factsOf([buy, clock]))).toEqual({ result: 'holds', observed: 'no coin or object moved' });
    });

    it.each<[string, Commands, string]>([
      ['SplitCoins and TransferObjects', splitAndSend, 'SplitCoins'],
      ['MergeCoins', merge, 'MergeCoins'],
      ['0x2::pay::split_and_transfer', payToRecipient, 'Move call 0x2::pay::split_and_transfer'],
      ['0x2::transfer::public_transfer', call('0x2::transfer::public_transfer', (tx) => [owned(tx, '44'), tx.pure.address(recipient)], [`${shop}::shop::Item`]), 'Move call 0x2::transfer::public_transfer'],
      ['the bridge', call('0xb::bridge::send_token'), 'Move call 0xb::bridge::send_token'],
    ])('fails with allowed: false on %s, and holds with allowed: true', async (_, commands, observed) => {
      const facts = await factsOf([buy, commands]);
      expect(outcome(noTransfers, facts)).toEqual({ result: 'fails', observed });
      expect(outcome({ type: 'suiTransfers', allowed: true }, facts)).toEqual({ result: 'holds', observed });
    });
  });

  describe('suiPublish', () => {
    it.each<[string, Commands]>([
      ['Publish', publish],
      ['Upgrade', upgrade],
    ])('fails with allowed: false on %s, and holds with allowed: true', async (kind, commands) => {
      const facts = await factsOf([commands]);
      expect(outcome({ type: 'suiPublish', allowed: false }, facts)).toEqual({ result: 'fails', observed: kind });
      expect(outcome({ type: 'suiPublish', allowed: true }, facts)).toEqual({ result: 'holds', observed: kind });
    });

    it('holds with allowed: false when nothing is published or upgraded', async () => {
      expect(outcome({ type: 'suiPublish', allowed: false }, await factsOf([buy, splitAndSend]))).toEqual({ result: 'holds', observed: 'no Publish or Upgrade' });
    });
  });

  describe('suiGasBudget', () => {
    it.each<[Extract<Criterion, { type: 'suiGasBudget' }>['operator'], string, 'holds' | 'fails']>([
      ['<=', '10000001', 'holds'],
      ['<=', '10000000', 'fails'],
      ['<', '10000002', 'holds'],
      ['<', '10000001', 'fails'],
      ['>=', '10000001', 'holds'],
      ['>=', '10000002', 'fails'],
      ['>', '10000000', 'holds'],
      ['>', '10000001', 'fails'],
      ['==', '10000001', 'holds'],
      ['==', '18446744073709551615', 'fails'],
    ])('compares the gas budget of 10000001 MIST: %s %s %s', async (operator, value, result) => {
      expect(outcome({ type: 'suiGasBudget', operator, value }, await factsOf([clock], 10_000_001))).toEqual({ result, observed: 'gas budget 10000001 MIST' });
    });
  });

  describe('what cannot be decided', () => {
    it.each<Criterion>([
      { type: 'suiMoveCall', operator: 'not in', values: ['0x2::*'] },
      { type: 'suiTransfers', allowed: false },
      { type: 'suiTransfers', allowed: true },
      { type: 'suiGasBudget', operator: '<=', value: '18446744073709551615' },
      { type: 'suiPublish', allowed: false },
    ])('is unknown on a transaction that is not programmable: $type', async (criterion) => {
      expect(outcome(criterion, (await sui.transaction(notProgrammable)).facts)).toEqual({ result: 'unknown', observed: 'not a programmable transaction' });
    });

    it('is unknown for a criterion Sui transactions do not have, facts of another request, or a budget limit that is not a number', async () => {
      expect(outcome({ type: 'evmValue', operator: '<=', value: '1' }, await factsOf([clock])).result).toBe('unknown');
      expect(outcome({ type: 'suiPublish', allowed: false }, { operation: 'message', chain: 'sui', nativeValue: '0', length: 3 }).result).toBe('unknown');
      expect(outcome({ type: 'suiGasBudget', operator: '<=', value: 'ten' }, await factsOf([clock]))).toEqual({ result: 'unknown', observed: 'gas budget 10000000 MIST, the limit not a decimal' });
    });
  });

  describe('criterionProblem', () => {
    it.each(['0x2::*', '0x2::coin::*', '0x2::coin::join', `${shop}::Shop_v2::buy_item`, `0x${'AB'.repeat(32)}::shop::buy`])('accepts the Move call target %s', (target) => {
      expect(sui.criterionProblem({ type: 'suiMoveCall', operator: 'in', values: [target] })).toBeUndefined();
    });

    it.each(['0x2', '0x2::coin', '2::coin::join', '0x2::*::join', '0x2::coin::join::x', '0x2::1coin::join', '0x2::_coin::join', '0xg::coin::join', `0x${'1'.repeat(65)}::a::b`, `0x2::coin::${'j'.repeat(129)}`])(
      'refuses the Move call target %s, naming the field',
      (target) => {
        expect(sui.criterionProblem({ type: 'suiMoveCall', operator: 'in', values: ['0x2::*', target] })).toMatch(/^values: ".*" is not a Move call target/);
      },
    );

    it('accepts a gas budget in decimal MIST up to a u64, and refuses any other', () => {
      expect(sui.criterionProblem({ type: 'suiGasBudget', operator: '<=', value: '18446744073709551615' })).toBeUndefined();
      for (const value of ['', '-1', '1.5', '0x10', '1e9', '18446744073709551616']) {
        expect(sui.criterionProblem({ type: 'suiGasBudget', operator: '<=', value })).toBe('value: a gas budget is MIST in decimal digits, at most a u64');
      }
      expect(sui.criterionProblem({ type: 'suiTransfers', allowed: false })).toBeUndefined();
    });
  });

  /**
   * The first policy shape's sui limits, converted to rules, decide as the shape's own check did: every transaction of
   * sui-policy.spec.ts and the Sui cases of signing-rules.e2e-spec.ts, under every policy those use, with the
   * transactions that check refused (it allowed the others).
   */
  describe('rules converted from the first policy shape', () => {
    const withLimits = (limits: Partial<SigningPolicy['sui']>): SigningPolicy => ({ ...DEFAULT_SIGNING_POLICY, sui: { ...DEFAULT_SIGNING_POLICY.sui, ...limits } });
    const coin = ['0x2::sui::SUI'];
    const transactions: [string, Promise<string>][] = [
      ['the clock', base64Of([clock])],
      ['the clock, gas budget 10000001', base64Of([clock], 10_000_001)],
      ['a shop call', base64Of([buy])],
      ['0x2::pay::split_and_transfer', base64Of([payToRecipient])],
      ['0x2::transfer::public_transfer', base64Of([call('0x2::transfer::public_transfer', (tx) => [tx.gas, tx.pure.address(recipient)], ['0x2::coin::Coin<0x2::sui::SUI>'])])],
      ['0x2::sui::transfer', base64Of([call('0x2::sui::transfer', (tx) => [tx.gas, tx.pure.address(recipient)])])],
      ['0x2::coin::join', base64Of([call('0x2::coin::join', (tx) => [tx.gas, owned(tx, '44')], coin)])],
      ['0x2::coin::send_funds', base64Of([call('0x2::coin::send_funds', (tx) => [tx.gas, tx.pure.address(recipient)], coin)])],
      ['0x2::kiosk::place', base64Of([call('0x2::kiosk::place', (tx) => [owned(tx, '55')])])],
      ['the bridge', base64Of([call('0xb::bridge::send_token')])],
      ['DeepBook', base64Of([call('0xdee9::clob_v2::place_market_order')])],
      ['Publish', base64Of([publish])],
      ['Upgrade', base64Of([upgrade])],
      ['SplitCoins', base64Of([(tx) => tx.splitCoins(tx.gas, [1])])],
      ['MergeCoins into the gas coin', base64Of([(tx) => tx.mergeCoins(tx.gas, [owned(tx, '44')])])],
      ['the gas coin transferred', base64Of([(tx) => tx.transferObjects([tx.gas], recipient)])],
      ['not programmable', Promise.resolve(notProgrammable)],
    ];
    const valueMoving = ['0x2::pay::split_and_transfer', '0x2::transfer::public_transfer', '0x2::sui::transfer', '0x2::coin::join', '0x2::coin::send_funds', '0x2::kiosk::place'];
    const transfers = ['SplitCoins', 'MergeCoins into the gas coin', 'the gas coin transferred'];
    const policies: [string, SigningPolicy, string[]][] = [
      ['no sui limit', DEFAULT_SIGNING_POLICY, []],
      ['packages [0x2]', withLimits({ packages: ['0x2'] }), ['a shop call', 'the bridge', 'DeepBook', 'Publish', 'Upgrade', 'not programmable']],
      [
        'packages [0x2], transfers off',
        withLimits({ packages: ['0x2'], allowTransfers: false }),
        ['a shop call', ...valueMoving, 'the bridge', 'DeepBook', 'Publish', 'Upgrade', ...transfers, 'not programmable'],
      ],
      ['transfers off', withLimits({ allowTransfers: false }), [...valueMoving, 'the bridge', 'DeepBook', 'Publish', ...transfers, 'not programmable']],
      ['maxGasBudget 10000000', withLimits({ maxGasBudget: '10000000' }), ['the clock, gas budget 10000001', 'not programmable']],
      [
        'packages [shop], maxGasBudget 10000000, transfers off',
        withLimits({ packages: [shop], maxGasBudget: '10000000', allowTransfers: false }),
        ['the clock', 'the clock, gas budget 10000001', ...valueMoving, 'the bridge', 'DeepBook', 'Publish', 'Upgrade', ...transfers, 'not programmable'],
      ],
    ];

    it.each(policies)('refuse exactly what the first shape refused under %s', async (_, policy, refused) => {
      const decisions = await Promise.all(transactions.map(async ([name, transaction]) => ({ name, decision: await firstShapeDecision(policy, { sui: await transaction }) })));
      expect(decisions.filter(({ decision }) => decision !== 'allowed').map(({ name, decision }) => [name, decision !== 'allowed' && decision.code])).toEqual(
        refused.map((name) => [name, 'POLICY_DENIED']),
      );
    });
  });
});

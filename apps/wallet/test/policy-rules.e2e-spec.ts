import { AppError, PATTERNS, PlayerView, PolicyEvaluationRequest, PolicyRule, SigningPolicyView, TypedDataRequest } from '@game-wallet/contracts';
import { GameFixture, TestPlatform, claimsOf, consoleToken, createGame, createPlayer, http } from '@game-wallet/testing';
import { RedisStreamsClient } from '@game-wallet/transport';
import { Transaction as SuiTransaction } from '@mysten/sui/transactions';
import { createTransferCheckedInstruction, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { ComputeBudgetProgram, Keypair, PublicKey, SystemProgram, Transaction, TransactionInstruction, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { Interface } from 'ethers';
import Redis from 'ioredis';
import { VelocityLimits } from '../src/policies/velocity';

/**
 * Signing policy v2 through the signing routes and the wallet's own patterns: ordered rules with criteria on each
 * chain, velocity counted across two wallet replicas, a change on every replica within a second, If-Match, the dry
 * run against the real decision, and the draft in shadow and in replay.
 */
describe('signing policy rules', () => {
  let platform: TestPlatform;
  let client: RedisStreamsClient;
  let game: GameFixture;
  let player: PlayerView;
  let addresses: { evm: string; sol: string; sui: string };
  /** A real operator's session (the wallet asks identity about it for every console pattern). */
  let operator: { kind: 'operator'; operatorId: string; sessionId: string };
  const shop = '0x1111111111111111111111111111111111111111';
  const erc20 = new Interface(['function transfer(address to, uint256 amount)', 'function approve(address spender, uint256 amount)']);
  const mint = Keypair.generate().publicKey;
  const blockhash = new PublicKey(new Uint8Array(32).fill(9)).toBase58();

  beforeAll(async () => {
    platform = await TestPlatform.start('policy-rules', { env: { RATE_LIMIT_SIGN_PER_WALLET_RPS: '1000', RATE_LIMIT_API_KEY_RPS: '1000', RATE_LIMIT_API_KEY_BURST: '1000' } });
    await platform.startReplica('wallet', 'wallet#2');
    const token = await consoleToken(platform);
    const claims = claimsOf(token) as { sub: string; jti: string };
    operator = { kind: 'operator', operatorId: claims.sub, sessionId: claims.jti };
    game = await createGame(platform, token, 'Rules v2 game');
    player = await createPlayer(platform, game.key, 'rules-v2-player');
    addresses = (await http<{ addresses: typeof addresses }>('GET', `${platform.baseUrl}/v1/wallet/${player.walletId}`, { apiKey: game.key })).body.addresses;
    client = await platform.transportClient();
  });

  afterAll(async () => {
    await client.close();
    await platform.stop();
  });

  /** Saves the rules, then waits out the second within which every replica applies a change (SPEC §11). */
  const put = async (rules: PolicyRule[], ifMatch?: number): Promise<SigningPolicyView> => {
    const saved = await client.call(PATTERNS.wallet.putSigningPolicy, { payload: { gameId: game.gameId, policy: { rules }, ...(ifMatch === undefined ? {} : { ifMatch }) }, principal: operator });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    return saved;
  };
  const sign = (route: string, body: unknown) => http<{ code?: string; message?: string; details?: { ruleId: string | null } }>('POST', `${platform.baseUrl}/v1/wallet/${player.walletId}/${route}`, { apiKey: game.key, body });
  const decisionOf = (response: { status: number; body: { code?: string; details?: { ruleId: string | null } } }): string =>
    response.status === 200 ? 'accept' : response.status === 403 && response.body.code === 'POLICY_DENIED' ? `reject ${response.body.details?.ruleId ?? 'none'}` : `${response.status} ${response.body.code}`;
  const evmTransaction = (fields: Record<string, unknown>) => ({ chain: 'evm', transaction: { chainId: '8453', gasLimit: '60000', maxFeePerGas: '1', maxPriorityFeePerGas: '1', ...fields } });
  const solTransfer = (amount: bigint, programId = TOKEN_PROGRAM_ID) => {
    const owner = new PublicKey(addresses.sol);
    const instruction = createTransferCheckedInstruction(Keypair.generate().publicKey, mint, Keypair.generate().publicKey, owner, amount, 6, [], programId);
    return { chain: 'sol', transaction: new Transaction({ feePayer: owner, recentBlockhash: blockhash }).add(instruction).serialize({ requireAllSignatures: false }).toString('base64') };
  };
  const anotherMint = () => {
    const owner = new PublicKey(addresses.sol);
    const instruction = createTransferCheckedInstruction(Keypair.generate().publicKey, Keypair.generate().publicKey, Keypair.generate().publicKey, owner, 1n, 6, [], TOKEN_PROGRAM_ID);
    return { chain: 'sol', transaction: new Transaction({ feePayer: owner, recentBlockhash: blockhash }).add(instruction).serialize({ requireAllSignatures: false }).toString('base64') };
  };
  const solV0Transfer = (amount: bigint) => {
    const owner = new PublicKey(addresses.sol);
    const instruction = createTransferCheckedInstruction(Keypair.generate().publicKey, mint, Keypair.generate().publicKey, owner, amount, 6, [], TOKEN_2022_PROGRAM_ID);
    const message = new TransactionMessage({ payerKey: owner, recentBlockhash: blockhash, instructions: [instruction] }).compileToV0Message();
    return { chain: 'sol', transaction: Buffer.from(new VersionedTransaction(message).serialize()).toString('base64') };
  };
  const suiCall = async (target: string) => {
    const transaction = new SuiTransaction();
    transaction.setSender(addresses.sui);
    transaction.setGasPrice(1000);
    transaction.setGasBudget(10_000_000);
    transaction.setGasPayment([{ objectId: `0x${'22'.repeat(32)}`, version: '1', digest: '11111111111111111111111111111111' }]);
    transaction.moveCall({ target, arguments: [] });
    return { chain: 'sui', transaction: Buffer.from(await transaction.build()).toString('base64') };
  };
  const permit = (spender: string, value: string): TypedDataRequest => ({
    domain: { name: 'Token', version: '1', chainId: 8453, verifyingContract: shop },
    types: { Permit: [{ name: 'owner', type: 'address' }, { name: 'spender', type: 'address' }, { name: 'value', type: 'uint256' }, { name: 'nonce', type: 'uint256' }, { name: 'deadline', type: 'uint256' }] },
    primaryType: 'Permit',
    message: { owner: addresses.evm, spender, value, nonce: 0, deadline: 9_999_999_999 },
  });

  /** Each case signed, and evaluated by the dry run first: the same decision and rule, as expected. */
  const expectDecisions = async (cases: [string, string, unknown, PolicyEvaluationRequest['operation'], string][]): Promise<void> => {
    for (const [name, route, body, operation, expected] of cases) {
      const request = body as { chain: 'evm' | 'sol' | 'sui'; transaction?: unknown; message?: string };
      const payload = operation === 'typed-data' ? body : operation === 'message' ? Buffer.from(request.message as string).toString('base64') : request.transaction;
      const dry = await client.call(PATTERNS.wallet.evaluateSigningPolicy, {
        payload: { gameId: game.gameId, evaluation: { operation, chain: operation === 'typed-data' ? 'evm' : request.chain, credential: { kind: 'apiKey', apiKeyId: game.keyId }, walletId: player.walletId, payload } },
        principal: operator,
      });
      const signed = decisionOf(await sign(route, body));
      expect([name, signed]).toEqual([name, expected]);
      expect([name, dry.decision === 'accept' ? 'accept' : `reject ${dry.ruleId ?? 'none'}`]).toEqual([name, signed]);
    }
  };

  it('decides by the first rule that matches, on every chain, and the dry run gives the same decision and rule as signing', async () => {
    await put([
      { id: 'no-big-erc20', action: 'reject', operation: 'transaction', chains: ['evm'], criteria: [{ type: 'evmData', function: 'function transfer(address to, uint256 amount)', conditions: [{ param: 'amount', operator: '>', value: '1000000' }] }] },
      { id: 'shop-erc20', action: 'accept', operation: 'transaction', chains: ['evm'], criteria: [{ type: 'evmChainId', operator: 'in', values: ['8453'] }, { type: 'evmData', function: 'function transfer(address to, uint256 amount)', conditions: [{ param: 'to', operator: 'in', values: [shop] }] }] },
      { id: 'permit-shop', action: 'accept', operation: 'typed-data', chains: ['evm'], criteria: [{ type: 'evmTypedDataField', path: 'message.spender', operator: 'in', values: [shop] }, { type: 'evmTypedDataField', path: 'message.value', operator: '<=', value: '1000000' }] },
      { id: 'reward-token', action: 'accept', operation: 'transaction', chains: ['sol'], criteria: [{ type: 'solInstruction', allowed: [{ program: 'spl-token', instruction: 'transferChecked', mints: [mint.toBase58()], maxAmount: '5000000' }, { program: 'token-2022', instruction: 'transferChecked', mints: [mint.toBase58()], maxAmount: '5000000' }] }] },
      { id: 'shop-calls', action: 'accept', operation: 'transaction', chains: ['sui'], criteria: [{ type: 'suiMoveCall', operator: 'in', values: [`0x${'ab'.repeat(32)}::shop::*`] }, { type: 'suiTransfers', allowed: false }] },
      { id: 'claims', action: 'accept', operation: 'message', criteria: [{ type: 'messagePattern', pattern: '^claim [0-9]{1,9}$', match: true }] },
    ]);
    const cases: [string, string, unknown, PolicyEvaluationRequest['operation'], string][] = [
      ['erc20 to the shop', 'sign-transaction', evmTransaction({ to: shop, data: erc20.encodeFunctionData('transfer', [shop, 10n]) }), 'transaction', 'accept'],
      ['erc20 over the cap', 'sign-transaction', evmTransaction({ to: shop, data: erc20.encodeFunctionData('transfer', [shop, 1_000_001n]) }), 'transaction', 'reject no-big-erc20'],
      ['erc20 elsewhere', 'sign-transaction', evmTransaction({ to: shop, data: erc20.encodeFunctionData('transfer', ['0x2222222222222222222222222222222222222222', 10n]) }), 'transaction', 'reject none'],
      ['erc20 approve', 'sign-transaction', evmTransaction({ to: shop, data: erc20.encodeFunctionData('approve', [shop, 10n]) }), 'transaction', 'reject none'],
      ['erc20 on another chain', 'sign-transaction', evmTransaction({ chainId: '1', to: shop, data: erc20.encodeFunctionData('transfer', [shop, 10n]) }), 'transaction', 'reject none'],
      ['a permit for the shop', 'sign-typed-data', permit(shop, '1000000'), 'typed-data', 'accept'],
      ['a permit over the cap', 'sign-typed-data', permit(shop, '1000001'), 'typed-data', 'reject none'],
      ['a permit for someone else', 'sign-typed-data', permit('0x3333333333333333333333333333333333333333', '1'), 'typed-data', 'reject none'],
      ['the reward token (SPL Token, legacy)', 'sign-transaction', solTransfer(5_000_000n), 'transaction', 'accept'],
      ['the reward token (Token-2022, v0)', 'sign-transaction', solV0Transfer(5_000_000n), 'transaction', 'accept'],
      ['too much reward token', 'sign-transaction', solTransfer(5_000_001n), 'transaction', 'reject none'],
      ['the reward token under Token-2022 (legacy)', 'sign-transaction', solTransfer(1n, TOKEN_2022_PROGRAM_ID), 'transaction', 'accept'],
      ['a transfer of another mint', 'sign-transaction', anotherMint(), 'transaction', 'reject none'],
      ['a shop call', 'sign-transaction', await suiCall(`0x${'ab'.repeat(32)}::shop::buy`), 'transaction', 'accept'],
      ['another package', 'sign-transaction', await suiCall(`0x${'cd'.repeat(32)}::shop::buy`), 'transaction', 'reject none'],
      ['a claim', 'sign', { chain: 'evm', message: 'claim 42' }, 'message', 'accept'],
      ['anything else', 'sign', { chain: 'evm', message: 'transfer everything' }, 'message', 'reject none'],
    ];
    await expectDecisions(cases);
  });

  it('allows and refuses by every criterion, the dry run deciding each case as signing does', async () => {
    const only = (id: string, operation: PolicyRule['operation'], chains: PolicyRule['chains'], criteria: PolicyRule['criteria']): PolicyRule[] => [{ id, action: 'accept', operation, ...(chains === undefined ? {} : { chains }), criteria }];
    const owner = () => new PublicKey(addresses.sol);
    const solWith = (...instructions: TransactionInstruction[]) => ({
      chain: 'sol',
      transaction: new Transaction({ feePayer: owner(), recentBlockhash: blockhash }).add(...instructions).serialize({ requireAllSignatures: false }).toString('base64'),
    });
    const pay = (lamports: number) => SystemProgram.transfer({ fromPubkey: owner(), toPubkey: Keypair.generate().publicKey, lamports });
    const suiWith = async (budget: number, build: (transaction: SuiTransaction) => void) => {
      const transaction = new SuiTransaction();
      transaction.setSender(addresses.sui);
      transaction.setGasPrice(1000);
      transaction.setGasBudget(budget);
      transaction.setGasPayment([{ objectId: `0x${'22'.repeat(32)}`, version: '1', digest: '11111111111111111111111111111111' }]);
      build(transaction);
      return { chain: 'sui', transaction: Buffer.from(await transaction.build()).toString('base64') };
    };
    const clock = (transaction: SuiTransaction) => transaction.moveCall({ target: '0x2::clock::timestamp_ms', arguments: [transaction.object.clock()] });
    const typed = (domain: Record<string, unknown>, primaryType = 'Permit'): TypedDataRequest => ({ ...permit(shop, '1'), domain: { name: 'Token', ...domain }, primaryType, ...(primaryType === 'Permit' ? {} : { types: { [primaryType]: [{ name: 'a', type: 'uint256' }] }, message: { a: 1 } }) });
    const table: [PolicyRule[], [string, string, unknown, PolicyEvaluationRequest['operation'], string][]][] = [
      [only('to-shop', 'transaction', ['evm'], [{ type: 'evmAddress', operator: 'in', values: [shop] }]), [
        ['evmAddress: the shop', 'sign-transaction', evmTransaction({ to: shop }), 'transaction', 'accept'],
        ['evmAddress: elsewhere', 'sign-transaction', evmTransaction({ to: '0x2222222222222222222222222222222222222222' }), 'transaction', 'reject none'],
        ['evmAddress: a contract creation cannot be decided', 'sign-transaction', evmTransaction({ data: '0x6080' }), 'transaction', 'reject none'],
      ]],
      [only('small', 'transaction', ['evm'], [{ type: 'evmValue', operator: '<=', value: '100' }, { type: 'evmFee', operator: '<=', value: '60000' }, { type: 'evmContractCreation', allowed: false }]), [
        ['evmValue and evmFee: within', 'sign-transaction', evmTransaction({ to: shop, value: '100' }), 'transaction', 'accept'],
        ['evmValue: over', 'sign-transaction', evmTransaction({ to: shop, value: '101' }), 'transaction', 'reject none'],
        ['evmFee: over', 'sign-transaction', evmTransaction({ to: shop, maxFeePerGas: '2' }), 'transaction', 'reject none'],
        ['evmContractCreation: refused', 'sign-transaction', evmTransaction({ data: '0x6080' }), 'transaction', 'reject none'],
      ]],
      [only('domain', 'typed-data', ['evm'], [{ type: 'evmTypedDataVerifyingContract', operator: 'in', values: [shop] }, { type: 'evmTypedDataChainId', operator: 'in', values: ['8453'] }, { type: 'evmTypedDataPrimaryType', operator: 'not in', values: ['Order'] }]), [
        ['typed data: the shop on Base', 'sign-typed-data', typed({ chainId: 8453, verifyingContract: shop }), 'typed-data', 'accept'],
        ['evmTypedDataVerifyingContract: another', 'sign-typed-data', typed({ chainId: 8453, verifyingContract: '0x2222222222222222222222222222222222222222' }), 'typed-data', 'reject none'],
        ['evmTypedDataChainId: another', 'sign-typed-data', typed({ chainId: 1, verifyingContract: shop }), 'typed-data', 'reject none'],
        ['evmTypedDataPrimaryType: refused', 'sign-typed-data', typed({ chainId: 8453, verifyingContract: shop }, 'Order'), 'typed-data', 'reject none'],
      ]],
      [only('short', 'message', undefined, [{ type: 'messageLength', operator: '<=', value: '5' }]), [
        ['messageLength: within', 'sign', { chain: 'sui', message: 'hello' }, 'message', 'accept'],
        ['messageLength: over', 'sign', { chain: 'sui', message: 'hello!' }, 'message', 'reject none'],
      ]],
      [only('system', 'transaction', ['sol'], [{ type: 'solProgram', operator: 'in', values: [SystemProgram.programId.toBase58(), ComputeBudgetProgram.programId.toBase58()] }, { type: 'solLamports', operator: '<=', value: '1000' }, { type: 'solComputeUnitPrice', operator: '<=', value: '10' }, { type: 'solPriorityFee', operator: '<=', value: '2000000' }]), [
        ['sol: within every bound', 'sign-transaction', solWith(ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 10 }), pay(1000)), 'transaction', 'accept'],
        ['solLamports: over', 'sign-transaction', solWith(pay(1001)), 'transaction', 'reject none'],
        ['solProgram: another program', 'sign-transaction', solWith(new TransactionInstruction({ programId: Keypair.generate().publicKey, keys: [], data: Buffer.from('x') })), 'transaction', 'reject none'],
        ['solComputeUnitPrice: over', 'sign-transaction', solWith(ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 11 }), pay(1)), 'transaction', 'reject none'],
        ['solPriorityFee: over', 'sign-transaction', solWith(ComputeBudgetProgram.setComputeUnitLimit({ units: 300_000 }), ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 10 }), pay(1)), 'transaction', 'reject none'],
      ]],
      [only('sui-bounds', 'transaction', ['sui'], [{ type: 'suiGasBudget', operator: '<=', value: '10000000' }, { type: 'suiPublish', allowed: false }]), [
        ['suiGasBudget: within', 'sign-transaction', await suiWith(10_000_000, clock), 'transaction', 'accept'],
        ['suiGasBudget: over', 'sign-transaction', await suiWith(10_000_001, clock), 'transaction', 'reject none'],
        ['suiPublish: refused', 'sign-transaction', await suiWith(10_000_000, (transaction) => transaction.transferObjects([transaction.publish({ modules: [[1, 2, 3]], dependencies: ['0x1', '0x2'] })], addresses.sui)), 'transaction', 'reject none'],
      ]],
    ];
    for (const [rules, cases] of table) {
      await put(rules);
      await expectDecisions(cases);
    }
  });

  it('signs typed data whose strings hold a NUL character (facts PostgreSQL cannot store are kept as not replayable)', async () => {
    await put([{ id: 'typed', action: 'accept', operation: 'typed-data', chains: ['evm'], criteria: [] }]);
    const typed: TypedDataRequest = { domain: { name: 'a\u0000b', chainId: 8453 }, types: { Claim: [{ name: 'item', type: 'string' }] }, primaryType: 'Claim', message: { item: '\u0000' } };
    expect(decisionOf(await sign('sign-typed-data', typed))).toBe('accept');
  });

  it('holds a velocity limit under 50 parallel requests on two wallet replicas: never more than N accepted', async () => {
    await put([{ id: 'ten-a-minute', action: 'accept', operation: 'message', criteria: [{ type: 'velocity', scope: 'wallet', windowSeconds: 60, maxCount: 10 }] }]);
    const answers = await Promise.all(Array.from({ length: 50 }, (_, index) => sign('sign', { chain: 'sol', message: `burst ${index}` })));
    expect(answers.map(decisionOf).sort()).toEqual([...Array.from({ length: 10 }, () => 'accept'), ...Array.from({ length: 40 }, () => 'reject none')]);
  });

  it('bounds the native value moved per game in a window, counting only accepted signatures', async () => {
    // Written with leading zeros: still a bound of 1000 wei (the counters compare digits, so it is read as a number).
    await put([{ id: 'thousand-wei', action: 'accept', operation: 'transaction', chains: ['evm'], criteria: [{ type: 'velocity', scope: 'game', windowSeconds: 3_600, maxValue: '0001000' }] }]);
    const answers = await Promise.all(Array.from({ length: 20 }, () => sign('sign-transaction', evmTransaction({ to: shop, value: '100' }))));
    expect(answers.map(decisionOf).sort()).toEqual([...Array.from({ length: 10 }, () => 'accept'), ...Array.from({ length: 10 }, () => 'reject none')]);
    expect(decisionOf(await sign('sign-transaction', evmTransaction({ to: shop, value: '0' })))).toBe('accept');
  });

  it('answers 503, never an unchecked signature, when the velocity counters cannot be reached', async () => {
    const unreachable = new Redis('redis://127.0.0.1:1', { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
    unreachable.on('error', () => undefined);
    try {
      const limits = new VelocityLimits(unreachable, { keyPrefix: 'unreachable' } as never);
      const rule: PolicyRule = { id: 'r', action: 'accept', operation: 'message', criteria: [{ type: 'velocity', scope: 'game', windowSeconds: 60, maxCount: 1 }] };
      const check = limits.check(rule, [rule.criteria[0] as never], { gameId: 'g', walletId: 'w', profileId: 'p' }, { operation: 'message', chain: 'evm', nativeValue: '0' }, true);
      await expect(check).rejects.toBeInstanceOf(AppError);
      await expect(check).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    } finally {
      unreachable.disconnect();
    }
  });

  it('applies a change on every wallet replica within a second, and refuses a stale If-Match with 412', async () => {
    const accepted = await put([{ id: 'any', action: 'accept', operation: 'message', criteria: [] }]);
    for (let index = 0; index < 6; index += 1) {
      expect(decisionOf(await sign('sign', { chain: 'evm', message: `warm ${index}` }))).toBe('accept');
    }
    await expect(put([{ id: 'late', action: 'accept', operation: 'message', criteria: [] }], accepted.version - 1)).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' });
    const changed = Date.now();
    const refused = await client.call(PATTERNS.wallet.putSigningPolicy, { payload: { gameId: game.gameId, policy: { rules: [{ id: 'none', action: 'reject', operation: 'message', criteria: [] }] }, ifMatch: accepted.version }, principal: operator });
    expect(refused.version).toBe(accepted.version + 1);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1_000 - (Date.now() - changed))));
    // Requests are shared between the replicas: a second after the change, none of them signs under the old rules.
    const after = await Promise.all(Array.from({ length: 12 }, (_, index) => sign('sign', { chain: 'evm', message: `after ${index}` })));
    expect(after.map(decisionOf)).toEqual(after.map(() => 'reject none'));
  });

  it('records where the draft disagrees with the active policy, and replays it over past attempts with exact counts', async () => {
    const scripted = await createGame(platform, await consoleToken(platform), 'Shadow game');
    const scriptedPlayer = await createPlayer(platform, scripted.key, 'shadow-player');
    const started = new Date().toISOString();
    await client.call(PATTERNS.wallet.putSigningPolicy, { payload: { gameId: scripted.gameId, policy: { rules: [{ id: 'short', action: 'accept', operation: 'message', criteria: [{ type: 'messageLength', operator: '<=', value: '10' }] }] } }, principal: operator });
    await client.call(PATTERNS.wallet.putSigningPolicyDraft, { payload: { gameId: scripted.gameId, draft: { rules: [{ id: 'shorter', action: 'accept', operation: 'message', criteria: [{ type: 'messageLength', operator: '<=', value: '5' }] }] } }, principal: operator });
    const signAs = (message: string) => http('POST', `${platform.baseUrl}/v1/wallet/${scriptedPlayer.walletId}/sign`, { apiKey: scripted.key, body: { chain: 'evm', message } });
    // Active accepts ≤ 10 bytes, the draft ≤ 5: 3 messages of 6–10 bytes change (accepted → refused); 2 short and 2 long do not.
    for (const message of ['ok', 'fine', 'sixsix', 'seven77', 'eighteen', 'far too long', 'longer still!']) {
      await signAs(message);
    }
    // Refused before decoding (no rule takes transactions): nothing read, so only a draft that refuses it just as
    // early can be decided on it.
    await http('POST', `${platform.baseUrl}/v1/wallet/${scriptedPlayer.walletId}/sign-transaction`, { apiKey: scripted.key, body: evmTransaction({ to: shop }) });
    const deadline = Date.now() + 10_000;
    let differences = await client.call(PATTERNS.wallet.listSigningPolicyDifferences, { payload: { gameId: scripted.gameId, limit: 100 }, principal: operator });
    while (differences.items.length < 3 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      differences = await client.call(PATTERNS.wallet.listSigningPolicyDifferences, { payload: { gameId: scripted.gameId, limit: 100 }, principal: operator });
    }
    expect(differences.items.map((item) => [item.active, item.draft])).toEqual(
      Array.from({ length: 3 }, () => [{ decision: 'accept', ruleId: 'short' }, { decision: 'reject', ruleId: null }]),
    );
    const replay = await client.call(PATTERNS.wallet.replaySigningPolicyDraft, { payload: { gameId: scripted.gameId, since: started }, principal: operator });
    expect(replay).toMatchObject({ evaluated: 8, changed: 3, newlyRejected: 3, newlyAccepted: 0, undecidable: 0 });
    // A pattern needs the message, which is never stored: a draft that reads one cannot be replayed.
    await client.call(PATTERNS.wallet.putSigningPolicyDraft, { payload: { gameId: scripted.gameId, draft: { rules: [{ id: 'pattern', action: 'accept', operation: 'message', criteria: [{ type: 'messagePattern', pattern: 'o', match: true }] }] } }, principal: operator });
    expect(await client.call(PATTERNS.wallet.replaySigningPolicyDraft, { payload: { gameId: scripted.gameId, since: started }, principal: operator })).toMatchObject({ evaluated: 1, undecidable: 7 });
    // A draft that would read the transaction cannot be decided on it.
    await client.call(PATTERNS.wallet.putSigningPolicyDraft, { payload: { gameId: scripted.gameId, draft: { rules: [{ id: 'small', action: 'accept', operation: 'transaction', chains: ['evm'], criteria: [{ type: 'evmValue', operator: '<=', value: '10' }] }] } }, principal: operator });
    expect(await client.call(PATTERNS.wallet.replaySigningPolicyDraft, { payload: { gameId: scripted.gameId, since: started }, principal: operator })).toMatchObject({ evaluated: 7, undecidable: 1, changed: 5, newlyRejected: 5 });
    await client.call(PATTERNS.wallet.putSigningPolicyDraft, { payload: { gameId: scripted.gameId, draft: { rules: [{ id: 'pattern', action: 'accept', operation: 'message', criteria: [{ type: 'messagePattern', pattern: 'o', match: true }] }] } }, principal: operator });
    const activated = await client.call(PATTERNS.wallet.activateSigningPolicyDraft, { payload: { gameId: scripted.gameId }, principal: operator });
    expect([activated.version, activated.rules.map((rule) => rule.id)]).toEqual([2, ['pattern']]);
  });
});

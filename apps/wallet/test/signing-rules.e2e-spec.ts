import { DEFAULT_SIGNING_POLICY, PATTERNS, PlayerView, SigningPolicy, SigningPolicyView, TypedDataRequest, rulesOfPolicy } from '@game-wallet/contracts';
import { GameFixture, TestPlatform, consoleToken, createGame, createPlayer, http, profileJwt } from '@game-wallet/testing';
import { RedisStreamsClient } from '@game-wallet/transport';
import { Transaction as SuiTransaction } from '@mysten/sui/transactions';
import { ComputeBudgetProgram, Keypair, PublicKey, SystemProgram, Transaction, TransactionInstruction } from '@solana/web3.js';
import { base58 } from '@scure/base';

/**
 * The signing policy's rules that cannot be walked around (SPEC §11), through the API with transactions built by the
 * chains' own libraries: the caller's operation is checked before the payload is read, every System instruction and
 * framework transfer is accounted for, fees are capped, and typed data is bound to its contract.
 */
describe('signing rules that cannot be walked around', () => {
  let platform: TestPlatform;
  let operator: string;
  let game: GameFixture;
  let player: PlayerView;
  let jwt: string;
  let addresses: { evm: string; sol: string; sui: string };
  let client: RedisStreamsClient;
  const blockhash = base58.encode(new Uint8Array(32).fill(9));
  const shop = '0x1111111111111111111111111111111111111111';
  const token = '0x2222222222222222222222222222222222222222';

  beforeAll(async () => {
    // Many signatures by one wallet in quick succession: the per-wallet signing limit has its own suite (rate-limit).
    platform = await TestPlatform.start('rules', { env: { RATE_LIMIT_SIGN_PER_WALLET_RPS: '1000' } });
    operator = await consoleToken(platform);
    game = await createGame(platform, operator, 'Rules game');
    player = await createPlayer(platform, game.key, 'rules-player');
    jwt = await profileJwt(platform, player.profileId, game.key);
    addresses = (await http<{ addresses: typeof addresses }>('GET', `${platform.baseUrl}/v1/wallet/${player.walletId}`, { apiKey: game.key })).body.addresses;
    client = await platform.transportClient();
  });

  afterAll(async () => {
    await client.close();
    await platform.stop();
  });

  afterEach(async () => {
    await setPolicy(() => DEFAULT_SIGNING_POLICY);
  });

  const setPolicy = async (change: (policy: SigningPolicy) => SigningPolicy): Promise<void> => {
    const response = await http('PUT', `${platform.baseUrl}/v1/console/games/${game.gameId}/signing-policy`, { bearer: operator, body: change(structuredClone(DEFAULT_SIGNING_POLICY)) });
    expect(response.status).toBe(200);
  };
  const post = (route: string, body: unknown, credential: { apiKey?: string; bearer?: string } = { apiKey: game.key }) =>
    http<{ code?: string; message?: string }>('POST', `${platform.baseUrl}/v1/wallet/${player.walletId}/${route}`, { ...credential, body });
  const outcome = (response: { status: number; body: { code?: string; message?: string } }): string =>
    response.status === 200 ? 'allowed' : `${response.status} ${response.body.code}: ${String(response.body.message).replace("The game's signing policy refuses this: ", '')}`;
  const sol = (...instructions: TransactionInstruction[]) =>
    post('sign-transaction', {
      chain: 'sol',
      transaction: new Transaction({ feePayer: new PublicKey(addresses.sol), recentBlockhash: blockhash }).add(...instructions).serialize({ requireAllSignatures: false }).toString('base64'),
    });
  const sui = async (build: (transaction: SuiTransaction) => void, budget = 10_000_000) => {
    const transaction = new SuiTransaction();
    transaction.setSender(addresses.sui);
    transaction.setGasPrice(1000);
    transaction.setGasBudget(budget);
    transaction.setGasPayment([{ objectId: `0x${'22'.repeat(32)}`, version: '1', digest: '11111111111111111111111111111111' }]);
    build(transaction);
    return post('sign-transaction', { chain: 'sui', transaction: Buffer.from(await transaction.build()).toString('base64') });
  };
  const evm = (transaction: Record<string, unknown>) =>
    post('sign-transaction', { chain: 'evm', transaction: { chainId: 8453, to: shop, gasLimit: 21000, maxFeePerGas: '1000', maxPriorityFeePerGas: '1', ...transaction } });

  describe('the caller is checked before the payload is read', () => {
    const quadratic: TypedDataRequest = {
      domain: { chainId: 1 },
      types: { A: [{ name: 'a', type: `${'[]'.repeat(32_650)}x` }] },
      primaryType: 'A',
      message: { a: [] },
    };

    /**
     * Typed data sent straight to the wallet (no gateway in front to check it first), with a wallet read sent to the
     * same replica right behind it: how long each takes, and how each ends.
     */
    const beside = async (typedData: TypedDataRequest) => {
      const principal = { kind: 'apiKey' as const, applicationId: game.gameId, keyId: game.keyId };
      const timed = async <T>(call: () => Promise<T>): Promise<{ ms: number; outcome: string }> => {
        const started = performance.now();
        const outcome = await call().then(
          () => 'ok',
          (error: { code?: string; message?: string }) => `${error.code}: ${error.message}`,
        );
        return { ms: performance.now() - started, outcome };
      };
      const typed = timed(() => client.call(PATTERNS.wallet.signTypedData, { payload: { walletId: player.walletId, typedData }, principal }, { timeoutMs: 20_000 }));
      // The read goes out in the next turn, so it reaches the wallet right behind the typed data.
      await new Promise((resolve) => setImmediate(resolve));
      const read = timed(() => client.call(PATTERNS.wallet.getWallet, { payload: { walletId: player.walletId }, principal }, { timeoutMs: 20_000 }));
      const [typedAnswer, readAnswer] = await Promise.all([typed, read]);
      return { typed: typedAnswer, read: readAnswer };
    };

    it('answers the "[]" × 32,650 + "x" field type sent straight to the wallet with 400 within 1 s, while a wallet read on the same replica answers within 250 ms', async () => {
      const { typed, read } = await beside(quadratic);
      expect(typed.outcome).toMatch(/^VALIDATION_FAILED: types\.A\.0\.type: must be an EIP-712 type/);
      expect(typed.ms).toBeLessThan(1000);
      expect(read.outcome).toBe('ok');
      expect(read.ms).toBeLessThan(250);
    });

    /** 31 layers of two types that each use both types of the next: 2^32 paths for ethers' circularity check to walk. */
    const diamond = (): TypedDataRequest => {
      const types: TypedDataRequest['types'] = { Order: [{ name: 'a', type: 'A0' }, { name: 'b', type: 'B0' }] };
      for (let layer = 0; layer < 31; layer += 1) {
        const next = layer < 30 ? [{ name: 'a', type: `A${layer + 1}` }, { name: 'b', type: `B${layer + 1}` }] : [{ name: 'x', type: 'uint8' }];
        types[`A${layer}`] = next;
        types[`B${layer}`] = next;
      }
      return { domain: { chainId: 8453, verifyingContract: shop }, types, primaryType: 'Order', message: {} };
    };

    it('answers 4 KB of types that reach each other 2^32 ways with 400 within 1 s, straight to the wallet and through the gateway, while a read answers within 250 ms', async () => {
      const { typed, read } = await beside(diamond());
      expect(typed.outcome).toBe('VALIDATION_FAILED: types: the types Order uses reach each other in more than 1024 ways; use fewer nested types');
      expect(typed.ms).toBeLessThan(1000);
      expect([read.outcome, read.ms < 250]).toEqual(['ok', true]);
      expect(outcome(await post('sign-typed-data', diamond()))).toBe('400 VALIDATION_FAILED: types: the types Order uses reach each other in more than 1024 ways; use fewer nested types');
    });

    it('holds typed data sent straight to the wallet to the free-form bounds itself (a message 40 levels deep is 400)', async () => {
      let deep: unknown = 1;
      for (let level = 0; level < 40; level += 1) {
        deep = [deep];
      }
      const { typed } = await beside({ domain: { chainId: 1 }, types: { A: [{ name: 'a', type: 'string' }] }, primaryType: 'A', message: { a: deep } });
      expect(typed.outcome).toBe('VALIDATION_FAILED: message: must not nest objects and arrays more than 32 levels deep');
    });

    it('never signs a value the caller left out and Object.prototype has (a field named constructor): 400', async () => {
      const inherited = { domain: { chainId: 1 }, types: { M: [{ name: 'constructor', type: 'S' }], S: [{ name: 'name', type: 'string' }, { name: 'length', type: 'uint256' }] }, primaryType: 'M', message: {} };
      expect(outcome(await post('sign-typed-data', inherited))).toMatch(/^400 VALIDATION_FAILED: typedData: /);
      const sent = { ...inherited, message: { constructor: { name: 'Object', length: 1 } } };
      expect(outcome(await post('sign-typed-data', sent))).toBe('allowed');
    });

    it('refuses typed data from a caller whose policy refuses typed data with 403 before hashing it (a message ethers cannot hash)', async () => {
      const unhashable = { domain: { chainId: 1 }, types: { A: [{ name: 'a', type: 'Missing' }] }, primaryType: 'A', message: { a: 1 } };
      expect(outcome(await post('sign-typed-data', unhashable, { bearer: jwt }))).toBe('403 POLICY_DENIED: no rule accepts typed data on evm from a profile JWT');
      expect(outcome(await post('sign-typed-data', unhashable))).toMatch(/^400 VALIDATION_FAILED: typedData: /);
    });

    it('refuses a transaction from a caller whose policy refuses transactions with 403 before decoding it', async () => {
      const garbage = { chain: 'sui', transaction: Buffer.from('not a transaction').toString('base64') };
      expect(outcome(await post('sign-transaction', garbage, { bearer: jwt }))).toBe('403 POLICY_DENIED: no rule accepts transactions on sui from a profile JWT');
      expect(outcome(await post('sign-transaction', garbage))).toMatch(/^400 VALIDATION_FAILED: transaction: not Sui TransactionData/);
    });

    it.each(['toString', 'constructor', 'hasOwnProperty'])('answers a primary type of %s sent straight to the wallet with 400, not 500 (the wallet does not trust the gateway)', async (primaryType) => {
      const principal = { kind: 'apiKey' as const, applicationId: game.gameId, keyId: game.keyId };
      const typedData = { domain: { chainId: 1 }, types: { A: [{ name: 'a', type: 'string' }] }, primaryType, message: { a: 'x' } };
      await expect(client.call(PATTERNS.wallet.signTypedData, { payload: { walletId: player.walletId, typedData }, principal })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        message: `primaryType: ${primaryType} is not among the types`,
      });
    });
  });

  describe('sol: every System instruction is accounted for', () => {
    const wallet = () => new PublicKey(addresses.sol);
    const other = Keypair.generate().publicKey;

    beforeEach(async () => {
      await setPolicy((policy) => ({ ...policy, sol: { ...policy.sol, programs: [SystemProgram.programId.toBase58()], maxLamports: '1000' } }));
    });

    it.each([
      ['Assign (hands the account to another program)', () => SystemProgram.assign({ accountPubkey: wallet(), programId: other }), 'Assign'],
      ['the nonce account Withdraw', () => SystemProgram.nonceWithdraw({ noncePubkey: other, authorizedPubkey: wallet(), toPubkey: other, lamports: 1 }), 'WithdrawNonceAccount'],
      ['the nonce account Authorize', () => SystemProgram.nonceAuthorize({ noncePubkey: other, authorizedPubkey: wallet(), newAuthorizedPubkey: other }), 'AuthorizeNonceAccount'],
    ])('refuses %s under programs [System] and maxLamports 1000', async (_, instruction) => {
      // Its effect on the wallet's funds is not a number a limit can bound: the lamports moved cannot be decided.
      expect(outcome(await sol(instruction()))).toMatch(/^403 POLICY_DENIED: no rule accepted this; in rule apiKey-transaction-sol, "the amount of lamports moved is at most 1000 lamports" cannot be decided/);
    });

    it('counts the lamports of CreateAccount, CreateAccountWithSeed and TransferWithSeed with Transfer', async () => {
      const create = (lamports: number) => SystemProgram.createAccount({ fromPubkey: wallet(), newAccountPubkey: other, lamports, space: 0, programId: SystemProgram.programId });
      const withSeed = (lamports: number) => SystemProgram.createAccountWithSeed({ fromPubkey: wallet(), newAccountPubkey: other, basePubkey: wallet(), seed: 'game', lamports, space: 0, programId: SystemProgram.programId });
      const transferWithSeed = (lamports: number) => SystemProgram.transfer({ fromPubkey: other, basePubkey: wallet(), toPubkey: other, lamports, seed: 'game', programId: SystemProgram.programId });
      const transfer = (lamports: number) => SystemProgram.transfer({ fromPubkey: wallet(), toPubkey: other, lamports });
      expect(outcome(await sol(create(400), withSeed(300), transferWithSeed(200), transfer(100)))).toBe('allowed');
      expect(outcome(await sol(create(1_000_000_000)))).toBe('403 POLICY_DENIED: no rule accepted this; in rule apiKey-transaction-sol, "the amount of lamports moved is at most 1000 lamports" does not hold (observed: 1000000000 lamports moved)');
      expect(outcome(await sol(withSeed(1001)))).toMatch(/^403 POLICY_DENIED: no rule accepted this; .* \(observed: 1001 lamports moved\)$/);
      expect(outcome(await sol(transferWithSeed(1001)))).toMatch(/^403 POLICY_DENIED: no rule accepted this; .* \(observed: 1001 lamports moved\)$/);
      expect(outcome(await sol(create(400), withSeed(300), transferWithSeed(200), transfer(101)))).toMatch(/^403 POLICY_DENIED: no rule accepted this; .* \(observed: 1001 lamports moved\)$/);
    });

    it('refuses System instruction data it cannot decode (fail closed)', async () => {
      const truncated = new TransactionInstruction({ programId: SystemProgram.programId, keys: [{ pubkey: wallet(), isSigner: true, isWritable: true }], data: Buffer.from([2, 0, 0, 0, 1]) });
      expect(outcome(await sol(truncated))).toMatch(/^403 POLICY_DENIED: no rule accepted this; in rule apiKey-transaction-sol, "the amount of lamports moved is at most 1000 lamports" cannot be decided \(observed: lamports not counted: .*cannot be read\)$/);
    });

    it('caps the priority fee (sol.maxPriorityMicroLamports): unit price × unit limit', async () => {
      await setPolicy((policy) => ({ ...policy, sol: { ...policy.sol, programs: null, maxPriorityMicroLamports: '5000000' } }));
      const transfer = SystemProgram.transfer({ fromPubkey: wallet(), toPubkey: other, lamports: 1 });
      const fees = (units: number, microLamports: number) => [ComputeBudgetProgram.setComputeUnitLimit({ units }), ComputeBudgetProgram.setComputeUnitPrice({ microLamports }), transfer];
      expect(outcome(await sol(...fees(50_000, 100)))).toBe('allowed');
      expect(outcome(await sol(...fees(1_400_000, 1_000_000_000)))).toBe(
        '403 POLICY_DENIED: no rule accepted this; in rule apiKey-transaction-sol, "the priority fee is at most 5000000 micro-lamports" does not hold (observed: 1400000000000000 micro-lamports of priority fee at most)',
      );
    });
  });

  describe('sui: transfers off means no coin moves', () => {
    const recipient = `0x${'33'.repeat(32)}`;
    const owned = (transaction: SuiTransaction, byte: string) => transaction.objectRef({ objectId: `0x${byte.repeat(32)}`, version: '1', digest: '11111111111111111111111111111111' });

    beforeEach(async () => {
      await setPolicy((policy) => ({ ...policy, sui: { ...policy.sui, packages: ['0x2'], allowTransfers: false } }));
    });

    it('refuses 0x2::pay::split_and_transfer and 0x2::transfer::public_transfer under packages [0x2] with transfers off', async () => {
      const pay = await sui((transaction) => {
        transaction.moveCall({ target: '0x2::pay::split_and_transfer', typeArguments: ['0x2::sui::SUI'], arguments: [transaction.gas, transaction.pure.u64(1), transaction.pure.address(recipient)] });
      });
      expect(outcome(pay)).toBe('403 POLICY_DENIED: no rule accepted this; in rule apiKey-transaction-sui, "no transfer of coins or objects" does not hold (observed: Move call 0x2::pay::split_and_transfer)');
      const transfer = await sui((transaction) => {
        transaction.moveCall({ target: '0x2::transfer::public_transfer', typeArguments: ['0x2::coin::Coin<0x2::sui::SUI>'], arguments: [transaction.gas, transaction.pure.address(recipient)] });
      });
      expect(outcome(transfer)).toMatch(/^403 POLICY_DENIED: no rule accepted this; in rule apiKey-transaction-sui, "no transfer of coins or objects" does not hold \(observed: Move call 0x2::transfer::public_transfer\)$/);
      const clock = await sui((transaction) => void transaction.moveCall({ target: '0x2::clock::timestamp_ms', arguments: [transaction.object.clock()] }));
      expect(outcome(clock)).toBe('allowed');
    });

    it('refuses MergeCoins with transfers off (merging into a shared coin gives the value away)', async () => {
      const merge = await sui((transaction) => void transaction.mergeCoins(transaction.gas, [owned(transaction, '44')]));
      expect(outcome(merge)).toBe('403 POLICY_DENIED: no rule accepted this; in rule apiKey-transaction-sui, "no transfer of coins or objects" does not hold (observed: MergeCoins)');
    });

    it('refuses Publish and Upgrade whenever sui.packages is set', async () => {
      await setPolicy((policy) => ({ ...policy, sui: { ...policy.sui, packages: ['0x2'] } }));
      const publish = await sui((transaction) => {
        transaction.transferObjects([transaction.publish({ modules: [[161, 28, 235, 11]], dependencies: ['0x1', '0x2'] })], addresses.sui);
      });
      expect(outcome(publish)).toMatch(/^403 POLICY_DENIED: no rule accepted this; in rule apiKey-transaction-sui, "no Publish or Upgrade" does not hold \(observed: (Publish|Upgrade)\)$/);
      const upgrade = await sui((transaction) => {
        transaction.upgrade({ modules: [[161, 28, 235, 11]], dependencies: ['0x1', '0x2'], package: `0x${'66'.repeat(32)}`, ticket: owned(transaction, '77') });
      });
      expect(outcome(upgrade)).toMatch(/^403 POLICY_DENIED: no rule accepted this; in rule apiKey-transaction-sui, "no Publish or Upgrade" does not hold \(observed: (Publish|Upgrade)\)$/);
    });

    it('caps the gas budget (sui.maxGasBudget)', async () => {
      await setPolicy((policy) => ({ ...policy, sui: { ...policy.sui, maxGasBudget: '10000000' } }));
      const clock = (transaction: SuiTransaction) => void transaction.moveCall({ target: '0x2::clock::timestamp_ms', arguments: [transaction.object.clock()] });
      expect(outcome(await sui(clock, 10_000_000))).toBe('allowed');
      expect(outcome(await sui(clock, 10_000_001))).toBe('403 POLICY_DENIED: no rule accepted this; in rule apiKey-transaction-sui, "the gas budget is at most 10000000 MIST" does not hold (observed: gas budget 10000001 MIST)');
    });
  });

  describe('evm: fees and typed data', () => {
    it('caps the fees (evm.maxFeeWei): gasLimit × the highest fee per gas, legacy and EIP-1559', async () => {
      await setPolicy((policy) => ({ ...policy, evm: { ...policy.evm, maxFeeWei: '21000000' } }));
      expect(outcome(await evm({ maxFeePerGas: '1000' }))).toBe('allowed');
      expect(outcome(await evm({ maxFeePerGas: '1001' }))).toBe('403 POLICY_DENIED: no rule accepted this; in rule apiKey-transaction-evm, "the most the fees may reach is at most 21000000 wei" does not hold (observed: fee 21021000 wei)');
      expect(outcome(await evm({ gasLimit: '21000000', maxFeePerGas: '1' }))).toBe('allowed');
      expect(outcome(await evm({ gasLimit: '21000001', maxFeePerGas: '1' }))).toMatch(/\(observed: fee 21000001 wei\)$/);
      expect(outcome(await evm({ maxFeePerGas: undefined, maxPriorityFeePerGas: undefined, gasPrice: '1001' }))).toMatch(/\(observed: fee 21021000 wei\)$/);
    });

    const permit = (verifyingContract?: string) => ({
      domain: { name: 'Token', version: '1', chainId: 8453, ...(verifyingContract === undefined ? {} : { verifyingContract }) },
      types: {
        Permit: [
          { name: 'owner', type: 'address' },
          { name: 'spender', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'nonce', type: 'uint256' },
          { name: 'deadline', type: 'uint256' },
        ],
      },
      primaryType: 'Permit',
      message: { owner: addresses.evm, spender: '0x3333333333333333333333333333333333333333', value: (2n ** 256n - 1n).toString(), nonce: 0, deadline: 9_999_999_999 },
    });

    it('binds typed data to evm.contracts: a Permit for a token not listed is refused, as is one naming no verifying contract', async () => {
      await setPolicy((policy) => ({ ...policy, evm: { ...policy.evm, contracts: [shop] } }));
      expect(outcome(await post('sign-typed-data', permit(token)))).toMatch(new RegExp(`^403 POLICY_DENIED: no rule accepted this; in rule apiKey-typed-data, "the verifying contract is in \\[.*\\]" does not hold \\(observed: verifying contract ${token}\\)$`));
      expect(outcome(await post('sign-typed-data', permit()))).toMatch(/^403 POLICY_DENIED: no rule accepted this; in rule apiKey-typed-data, "the verifying contract is in \[.*\]" cannot be decided/);
      expect(outcome(await post('sign-typed-data', permit(shop)))).toBe('allowed');
    });

    it('limits the primary types typed data may have (evm.typedDataPrimaryTypes)', async () => {
      await setPolicy((policy) => ({ ...policy, evm: { ...policy.evm, typedDataPrimaryTypes: ['Order'] } }));
      expect(outcome(await post('sign-typed-data', permit(shop)))).toBe('403 POLICY_DENIED: no rule accepted this; in rule apiKey-typed-data, "the primary type is in [Order]" does not hold (observed: primary type Permit)');
      await setPolicy((policy) => ({ ...policy, evm: { ...policy.evm, typedDataPrimaryTypes: ['Order', 'Permit'] } }));
      expect(outcome(await post('sign-typed-data', permit(shop)))).toBe('allowed');
    });

    it('takes the first policy shape from the console API (deprecated), absent limits as none, and answers the rules it converts to', async () => {
      const url = `${platform.baseUrl}/v1/console/games/${game.gameId}/signing-policy`;
      const { maxFeeWei: _fee, typedDataPrimaryTypes: _types, ...evmBefore } = DEFAULT_SIGNING_POLICY.evm;
      const earlier = await http<SigningPolicyView>('PUT', url, { bearer: operator, body: { ...DEFAULT_SIGNING_POLICY, evm: evmBefore } });
      expect([earlier.status, earlier.body.rules]).toEqual([200, rulesOfPolicy(DEFAULT_SIGNING_POLICY).rules]);
      const set = { ...DEFAULT_SIGNING_POLICY, evm: { ...DEFAULT_SIGNING_POLICY.evm, maxFeeWei: '5' }, sol: { ...DEFAULT_SIGNING_POLICY.sol, maxPriorityMicroLamports: '6' }, sui: { ...DEFAULT_SIGNING_POLICY.sui, maxGasBudget: '7' } };
      expect((await http('PUT', url, { bearer: operator, body: set })).status).toBe(200);
      expect((await http<SigningPolicyView>('GET', url, { bearer: operator })).body.rules).toEqual(rulesOfPolicy(set).rules);
      const wrong = await http<{ code: string; message: string }>('PUT', url, { bearer: operator, body: { ...set, evm: { ...set.evm, typedDataPrimaryTypes: ['Order[]'] } } });
      expect([wrong.status, wrong.body.code]).toEqual([400, 'VALIDATION_FAILED']);
      expect(wrong.body.message).toContain('evm.typedDataPrimaryTypes.0');
    });
  });
});

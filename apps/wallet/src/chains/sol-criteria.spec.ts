import { Criterion, DEFAULT_SIGNING_POLICY, SigningPolicy, SolInstructionAllowance } from '@game-wallet/contracts';
import {
  AddressLookupTableAccount,
  ComputeBudgetProgram,
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import {
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  createAssociatedTokenAccountIdempotentInstruction,
  createAssociatedTokenAccountInstruction,
  createBurnInstruction,
  createTransferCheckedInstruction,
  createTransferInstruction,
} from '@solana/spl-token';
import { SigningFacts } from './chain-signer';
import { firstShapeDecision } from './first-shape.fixture';
import { SolanaTransactionFacts, sol } from './sol';
import { parseSolanaWireTransaction } from './sol-wire';

const key = (seed: number): PublicKey => Keypair.fromSeed(new Uint8Array(32).fill(seed)).publicKey;
const wallet = key(1);
const other = key(2);
const mint = key(3);
const mint2022 = key(4);
const account = key(5);
const unknownProgram = key(6);
const table = key(7);
const recentBlockhash = new PublicKey(new Uint8Array(32).fill(9)).toBase58();
const SYSTEM = SystemProgram.programId.toBase58();
const TOKEN = TOKEN_PROGRAM_ID.toBase58();
const TOKEN_2022 = TOKEN_2022_PROGRAM_ID.toBase58();
const COMPUTE_BUDGET = ComputeBudgetProgram.programId.toBase58();
const ASSOCIATED_TOKEN = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
const MEMO = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

const legacy = (...instructions: TransactionInstruction[]): string =>
  new Transaction({ feePayer: wallet, recentBlockhash }).add(...instructions).serialize({ requireAllSignatures: false }).toString('base64');
/** A v0 transaction whose table holds both mints: they are not among its static keys. */
const v0 = (...instructions: TransactionInstruction[]): string => {
  const lookups = new AddressLookupTableAccount({ key: table, state: { deactivationSlot: BigInt(2 ** 64) - 1n, lastExtendedSlot: 0, lastExtendedSlotStartIndex: 0, addresses: [mint, mint2022] } });
  const message = new TransactionMessage({ payerKey: wallet, recentBlockhash, instructions }).compileToV0Message([lookups]);
  return Buffer.from(new VersionedTransaction(message).serialize()).toString('base64');
};
const factsOf = async (transaction: string): Promise<SolanaTransactionFacts> => (await sol.transaction(transaction)).facts as SolanaTransactionFacts;

const transfer = (lamports: number) => SystemProgram.transfer({ fromPubkey: wallet, toPubkey: other, lamports });
const unitPrice = (microLamports: number) => ComputeBudgetProgram.setComputeUnitPrice({ microLamports });
const unitLimit = (units: number) => ComputeBudgetProgram.setComputeUnitLimit({ units });
const memo = (text: string | Buffer) => new TransactionInstruction({ programId: MEMO, keys: [], data: Buffer.from(text) });
const transferChecked = (amount: bigint, program = TOKEN_PROGRAM_ID, ofMint = program === TOKEN_PROGRAM_ID ? mint : mint2022) =>
  createTransferCheckedInstruction(account, ofMint, other, wallet, amount, 6, [], program);
const tokenTransfer = (amount: bigint, program = TOKEN_PROGRAM_ID) => createTransferInstruction(account, other, wallet, amount, [], program);
const createTokenAccount = (program = TOKEN_PROGRAM_ID) => createAssociatedTokenAccountIdempotentInstruction(wallet, account, wallet, program === TOKEN_PROGRAM_ID ? mint : mint2022, program);
const programCall = () => new TransactionInstruction({ programId: unknownProgram, keys: [{ pubkey: wallet, isSigner: true, isWritable: false }], data: Buffer.from([1, 2, 3]) });
const assign = () => SystemProgram.assign({ accountPubkey: wallet, programId: other });

/** A legacy transaction by hand: one instruction whose program index (3) is past its one account key. */
const outsideKeys = (): string => {
  const message = Buffer.concat([Buffer.from([1, 0, 0, 1]), wallet.toBuffer(), Buffer.alloc(32, 9), Buffer.from([1, 3, 0, 0])]);
  return Buffer.concat([Buffer.from([1]), Buffer.alloc(64), message]).toString('base64');
};

const outcome = async (criterion: Criterion, transaction: string) => sol.criterion(criterion, await factsOf(transaction));
const result = async (criterion: Criterion, transaction: string) => (await outcome(criterion, transaction)).result;

describe('Solana transaction facts', () => {
  it('reads every instruction with its program client: System, ComputeBudget, associated token, SPL Token, Token-2022 and Memo', async () => {
    const facts = await factsOf(
      legacy(unitLimit(300_000), unitPrice(5_000), transfer(1_000_000), createTokenAccount(), transferChecked(250n), tokenTransfer(7n), transferChecked(8n, TOKEN_2022_PROGRAM_ID), memo('order #42')),
    );
    expect(facts).toEqual({
      operation: 'transaction',
      chain: 'sol',
      // The associated token program pays the new account's rent from the wallet: a value limit cannot count that.
      nativeValue: null,
      version: 'legacy',
      programs: [COMPUTE_BUDGET, SYSTEM, ASSOCIATED_TOKEN, TOKEN, TOKEN_2022, MEMO.toBase58()],
      instructions: [
        { program: COMPUTE_BUDGET, programName: 'compute-budget', instruction: 'setComputeUnitLimit' },
        { program: COMPUTE_BUDGET, programName: 'compute-budget', instruction: 'setComputeUnitPrice' },
        { program: SYSTEM, programName: 'system', instruction: 'transferSol', lamports: '1000000' },
        { program: ASSOCIATED_TOKEN, programName: 'associated-token', instruction: 'createAssociatedTokenIdempotent', mint: mint.toBase58() },
        { program: TOKEN, programName: 'spl-token', instruction: 'transferChecked', mint: mint.toBase58(), amount: '250' },
        { program: TOKEN, programName: 'spl-token', instruction: 'transfer', amount: '7' },
        { program: TOKEN_2022, programName: 'token-2022', instruction: 'transferChecked', mint: mint2022.toBase58(), amount: '8' },
        { program: MEMO.toBase58(), programName: 'memo', instruction: 'addMemo' },
      ],
      lamports: '1000000',
      computeUnitPrice: '5000',
      computeUnitLimit: '300000',
      priorityFee: '1500000000',
    });
    expect(JSON.parse(JSON.stringify(facts))).toEqual(facts);
  });

  it('reads a v0 transaction offline: a mint from an address lookup table is null, amounts and programs are read', async () => {
    const facts = await factsOf(v0(createTokenAccount(TOKEN_2022_PROGRAM_ID), transferChecked(250n), transferChecked(9n, TOKEN_2022_PROGRAM_ID), transfer(5)));
    expect(facts).toMatchObject({ version: 0, lamports: '5', programs: [ASSOCIATED_TOKEN, TOKEN, TOKEN_2022, SYSTEM] });
    expect(facts.instructions).toEqual([
      { program: ASSOCIATED_TOKEN, programName: 'associated-token', instruction: 'createAssociatedTokenIdempotent', mint: null },
      { program: TOKEN, programName: 'spl-token', instruction: 'transferChecked', mint: null, amount: '250' },
      { program: TOKEN_2022, programName: 'token-2022', instruction: 'transferChecked', mint: null, amount: '9' },
      { program: SYSTEM, programName: 'system', instruction: 'transferSol', lamports: '5' },
    ]);
  });

  it('prices the priority fee at 200,000 units per other instruction without a unit limit, and none without a unit price', async () => {
    expect(await factsOf(legacy(unitPrice(10), transfer(1), memo('x')))).toMatchObject({ computeUnitPrice: '10', computeUnitLimit: null, priorityFee: '4000000' });
    expect(await factsOf(legacy(unitLimit(2_000_000), unitPrice(1), transfer(1)))).toMatchObject({ computeUnitLimit: '2000000', priorityFee: '1400000' });
    expect(await factsOf(legacy(transfer(1)))).toMatchObject({ computeUnitPrice: '0', computeUnitLimit: null, priorityFee: '0' });
  });

  it('reads a Create with empty data as the associated token program does, with its mint', async () => {
    const create = createAssociatedTokenAccountInstruction(wallet, account, wallet, mint);
    expect((await factsOf(legacy(create))).instructions).toEqual([{ program: ASSOCIATED_TOKEN, programName: 'associated-token', instruction: 'createAssociatedToken', mint: mint.toBase58() }]);
  });

  it('names no instruction for an unknown program, a Token-2022 instruction other than a transfer, a memo that is not UTF-8 or data cut short', async () => {
    const cut = new TransactionInstruction({ programId: TOKEN_PROGRAM_ID, keys: [{ pubkey: wallet, isSigner: true, isWritable: true }], data: Buffer.from([12, 1]) });
    const facts = await factsOf(legacy(programCall(), createBurnInstruction(account, mint2022, wallet, 1n, [], TOKEN_2022_PROGRAM_ID), memo(Buffer.from([0xff, 0xfe])), cut));
    expect(facts.instructions).toEqual([
      { program: unknownProgram.toBase58(), programName: null, instruction: null },
      { program: TOKEN_2022, programName: 'token-2022', instruction: null },
      { program: MEMO.toBase58(), programName: 'memo', instruction: null },
      { program: TOKEN, programName: 'spl-token', instruction: null },
    ]);
  });

  it('does not count lamports beside a System instruction that moves no counted amount (Assign, a nonce Withdraw), nor a fee beside a repeated ComputeBudget instruction', async () => {
    const withdraw = SystemProgram.nonceWithdraw({ noncePubkey: other, authorizedPubkey: wallet, toPubkey: other, lamports: 77 });
    const facts = await factsOf(legacy(transfer(5), assign(), withdraw));
    expect(facts).toMatchObject({ lamports: null, nativeValue: null, priorityFee: '0' });
    expect(facts.instructions.slice(1)).toEqual([
      { program: SYSTEM, programName: 'system', instruction: 'assign' },
      { program: SYSTEM, programName: 'system', instruction: 'withdrawNonceAccount', lamports: '77' },
    ]);
    expect(await factsOf(legacy(unitPrice(1), unitPrice(2), transfer(5)))).toMatchObject({ lamports: '5', computeUnitPrice: null, computeUnitLimit: null, priorityFee: null });
  });

  it('gives an instruction whose program is outside the account keys no program, and leaves the lamports uncounted', async () => {
    const facts = await factsOf(outsideKeys());
    expect(facts).toMatchObject({ programs: [], instructions: [{ program: null, programName: null, instruction: null }], lamports: null, priorityFee: '0' });
  });

  it('refuses a versioned transaction other than v0 (400): it is not read', async () => {
    const bytes = Buffer.from(v0(transfer(1)), 'base64');
    bytes[65] = 0x81;
    expect(parseSolanaWireTransaction(bytes)).not.toBeNull();
    await expect(sol.transaction(bytes.toString('base64'))).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringMatching(/^transaction: /) });
  });
});

describe(`${sol.chain} criteria`, () => {
  const everything = legacy(unitPrice(5_000), transfer(1_000), createTokenAccount(), transferChecked(5_000_000n), memo('order #42'));

  it('solProgram in: every instruction is a listed program; not in: none is; unknown for a program outside the account keys', async () => {
    const listed = [COMPUTE_BUDGET, SYSTEM, ASSOCIATED_TOKEN, TOKEN, MEMO.toBase58()];
    expect(await outcome({ type: 'solProgram', operator: 'in', values: listed }, everything)).toEqual({ result: 'holds', observed: '5 programs, each listed' });
    expect(await outcome({ type: 'solProgram', operator: 'in', values: listed.slice(0, 4) }, everything)).toEqual({ result: 'fails', observed: `program ${MEMO.toBase58()} is not listed` });
    expect(await outcome({ type: 'solProgram', operator: 'not in', values: [unknownProgram.toBase58()] }, everything)).toEqual({ result: 'holds', observed: '5 programs, none listed' });
    expect(await outcome({ type: 'solProgram', operator: 'not in', values: [SYSTEM] }, everything)).toEqual({ result: 'fails', observed: `program ${SYSTEM} is listed` });
    expect(await outcome({ type: 'solProgram', operator: 'in', values: [SYSTEM] }, outsideKeys())).toEqual({ result: 'unknown', observed: "an instruction's program is outside the account keys" });
  });

  describe('solInstruction: every instruction matches an allowance', () => {
    const allowed = (...allowances: SolInstructionAllowance[]): Criterion => ({ type: 'solInstruction', allowed: allowances });
    const basics: SolInstructionAllowance[] = [{ program: 'compute-budget' }, { program: 'system', instruction: 'transferSol' }, { program: 'memo', instruction: 'addMemo' }];

    it('holds when each instruction is allowed by program name, by program id, with its mint listed and its amount within bounds', async () => {
      const criterion = allowed(
        ...basics,
        { program: ASSOCIATED_TOKEN, instruction: 'createAssociatedTokenIdempotent', mints: [mint.toBase58()] },
        { program: 'spl-token', instruction: 'transferChecked', mints: [mint.toBase58()], maxAmount: '5000000' },
      );
      expect(await outcome(criterion, everything)).toEqual({ result: 'holds', observed: '5 instructions, each allowed' });
      expect(await result(allowed({ program: unknownProgram.toBase58() }), legacy(programCall()))).toBe('holds');
      expect(await result(allowed({ program: 'token-2022', instruction: 'transferChecked', mints: [mint2022.toBase58()], maxAmount: '8' }), legacy(transferChecked(8n, TOKEN_2022_PROGRAM_ID)))).toBe('holds');
    });

    it('fails naming the instruction over maxAmount, of a mint not listed, or allowed by no allowance', async () => {
      const transfers = (maxAmount: string, mints = [mint.toBase58()]) => allowed(...basics, { program: 'associated-token' }, { program: 'spl-token', instruction: 'transferChecked', mints, maxAmount });
      expect(await outcome(transfers('4999999'), everything)).toEqual({ result: 'fails', observed: `instruction spl-token transferChecked of mint ${mint.toBase58()}, 5000000 units is not allowed` });
      expect(await result(transfers('5000000', [mint2022.toBase58()]), everything)).toBe('fails');
      expect(await outcome(allowed(...basics), legacy(transfer(1), assign()))).toEqual({ result: 'fails', observed: 'instruction system assign is not allowed' });
      expect(await outcome(allowed({ program: 'spl-token', instruction: 'transfer' }), legacy(transferChecked(1n, TOKEN_2022_PROGRAM_ID)))).toMatchObject({ result: 'fails' });
    });

    it('is unknown for a mint it cannot see (a plain transfer has none; a lookup table holds it) or an instruction it cannot read', async () => {
      const ofMint = allowed({ program: 'spl-token', instruction: 'transfer', mints: [mint.toBase58()] }, { program: 'spl-token', instruction: 'transferChecked', mints: [mint.toBase58()] });
      expect(await outcome(ofMint, legacy(tokenTransfer(3n)))).toEqual({ result: 'unknown', observed: 'instruction spl-token transfer, 3 units: it names no mint' });
      expect(await outcome(ofMint, v0(transferChecked(3n)))).toEqual({
        result: 'unknown',
        observed: 'instruction spl-token transferChecked of mint (from an address lookup table), 3 units: its mint is in an address lookup table',
      });
      expect(await result(allowed({ program: 'token-2022', instruction: 'transfer' }), legacy(createBurnInstruction(account, mint2022, wallet, 1n, [], TOKEN_2022_PROGRAM_ID)))).toBe('unknown');
      expect(await result(allowed({ program: 'token-2022' }), legacy(createBurnInstruction(account, mint2022, wallet, 1n, [], TOKEN_2022_PROGRAM_ID)))).toBe('holds');
      expect(await result(allowed({ program: SYSTEM }), outsideKeys())).toBe('unknown');
    });

    it('fails when one instruction fails though another is unknown', async () => {
      const ofMint = allowed({ program: 'spl-token', instruction: 'transfer', mints: [mint.toBase58()] });
      expect(await result(ofMint, legacy(tokenTransfer(3n)))).toBe('unknown');
      expect(await outcome(ofMint, legacy(tokenTransfer(3n), transfer(1)))).toEqual({ result: 'fails', observed: 'instruction system transferSol, 1 lamports is not allowed' });
    });
  });

  it.each([
    ['<=', '1000', 'holds'],
    ['<=', '999', 'fails'],
    ['<', '1001', 'holds'],
    ['<', '1000', 'fails'],
    ['>=', '1000', 'holds'],
    ['>', '1000', 'fails'],
    ['==', '1000', 'holds'],
    ['==', '18446744073709551616', 'fails'],
  ] as const)('solLamports %s %s %s on 1000 lamports moved', async (operator, value, expected) => {
    expect(await outcome({ type: 'solLamports', operator, value }, everything)).toEqual({ result: expected, observed: '1000 lamports moved' });
  });

  it('solLamports is unknown beside a System instruction it does not count', async () => {
    expect(await outcome({ type: 'solLamports', operator: '<=', value: '18446744073709551615' }, legacy(transfer(1), assign()))).toMatchObject({ result: 'unknown', observed: expect.stringMatching(/^lamports not counted/) });
  });

  it('solComputeUnitPrice and solPriorityFee hold or fail on the unit price and the fee it may reach; unknown for a repeated ComputeBudget instruction', async () => {
    const priced = legacy(unitLimit(100_000), unitPrice(10), transfer(1));
    expect(await outcome({ type: 'solComputeUnitPrice', operator: '<=', value: '10' }, priced)).toEqual({ result: 'holds', observed: '10 micro-lamports per compute unit' });
    expect(await result({ type: 'solComputeUnitPrice', operator: '<', value: '10' }, priced)).toBe('fails');
    expect(await outcome({ type: 'solPriorityFee', operator: '<=', value: '1000000' }, priced)).toEqual({ result: 'holds', observed: '1000000 micro-lamports of priority fee at most' });
    expect(await result({ type: 'solPriorityFee', operator: '<=', value: '999999' }, priced)).toBe('fails');
    const repeated = legacy(unitPrice(1), unitPrice(1), transfer(1));
    expect(await result({ type: 'solComputeUnitPrice', operator: '>=', value: '0' }, repeated)).toBe('unknown');
    expect(await outcome({ type: 'solPriorityFee', operator: '>=', value: '0' }, repeated)).toMatchObject({ result: 'unknown', observed: expect.stringMatching(/^priority fee unknown/) });
  });

  it('is unknown, in 200 characters at most, on a value that is not a decimal, and on facts that are not a Solana transaction', async () => {
    const unsaved = await outcome({ type: 'solLamports', operator: '<=', value: '1'.repeat(300) }, everything);
    expect(unsaved).toEqual({ result: 'unknown', observed: expect.stringMatching(/^value 1+…$/) });
    expect(unsaved.observed).toHaveLength(200);
    const message: SigningFacts = { operation: 'message', chain: 'sol', nativeValue: '0', length: 3 };
    expect(sol.criterion({ type: 'solLamports', operator: '<=', value: '1' }, message)).toEqual({ result: 'unknown', observed: 'not a Solana transaction' });
  });
});

describe(`${sol.chain} criterionProblem`, () => {
  const instruction = (...allowed: SolInstructionAllowance[]) => sol.criterionProblem({ type: 'solInstruction', allowed });

  it('accepts program ids, known programs and their instruction names, mints on token transfers and associated token accounts, amounts on transfers', () => {
    expect(sol.criterionProblem({ type: 'solProgram', operator: 'in', values: [SYSTEM, TOKEN, MEMO.toBase58()] })).toBeUndefined();
    expect(
      instruction(
        { program: 'system', instruction: 'transferSol' },
        { program: TOKEN, instruction: 'transferChecked', mints: [mint.toBase58()], maxAmount: '18446744073709551615' },
        { program: 'token-2022', instruction: 'transfer', maxAmount: '1' },
        { program: 'associated-token', instruction: 'createAssociatedToken', mints: [mint.toBase58()] },
        { program: 'compute-budget', instruction: 'setComputeUnitPrice' },
        { program: 'memo' },
        { program: unknownProgram.toBase58() },
      ),
    ).toBeUndefined();
    expect(sol.criterionProblem({ type: 'solPriorityFee', operator: '<=', value: '25825441703193266093' })).toBeUndefined();
  });

  it.each<[string, Criterion, string]>([
    ['a program id that is not base58', { type: 'solProgram', operator: 'in', values: [SYSTEM, 'not-an-address'] }, 'values[1]: not a base58 address'],
    ['an unknown program name', { type: 'solInstruction', allowed: [{ program: 'token' }] }, 'allowed[0].program: neither a known program'],
    ['an instruction its program does not have', { type: 'solInstruction', allowed: [{ program: 'system', instruction: 'transfer' }] }, 'allowed[0].instruction: system has no instruction transfer'],
    ['a Token-2022 instruction that is not a transfer', { type: 'solInstruction', allowed: [{ program: TOKEN_2022, instruction: 'burn' }] }, 'allowed[0].instruction: token-2022 has no instruction burn'],
    ['an instruction of a program given by an unknown id', { type: 'solInstruction', allowed: [{ program: unknownProgram.toBase58(), instruction: 'swap' }] }, "allowed[0].instruction: only a known program's"],
    ['mints on an instruction that has no mint', { type: 'solInstruction', allowed: [{ program: 'system', instruction: 'transferSol', mints: [mint.toBase58()] }] }, 'allowed[0].mints: only for'],
    ['mints without an instruction', { type: 'solInstruction', allowed: [{ program: 'spl-token', mints: [mint.toBase58()] }] }, 'allowed[0].mints: only for'],
    ['a mint that is not base58', { type: 'solInstruction', allowed: [{ program: 'spl-token', instruction: 'transfer' }, { program: 'spl-token', instruction: 'transferChecked', mints: ['0x12'] }] }, 'allowed[1].mints[0]: not a base58 address'],
    ['maxAmount on an account creation', { type: 'solInstruction', allowed: [{ program: 'associated-token', instruction: 'createAssociatedToken', maxAmount: '1' }] }, 'allowed[0].maxAmount: only for a token transfer'],
    ['maxAmount that is not a decimal', { type: 'solInstruction', allowed: [{ program: 'spl-token', instruction: 'transfer', maxAmount: '1e9' }] }, 'allowed[0].maxAmount: a decimal number'],
    ['a number that is not a decimal', { type: 'solLamports', operator: '<=', value: '-1' }, 'value: a decimal number'],
  ])('names the field of %s', (_, criterion, problem) => {
    expect(sol.criterionProblem(criterion)).toMatch(new RegExp(`^${problem.replace(/[.[\]()]/g, '\\$&')}`));
  });
});

/**
 * The first policy shape as rules (`rulesOfPolicy`) decides as the shape's own check did: the cases of its tests and of
 * the signing-rules end-to-end suite, each with the decision that check made.
 */
describe('rules converted from the first policy shape decide as the first shape did', () => {
  const limits = (sol: Partial<SigningPolicy['sol']>): SigningPolicy => ({ ...structuredClone(DEFAULT_SIGNING_POLICY), sol: { ...DEFAULT_SIGNING_POLICY.sol, ...sol } });
  const systemOnly = limits({ programs: [SYSTEM], maxLamports: '1000' });
  const priority = (most: string) => limits({ maxPriorityMicroLamports: most });
  const system = (data: Buffer) => new TransactionInstruction({ programId: SystemProgram.programId, keys: [{ pubkey: wallet, isSigner: true, isWritable: true }], data });
  const withIndex = (length: number, index: number, seedLength?: bigint) => {
    const data = Buffer.alloc(length);
    data.writeUInt32LE(index, 0);
    if (seedLength !== undefined) {
      data.writeBigUInt64LE(seedLength, 36);
    }
    return system(data);
  };
  const create = (lamports: number, programId = SystemProgram.programId) => SystemProgram.createAccount({ fromPubkey: wallet, newAccountPubkey: other, lamports, space: 0, programId });
  const createWithSeed = (lamports: number, seed = 'game') =>
    SystemProgram.createAccountWithSeed({ fromPubkey: wallet, newAccountPubkey: other, basePubkey: wallet, seed, lamports, space: 0, programId: SystemProgram.programId });
  const transferWithSeed = (lamports: number) => SystemProgram.transfer({ fromPubkey: other, basePubkey: wallet, toPubkey: other, lamports, seed: 'game', programId: SystemProgram.programId });
  const uncounted: [string, TransactionInstruction][] = [
    ['Assign', assign()],
    ['AssignWithSeed', SystemProgram.assign({ accountPubkey: other, basePubkey: wallet, seed: 's', programId: other })],
    ['Allocate', SystemProgram.allocate({ accountPubkey: wallet, space: 100 })],
    ['a nonce Withdraw', SystemProgram.nonceWithdraw({ noncePubkey: other, authorizedPubkey: wallet, toPubkey: other, lamports: 1 })],
    ['a nonce Authorize', SystemProgram.nonceAuthorize({ noncePubkey: other, authorizedPubkey: wallet, newAuthorizedPubkey: other })],
    ['a nonce Advance', SystemProgram.nonceAdvance({ noncePubkey: other, authorizedPubkey: wallet })],
  ];

  const cases: [string, SigningPolicy, string, 'allowed' | 'refused'][] = [
    ['counted lamports within the limit', systemOnly, legacy(transfer(400), transferWithSeed(300), create(200), createWithSeed(100)), 'allowed'],
    ['counted lamports over the limit', systemOnly, legacy(transfer(400), transferWithSeed(300), create(200), createWithSeed(100), transfer(1)), 'refused'],
    ['CreateAccount over the limit', systemOnly, legacy(create(10_000_000, other)), 'refused'],
    ['CreateAccountWithSeed over the limit, with a 32-byte seed', systemOnly, legacy(createWithSeed(1001, 'x'.repeat(32))), 'refused'],
    ['TransferWithSeed over the limit', systemOnly, legacy(transferWithSeed(1001)), 'refused'],
    ['CreateAccount far over the limit', systemOnly, legacy(create(1_000_000_000)), 'refused'],
    ...uncounted.flatMap(([name, instruction]): [string, SigningPolicy, string, 'allowed' | 'refused'][] => [
      [`${name} under programs and maxLamports`, systemOnly, legacy(instruction), 'refused'],
      [`${name} under a priority limit alone`, priority('1'), legacy(instruction), 'refused'],
      [`${name} without limits`, DEFAULT_SIGNING_POLICY, legacy(instruction), 'allowed'],
    ]),
    ['Transfer data cut short', systemOnly, legacy(withIndex(8, 2)), 'refused'],
    ['System data of 2 bytes', systemOnly, legacy(system(Buffer.alloc(2))), 'refused'],
    ['Transfer data of 5 bytes', systemOnly, legacy(system(Buffer.from([2, 0, 0, 0, 1]))), 'refused'],
    ['a seed longer than 32 bytes', systemOnly, legacy(withIndex(4 + 32 + 8 + 40 + 8 + 8 + 32, 3, 40n)), 'refused'],
    ['a unit limit and price within the fee', priority('1000000'), legacy(unitLimit(100_000), unitPrice(10), transfer(1)), 'allowed'],
    ['a unit limit and price over the fee', priority('1000000'), legacy(unitLimit(100_001), unitPrice(10), transfer(1)), 'refused'],
    ['a price at 200,000 units an instruction, within', priority('1000000'), legacy(unitPrice(5), transfer(1)), 'allowed'],
    ['a price at 200,000 units an instruction, over', priority('1000000'), legacy(unitPrice(6), transfer(1)), 'refused'],
    ['the most units at a price of 1', priority('1000000'), legacy(unitLimit(1_400_000), unitPrice(1), transfer(1)), 'refused'],
    ['a repeated unit price', priority('1000000'), legacy(unitPrice(1), unitPrice(1), transfer(1)), 'refused'],
    ['any fee without limits', DEFAULT_SIGNING_POLICY, legacy(unitLimit(1_400_000), unitPrice(1_000_000_000), transfer(1)), 'allowed'],
    ['a fee within 5000000', priority('5000000'), legacy(unitLimit(50_000), unitPrice(100), transfer(1)), 'allowed'],
    ['a fee over 5000000', priority('5000000'), legacy(unitLimit(1_400_000), unitPrice(1_000_000_000), transfer(1)), 'refused'],
    ['a program not listed', systemOnly, legacy(programCall()), 'refused'],
    ['a listed program', limits({ programs: [unknownProgram.toBase58()] }), legacy(programCall()), 'allowed'],
    ['a program outside the account keys', limits({ maxLamports: '1' }), outsideKeys(), 'refused'],
    ['a program outside the account keys without limits', DEFAULT_SIGNING_POLICY, outsideKeys(), 'allowed'],
  ];

  it.each(cases)('%s: decided as the first shape did', async (_, policy, transaction, expected) => {
    const decision = await firstShapeDecision(policy, { sol: transaction });
    expect(decision === 'allowed' ? decision : decision.code).toBe(expected === 'allowed' ? 'allowed' : 'POLICY_DENIED');
  });

  it('refuses a v0 message whose program is outside its keys, as the direct check of it did', async () => {
    // One signer, no lookup table, one instruction of 12 bytes whose program index (3) is past its one account key.
    const message = Buffer.concat([Buffer.from([0x80, 1, 0, 0, 1]), wallet.toBuffer(), Buffer.alloc(32, 9), Buffer.from([1, 3, 0, 12]), Buffer.alloc(12), Buffer.from([0])]);
    expect(await firstShapeDecision(limits({ maxLamports: '1' }), { sol: Buffer.concat([Buffer.from([1]), Buffer.alloc(64), message]) })).toMatchObject({
      code: 'POLICY_DENIED',
      reason: 'no rule accepted this; in rule apiKey-transaction-sol, "the amount of lamports moved is at most 1 lamports" cannot be decided',
    });
  });
});

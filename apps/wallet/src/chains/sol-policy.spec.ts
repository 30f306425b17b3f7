import { DEFAULT_SIGNING_POLICY, SigningPolicy } from '@game-wallet/contracts';
import { ComputeBudgetProgram, Keypair, PublicKey, SystemProgram, Transaction, TransactionInstruction } from '@solana/web3.js';
import { parseSolanaWireTransaction } from './sol-wire';
import { checkSolanaTransaction } from './sol';

/** The System and ComputeBudget rules, over transactions built by @solana/web3.js and read by the wallet's parser. */
describe(checkSolanaTransaction.name, () => {
  const wallet = Keypair.generate().publicKey;
  const other = Keypair.generate().publicKey;
  const blockhash = new PublicKey(new Uint8Array(32).fill(7)).toBase58();
  const withLimits = (sol: Partial<SigningPolicy['sol']>): SigningPolicy => ({ ...structuredClone(DEFAULT_SIGNING_POLICY), sol: { ...DEFAULT_SIGNING_POLICY.sol, ...sol } });
  const system = withLimits({ programs: [SystemProgram.programId.toBase58()], maxLamports: '1000' });
  const outcome = (policy: SigningPolicy, ...instructions: TransactionInstruction[]): string => {
    const bytes = new Transaction({ feePayer: wallet, recentBlockhash: blockhash }).add(...instructions).serialize({ requireAllSignatures: false });
    const parsed = parseSolanaWireTransaction(bytes);
    if (parsed === null) {
      throw new Error('the wallet could not read the transaction');
    }
    try {
      checkSolanaTransaction(policy, parsed.message);
      return 'allowed';
    } catch (error) {
      return (error as { message: string }).message.replace("The game's signing policy refuses this: ", '');
    }
  };

  it('sums the lamports of Transfer, TransferWithSeed, CreateAccount and CreateAccountWithSeed', () => {
    const transfer = SystemProgram.transfer({ fromPubkey: wallet, toPubkey: other, lamports: 400 });
    const withSeed = SystemProgram.transfer({ fromPubkey: other, basePubkey: wallet, toPubkey: other, lamports: 300, seed: 'seed', programId: SystemProgram.programId });
    const create = SystemProgram.createAccount({ fromPubkey: wallet, newAccountPubkey: other, lamports: 200, space: 0, programId: SystemProgram.programId });
    const createWithSeed = SystemProgram.createAccountWithSeed({ fromPubkey: wallet, newAccountPubkey: other, basePubkey: wallet, seed: 'a-seed', lamports: 100, space: 0, programId: SystemProgram.programId });
    expect(outcome(system, transfer, withSeed, create, createWithSeed)).toBe('allowed');
    expect(outcome(system, transfer, withSeed, create, createWithSeed, SystemProgram.transfer({ fromPubkey: wallet, toPubkey: other, lamports: 1 }))).toBe(
      'the System instructions move 1001 lamports, over the limit of 1000 (sol.maxLamports)',
    );
    expect(outcome(system, SystemProgram.createAccount({ fromPubkey: wallet, newAccountPubkey: other, lamports: 10_000_000, space: 0, programId: other }))).toMatch(/move 10000000 lamports/);
    expect(outcome(system, SystemProgram.createAccountWithSeed({ fromPubkey: wallet, newAccountPubkey: other, basePubkey: wallet, seed: 'x'.repeat(32), lamports: 1001, space: 0, programId: other }))).toMatch(
      /move 1001 lamports/,
    );
  });

  it.each([
    ['Assign', () => SystemProgram.assign({ accountPubkey: wallet, programId: other }), /System instruction 1 \(Assign\) is not allowed/],
    ['AssignWithSeed', () => SystemProgram.assign({ accountPubkey: other, basePubkey: wallet, seed: 's', programId: other }), /System instruction 10 \(AssignWithSeed\)/],
    ['Allocate', () => SystemProgram.allocate({ accountPubkey: wallet, space: 100 }), /System instruction 8 \(Allocate\)/],
    ['the nonce account Withdraw', () => SystemProgram.nonceWithdraw({ noncePubkey: other, authorizedPubkey: wallet, toPubkey: other, lamports: 1 }), /System instruction 5 \(WithdrawNonceAccount\)/],
    ['the nonce account Authorize', () => SystemProgram.nonceAuthorize({ noncePubkey: other, authorizedPubkey: wallet, newAuthorizedPubkey: other }), /System instruction 7 \(AuthorizeNonceAccount\)/],
    ['AdvanceNonceAccount', () => SystemProgram.nonceAdvance({ noncePubkey: other, authorizedPubkey: wallet }), /System instruction 4 \(AdvanceNonceAccount\)/],
  ])('refuses %s when a sol limit is set, and signs it when none is', (_, instruction, message) => {
    expect(outcome(system, instruction())).toMatch(message);
    expect(outcome(withLimits({ maxPriorityMicroLamports: '1' }), instruction())).toMatch(message);
    expect(outcome(DEFAULT_SIGNING_POLICY, instruction())).toBe('allowed');
  });

  it('refuses System instruction data it cannot read (fail closed): cut short, or a seed longer than 32 bytes', () => {
    const systemCall = (data: Buffer) => new TransactionInstruction({ programId: SystemProgram.programId, keys: [{ pubkey: wallet, isSigner: true, isWritable: true }], data });
    const cut = Buffer.alloc(8);
    cut.writeUInt32LE(2, 0);
    expect(outcome(system, systemCall(cut))).toBe('a System instruction whose data cannot be read is not allowed when a sol limit is set');
    expect(outcome(system, systemCall(Buffer.alloc(2)))).toBe('a System instruction whose data cannot be read is not allowed when a sol limit is set');
    const longSeed = Buffer.alloc(4 + 32 + 8 + 40 + 8 + 8 + 32);
    longSeed.writeUInt32LE(3, 0);
    longSeed.writeBigUInt64LE(40n, 36);
    expect(outcome(system, systemCall(longSeed))).toBe('a System instruction whose data cannot be read is not allowed when a sol limit is set');
  });

  it('caps the priority fee: ComputeBudget unit price × unit limit, or 200,000 units per other instruction', () => {
    const rules = withLimits({ maxPriorityMicroLamports: '1000000' });
    const transfer = SystemProgram.transfer({ fromPubkey: wallet, toPubkey: other, lamports: 1 });
    const price = (microLamports: number) => ComputeBudgetProgram.setComputeUnitPrice({ microLamports });
    const limit = (units: number) => ComputeBudgetProgram.setComputeUnitLimit({ units });
    expect(outcome(rules, limit(100_000), price(10), transfer)).toBe('allowed');
    expect(outcome(rules, limit(100_001), price(10), transfer)).toBe('the priority fee may reach 1000010 micro-lamports (unit price × unit limit), over the limit of 1000000 (sol.maxPriorityMicroLamports)');
    expect(outcome(rules, price(5), transfer)).toBe('allowed');
    expect(outcome(rules, price(6), transfer)).toMatch(/may reach 1200000 micro-lamports/);
    expect(outcome(rules, limit(1_400_000), price(1), transfer)).toMatch(/may reach 1400000 micro-lamports/);
    expect(outcome(rules, price(1), price(1), transfer)).toBe('a ComputeBudget instruction that cannot be read, or given twice, is not allowed when a sol limit is set');
    expect(outcome(DEFAULT_SIGNING_POLICY, limit(1_400_000), price(1_000_000_000), transfer)).toBe('allowed');
  });

  it('refuses an instruction of a program not listed, and one whose program is not among the account keys', () => {
    const call = new TransactionInstruction({ programId: other, keys: [{ pubkey: wallet, isSigner: true, isWritable: false }], data: Buffer.from('x') });
    expect(outcome(system, call)).toBe(`program ${other.toBase58()} is not among the allowed programs (sol.programs)`);
    expect(outcome(withLimits({ programs: [other.toBase58()] }), call)).toBe('allowed');
    const message = { versioned: true, requiredSignatures: 1, accountKeys: [wallet.toBytes()], instructions: [{ programIdIndex: 3, data: new Uint8Array(12) }] };
    expect(() => checkSolanaTransaction(withLimits({ maxLamports: '1' }), message)).toThrow("The game's signing policy refuses this: an instruction names a program outside the transaction's account keys");
  });
});

import { DEFAULT_SIGNING_POLICY, SigningPolicy } from '@game-wallet/contracts';
import { ComputeBudgetProgram, Keypair, PublicKey, SystemProgram, Transaction, TransactionInstruction } from '@solana/web3.js';
import { firstShapeDecision } from './first-shape.fixture';

/** The first policy shape's System and ComputeBudget limits, as the rules it converts to decide them, over transactions built by @solana/web3.js. */
describe('signing policy of the first shape: sol', () => {
  const wallet = Keypair.generate().publicKey;
  const other = Keypair.generate().publicKey;
  const blockhash = new PublicKey(new Uint8Array(32).fill(7)).toBase58();
  const withLimits = (sol: Partial<SigningPolicy['sol']>): SigningPolicy => ({ ...structuredClone(DEFAULT_SIGNING_POLICY), sol: { ...DEFAULT_SIGNING_POLICY.sol, ...sol } });
  const system = withLimits({ programs: [SystemProgram.programId.toBase58()], maxLamports: '1000' });
  const outcome = (policy: SigningPolicy, ...instructions: TransactionInstruction[]) =>
    firstShapeDecision(policy, { sol: new Transaction({ feePayer: wallet, recentBlockhash: blockhash }).add(...instructions).serialize({ requireAllSignatures: false }) });
  /** The refusal when the rule's criterion `needs` does not hold (or `cannot be decided`) for what was `observed`. */
  const refusal = (needs: string, observed: string, why = 'does not hold') => ({ code: 'POLICY_DENIED', reason: `no rule accepted this; in rule apiKey-transaction-sol, "${needs}" ${why}`, observed });
  const overLamports = (moved: string) => refusal('the amount of lamports moved is at most 1000 lamports', `${moved} lamports moved`);
  const uncounted = (limit: string) => refusal(`the amount of lamports moved is at most ${limit} lamports`, 'lamports not counted: a System instruction that is not a transfer or account creation, or one that cannot be read', 'cannot be decided');
  /** The bound of a converted policy without sol.maxLamports: above any sum of u64 amounts, so the lamports must only be countable. */
  const countable = '1208925819614629174640640';

  it('sums the lamports of Transfer, TransferWithSeed, CreateAccount and CreateAccountWithSeed', async () => {
    const transfer = SystemProgram.transfer({ fromPubkey: wallet, toPubkey: other, lamports: 400 });
    const withSeed = SystemProgram.transfer({ fromPubkey: other, basePubkey: wallet, toPubkey: other, lamports: 300, seed: 'seed', programId: SystemProgram.programId });
    const create = SystemProgram.createAccount({ fromPubkey: wallet, newAccountPubkey: other, lamports: 200, space: 0, programId: SystemProgram.programId });
    const createWithSeed = SystemProgram.createAccountWithSeed({ fromPubkey: wallet, newAccountPubkey: other, basePubkey: wallet, seed: 'a-seed', lamports: 100, space: 0, programId: SystemProgram.programId });
    expect(await outcome(system, transfer, withSeed, create, createWithSeed)).toBe('allowed');
    expect(await outcome(system, transfer, withSeed, create, createWithSeed, SystemProgram.transfer({ fromPubkey: wallet, toPubkey: other, lamports: 1 }))).toEqual(overLamports('1001'));
    expect(await outcome(system, SystemProgram.createAccount({ fromPubkey: wallet, newAccountPubkey: other, lamports: 10_000_000, space: 0, programId: other }))).toEqual(overLamports('10000000'));
    expect(await outcome(system, SystemProgram.createAccountWithSeed({ fromPubkey: wallet, newAccountPubkey: other, basePubkey: wallet, seed: 'x'.repeat(32), lamports: 1001, space: 0, programId: other }))).toEqual(
      overLamports('1001'),
    );
  });

  it.each([
    ['Assign', () => SystemProgram.assign({ accountPubkey: wallet, programId: other })],
    ['AssignWithSeed', () => SystemProgram.assign({ accountPubkey: other, basePubkey: wallet, seed: 's', programId: other })],
    ['Allocate', () => SystemProgram.allocate({ accountPubkey: wallet, space: 100 })],
    ['the nonce account Withdraw', () => SystemProgram.nonceWithdraw({ noncePubkey: other, authorizedPubkey: wallet, toPubkey: other, lamports: 1 })],
    ['the nonce account Authorize', () => SystemProgram.nonceAuthorize({ noncePubkey: other, authorizedPubkey: wallet, newAuthorizedPubkey: other })],
    ['AdvanceNonceAccount', () => SystemProgram.nonceAdvance({ noncePubkey: other, authorizedPubkey: wallet })],
  ])('refuses %s when a sol limit is set (its lamports are not counted), and signs it when none is', async (_, instruction) => {
    expect(await outcome(system, instruction())).toEqual(uncounted('1000'));
    expect(await outcome(withLimits({ maxPriorityMicroLamports: '1' }), instruction())).toEqual(uncounted(countable));
    expect(await outcome(DEFAULT_SIGNING_POLICY, instruction())).toBe('allowed');
  });

  it('refuses System instruction data it cannot read (fail closed): cut short, or a seed longer than 32 bytes', async () => {
    const systemCall = (data: Buffer) => new TransactionInstruction({ programId: SystemProgram.programId, keys: [{ pubkey: wallet, isSigner: true, isWritable: true }], data });
    const cut = Buffer.alloc(8);
    cut.writeUInt32LE(2, 0);
    expect(await outcome(system, systemCall(cut))).toEqual(uncounted('1000'));
    expect(await outcome(system, systemCall(Buffer.alloc(2)))).toEqual(uncounted('1000'));
    const longSeed = Buffer.alloc(4 + 32 + 8 + 40 + 8 + 8 + 32);
    longSeed.writeUInt32LE(3, 0);
    longSeed.writeBigUInt64LE(40n, 36);
    expect(await outcome(system, systemCall(longSeed))).toEqual(uncounted('1000'));
  });

  it('caps the priority fee: ComputeBudget unit price × unit limit, or 200,000 units per other instruction', async () => {
    const rules = withLimits({ maxPriorityMicroLamports: '1000000' });
    const transfer = SystemProgram.transfer({ fromPubkey: wallet, toPubkey: other, lamports: 1 });
    const price = (microLamports: number) => ComputeBudgetProgram.setComputeUnitPrice({ microLamports });
    const limit = (units: number) => ComputeBudgetProgram.setComputeUnitLimit({ units });
    const overFee = (fee: string) => refusal('the priority fee is at most 1000000 micro-lamports', `${fee} micro-lamports of priority fee at most`);
    expect(await outcome(rules, limit(100_000), price(10), transfer)).toBe('allowed');
    expect(await outcome(rules, limit(100_001), price(10), transfer)).toEqual(overFee('1000010'));
    expect(await outcome(rules, price(5), transfer)).toBe('allowed');
    expect(await outcome(rules, price(6), transfer)).toEqual(overFee('1200000'));
    expect(await outcome(rules, limit(1_400_000), price(1), transfer)).toEqual(overFee('1400000'));
    expect(await outcome(rules, price(1), price(1), transfer)).toEqual(
      refusal('the priority fee is at most 1000000 micro-lamports', 'priority fee unknown: a ComputeBudget instruction cannot be read or is given twice', 'cannot be decided'),
    );
    expect(await outcome(DEFAULT_SIGNING_POLICY, limit(1_400_000), price(1_000_000_000), transfer)).toBe('allowed');
  });

  it('refuses an instruction of a program not listed, and one whose program is not among the account keys', async () => {
    const call = new TransactionInstruction({ programId: other, keys: [{ pubkey: wallet, isSigner: true, isWritable: false }], data: Buffer.from('x') });
    expect(await outcome(system, call)).toEqual(refusal(`every program is in [${SystemProgram.programId.toBase58()}]`, `program ${other.toBase58()} is not listed`));
    expect(await outcome(withLimits({ programs: [other.toBase58()] }), call)).toBe('allowed');
    // A v0 message by hand: one signer, no lookup table, one instruction of 12 bytes whose program index (3) is past its one account key.
    const message = Buffer.concat([Buffer.from([0x80, 1, 0, 0, 1]), wallet.toBuffer(), Buffer.alloc(32, 7), Buffer.from([1, 3, 0, 12]), Buffer.alloc(12), Buffer.from([0])]);
    expect(await firstShapeDecision(withLimits({ maxLamports: '1' }), { sol: Buffer.concat([Buffer.from([1]), Buffer.alloc(64), message]) })).toEqual(uncounted('1'));
  });
});

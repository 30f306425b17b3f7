import { AppError, SigningPolicy } from '@game-wallet/contracts';
import { ed25519 } from '@noble/curves/ed25519';
import { base58 } from '@scure/base';
import { ChainSigner, DecodedRequest, decodedMessage, denied } from './chain-signer';
import { SolanaMessage, SolanaWireTransaction, isSolanaTransaction, parseSolanaWireTransaction } from './sol-wire';

/**
 * Solana: messages (Ed25519 over the raw bytes, refused when they are a transaction) and transactions (legacy or v0,
 * wire format: Ed25519 over the message bytes, the signature put in the wallet's slot) — decoded, checked against the
 * game's signing policy and signed.
 */
export const sol: ChainSigner<string> = {
  chain: 'sol',
  criterion: (criterion) => ({ result: 'unknown', observed: `${criterion.type} is not read yet` }),
  criterionProblem: () => undefined,
  /** A 400 before the wallet is looked up (SPEC §2: validation, then 404) when the bytes are a Solana transaction. */
  message(message) {
    if (isSolanaTransaction(message)) {
      throw new AppError('MESSAGE_IS_TRANSACTION', 'These bytes are a Solana transaction: message signing does not sign transactions');
    }
    return decodedMessage('sol', message, signSol);
  },
  transaction: async (transaction) => decodedTransaction(Buffer.from(transaction, 'base64')),
};

/** A transaction: its wallet's slot (400 `NOT_A_SIGNER` when it has none), the signature put there, the other signatures kept. */
function decodedTransaction(bytes: Buffer): DecodedRequest {
  const transaction = solanaTransactionToSign(bytes);
  const message = bytes.subarray(transaction.messageOffset);
  return {
    facts: { operation: 'transaction', chain: 'sol', nativeValue: null },
    forWallet(address) {
      const slot = solanaSignerSlot(transaction, base58.decode(address));
      return {
        audited: message,
        check: (policy) => checkSolanaTransaction(policy, transaction.message),
        async sign(withKey) {
          const signature = await withKey((key) => ed25519.sign(message, key));
          const signed = withSolanaSignature(bytes, transaction, slot, signature);
          return { view: { chain: 'sol', address, signature: base58.encode(signature), signedTransaction: Buffer.from(signed).toString('base64') }, signed: message };
        },
      };
    },
  };
}

/** Ed25519 over the raw message bytes, base58 (Solana's form; `nacl.sign.detached.verify` accepts it). */
export function signSol(privateKey: Uint8Array, message: Uint8Array): string {
  return base58.encode(ed25519.sign(message, privateKey));
}

/** A Solana wire transaction (legacy or v0) whose signature slots match its signers; else 400 naming the field. */
export function solanaTransactionToSign(bytes: Uint8Array): SolanaWireTransaction {
  const parsed = parseSolanaWireTransaction(bytes);
  if (parsed === null) {
    throw new AppError('VALIDATION_FAILED', 'transaction: not a serialized Solana transaction (legacy or v0, wire format with its signature slots)');
  }
  if (parsed.signatureCount !== parsed.message.requiredSignatures) {
    throw new AppError('VALIDATION_FAILED', `transaction: ${parsed.signatureCount} signature slots for ${parsed.message.requiredSignatures} required signers`);
  }
  return parsed;
}

/** Which signature slot is the wallet's: its key among the required signers, else 400 `NOT_A_SIGNER`. */
export function solanaSignerSlot(transaction: SolanaWireTransaction, publicKey: Uint8Array): number {
  const slot = transaction.message.accountKeys
    .slice(0, transaction.message.requiredSignatures)
    .findIndex((key) => key.length === publicKey.length && key.every((byte, index) => byte === publicKey[index]));
  if (slot < 0) {
    throw new AppError('NOT_A_SIGNER', "The wallet's Solana address is not one of this transaction's required signers");
  }
  return slot;
}

/** A copy of the wire transaction with `signature` in `slot`; the other signatures stay as they were. */
export function withSolanaSignature(bytes: Uint8Array, transaction: SolanaWireTransaction, slot: number, signature: Uint8Array): Uint8Array {
  const signed = Uint8Array.from(bytes);
  signed.set(signature, transaction.signaturesOffset + slot * 64);
  return signed;
}

// The signing policy

/**
 * A game's signing policy for Solana transactions (SPEC §11): the programs every instruction belongs to, the lamports
 * the System Program moves, and the priority fee. Instruction data is read as the runtime reads it (bincode: a u32
 * little-endian instruction index, then fixed-width little-endian fields; a string is a u64 length, then its bytes).
 * When any `sol` limit is set, anything that cannot be read is refused: the check fails closed.
 */

export const SYSTEM_PROGRAM = base58.encode(new Uint8Array(32));
export const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111';

/**
 * The System instructions whose lamports are counted, and where their amount sits. Every other System instruction —
 * Assign (hands the account to another program), the nonce account's Withdraw and Authorize, Allocate… — is refused
 * whenever a `sol` limit is set: their effect on the wallet's funds is not a number a limit can bound.
 */
const COUNTED_SYSTEM_INSTRUCTIONS: Record<number, { name: string; lamportsAt: (data: DataView) => number }> = {
  // CreateAccount { lamports: u64, space: u64, owner: Pubkey }
  0: { name: 'CreateAccount', lamportsAt: () => 4 },
  // Transfer { lamports: u64 }
  2: { name: 'Transfer', lamportsAt: () => 4 },
  // CreateAccountWithSeed { base: Pubkey, seed: String, lamports: u64, space: u64, owner: Pubkey }
  3: { name: 'CreateAccountWithSeed', lamportsAt: (data) => 4 + 32 + 8 + seedLength(data, 4 + 32) },
  // TransferWithSeed { lamports: u64, from_seed: String, from_owner: Pubkey }
  11: { name: 'TransferWithSeed', lamportsAt: () => 4 },
};

/** Solana's longest seed (MAX_SEED_LEN): a longer one cannot be a real instruction's. */
const MAX_SEED_LENGTH = 32;

function seedLength(data: DataView, at: number): number {
  const length = data.getBigUint64(at, true);
  if (length > BigInt(MAX_SEED_LENGTH)) {
    throw new RangeError('seed longer than 32 bytes');
  }
  return Number(length);
}

/** The runtime's compute unit limits: per instruction when none is set, and the most a transaction may ask for. */
const DEFAULT_UNITS_PER_INSTRUCTION = 200_000n;
const MAX_COMPUTE_UNITS = 1_400_000n;

const view = (data: Uint8Array): DataView => new DataView(data.buffer, data.byteOffset, data.byteLength);

/** sol: every instruction's program, the lamports its System instructions move, and the priority fee it offers. */
export function checkSolanaTransaction(policy: SigningPolicy, message: SolanaMessage): void {
  const limited = policy.sol.programs !== null || policy.sol.maxLamports !== null || policy.sol.maxPriorityMicroLamports !== null;
  if (!limited) {
    return;
  }
  let lamports = 0n;
  let others = 0n;
  const budget: ComputeBudget = { price: 0n, units: undefined, seen: new Set() };
  for (const instruction of message.instructions) {
    const key = message.accountKeys[instruction.programIdIndex];
    if (key === undefined) {
      throw denied('an instruction names a program outside the transaction\'s account keys');
    }
    const program = base58.encode(key);
    if (policy.sol.programs !== null && !policy.sol.programs.includes(program)) {
      throw denied(`program ${program} is not among the allowed programs (sol.programs)`);
    }
    if (program === COMPUTE_BUDGET_PROGRAM) {
      readComputeBudget(instruction.data, budget);
      continue;
    }
    others += 1n;
    if (program === SYSTEM_PROGRAM) {
      lamports += systemLamports(instruction.data);
    }
  }
  if (policy.sol.maxLamports !== null && lamports > BigInt(policy.sol.maxLamports)) {
    throw denied(`the System instructions move ${lamports} lamports, over the limit of ${policy.sol.maxLamports} (sol.maxLamports)`);
  }
  if (policy.sol.maxPriorityMicroLamports !== null) {
    // As the runtime prices it: the unit price times the unit limit, or 200,000 units per other instruction.
    const units = budget.units ?? others * DEFAULT_UNITS_PER_INSTRUCTION;
    const fee = budget.price * (units < MAX_COMPUTE_UNITS ? units : MAX_COMPUTE_UNITS);
    if (fee > BigInt(policy.sol.maxPriorityMicroLamports)) {
      throw denied(`the priority fee may reach ${fee} micro-lamports (unit price × unit limit), over the limit of ${policy.sol.maxPriorityMicroLamports} (sol.maxPriorityMicroLamports)`);
    }
  }
}

/** The lamports a System instruction moves; any instruction but the four counted ones, or one cut short, is refused. */
function systemLamports(data: Uint8Array): bigint {
  try {
    const fields = view(data);
    const index = fields.getUint32(0, true);
    const counted = COUNTED_SYSTEM_INSTRUCTIONS[index];
    if (counted === undefined) {
      throw denied(`System instruction ${index} (${SYSTEM_INSTRUCTION_NAMES[index] ?? 'unknown'}) is not allowed when a sol limit is set; only Transfer, TransferWithSeed, CreateAccount and CreateAccountWithSeed are`);
    }
    return fields.getBigUint64(counted.lamportsAt(fields), true);
  } catch (error) {
    if (error instanceof RangeError) {
      throw denied('a System instruction whose data cannot be read is not allowed when a sol limit is set');
    }
    throw error;
  }
}

const SYSTEM_INSTRUCTION_NAMES: Record<number, string> = {
  1: 'Assign',
  4: 'AdvanceNonceAccount',
  5: 'WithdrawNonceAccount',
  6: 'InitializeNonceAccount',
  7: 'AuthorizeNonceAccount',
  8: 'Allocate',
  9: 'AllocateWithSeed',
  10: 'AssignWithSeed',
  12: 'UpgradeNonceAccount',
};

interface ComputeBudget {
  /** micro-lamports per compute unit */
  price: bigint;
  /** the unit limit asked for, if any */
  units: bigint | undefined;
  /** the instructions read so far */
  seen: Set<number>;
}

/** Borsh: a u8 instruction index, then its field (RequestHeapFrame u32, SetComputeUnitLimit u32, SetComputeUnitPrice u64, SetLoadedAccountsDataSizeLimit u32). */
const COMPUTE_BUDGET_LENGTHS: Record<number, number> = { 1: 5, 2: 5, 3: 9, 4: 5 };

/**
 * ComputeBudget's unit limit (instruction 2, u32) and unit price (instruction 3, u64 micro-lamports per unit); the
 * heap and data-size requests (1 and 4) cost no fee. A repeated or unknown instruction makes the runtime refuse the
 * transaction, and is refused here too.
 */
function readComputeBudget(data: Uint8Array, budget: ComputeBudget): void {
  const kind = data[0];
  if (kind === undefined || COMPUTE_BUDGET_LENGTHS[kind] !== data.length || budget.seen.has(kind)) {
    throw denied('a ComputeBudget instruction that cannot be read, or given twice, is not allowed when a sol limit is set');
  }
  budget.seen.add(kind);
  if (kind === 2) {
    budget.units = BigInt(view(data).getUint32(1, true));
  } else if (kind === 3) {
    budget.price = view(data).getBigUint64(1, true);
  }
}

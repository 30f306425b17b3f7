import { AppError, Criterion, NumberCondition, SOL_PROGRAMS, SolInstructionAllowance, SolProgramName } from '@game-wallet/contracts';
import { COMPUTE_BUDGET_PROGRAM_ADDRESS, ComputeBudgetInstruction, parseComputeBudgetInstruction } from '@solana-program/compute-budget';
import { MemoInstruction, SUPPORTED_MEMO_PROGRAM_ADDRESSES } from '@solana-program/memo';
import { SYSTEM_PROGRAM_ADDRESS, SystemInstruction, parseSystemInstruction } from '@solana-program/system';
import {
  ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
  AssociatedTokenInstruction,
  ParsedTokenInstruction,
  TOKEN_PROGRAM_ADDRESS,
  TokenInstruction,
  identifyTokenInstruction,
  parseAssociatedTokenInstruction,
  parseTokenInstruction,
  parseTransferCheckedInstruction,
  parseTransferInstruction,
} from '@solana-program/token';
import {
  AccountMeta,
  AccountRole,
  Address,
  Instruction,
  InstructionWithAccounts,
  InstructionWithData,
  LegacyCompiledTransactionMessage,
  ReadonlyUint8Array,
  V0CompiledTransactionMessage,
  getCompiledTransactionMessageDecoder,
  isAddress,
} from '@solana/kit';
import { base58 } from '@scure/base';
import { ChainSigner, CriterionOutcome, DecodedRequest, MessageSigning, SigningFacts, decodedMessage, COMPARE_NUMBERS } from './chain-signer';
import { SIGNATURE_PRIMITIVES } from './signature-primitives';
import { SolanaMessage, SolanaWireTransaction, isSolanaTransaction, parseSolanaWireTransaction } from './sol-wire';

/**
 * Solana: messages (Ed25519 over the raw bytes, refused when they are a transaction) and transactions (legacy or v0,
 * wire format: Ed25519 over the message bytes, the signature put in the wallet's slot) — decoded, read as the game's
 * policy rules read them, and signed.
 */
export const sol: ChainSigner<string> = {
  chain: 'sol',
  criterion: solCriterion,
  criterionProblem: solCriterionProblem,
  /** A 400 before the wallet is looked up (SPEC §2: validation, then 404) when the bytes are a Solana transaction. */
  message(message) {
    if (isSolanaTransaction(message)) {
      throw new AppError('MESSAGE_IS_TRANSACTION', 'These bytes are a Solana transaction: message signing does not sign transactions');
    }
    return decodedMessage('sol', message, SOL_MESSAGES);
  },
  transaction: async (transaction) => decodedTransaction(Buffer.from(transaction, 'base64')),
};

/** A transaction: its wallet's slot (400 `NOT_A_SIGNER` when it has none), the signature put there, the other signatures kept. */
function decodedTransaction(bytes: Buffer): DecodedRequest {
  const transaction = solanaTransactionToSign(bytes);
  const message = bytes.subarray(transaction.messageOffset);
  return {
    facts: solanaTransactionFacts(transaction, message),
    forWallet(address) {
      const slot = solanaSignerSlot(transaction, base58.decode(address));
      return {
        audited: message,
        async sign(signWithKey) {
          const signature = await signWithKey(message);
          const signed = withSolanaSignature(bytes, transaction, slot, signature);
          return { view: { chain: 'sol', address, signature: base58.encode(signature), signedTransaction: Buffer.from(signed).toString('base64') }, signed: message };
        },
      };
    },
  };
}

/** Ed25519 over the raw message bytes, base58 (Solana's form; `nacl.sign.detached.verify` accepts it). */
const SOL_MESSAGES: MessageSigning = { payload: (message) => message, format: (signature) => base58.encode(signature) };

/** A message signed with a key at hand (test vectors): the same steps as a request's. */
export function signSol(privateKey: Uint8Array, message: Uint8Array): string {
  return SOL_MESSAGES.format(SIGNATURE_PRIMITIVES.sol(privateKey, SOL_MESSAGES.payload(message)));
}

const NOT_A_TRANSACTION = 'transaction: not a serialized Solana transaction (legacy or v0, wire format with its signature slots)';

/** A Solana wire transaction (legacy or v0) whose signature slots match its signers; else 400 naming the field. */
export function solanaTransactionToSign(bytes: Uint8Array): SolanaWireTransaction {
  const parsed = parseSolanaWireTransaction(bytes);
  if (parsed === null) {
    throw new AppError('VALIDATION_FAILED', NOT_A_TRANSACTION);
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

// Counting what a transaction moves and offers

/**
 * The lamports the System Program moves and the priority fee a transaction offers, as its facts state them
 * (`lamports`, `priorityFee`). Instruction data is read as the runtime reads it (bincode: a u32 little-endian
 * instruction index, then fixed-width little-endian fields; a string is a u64 length, then its bytes). What cannot be
 * read is not counted (null): a criterion on it cannot be decided, so an accept rule that bounds it does not match.
 */

/**
 * The System instructions whose lamports are counted, and where their amount sits. Beside any other System
 * instruction — Assign (hands the account to another program), the nonce account's Withdraw and Authorize, Allocate…
 * — the lamports are not counted: their effect on the wallet's funds is not a number a limit can bound.
 */
const COUNTED_SYSTEM_INSTRUCTIONS: Record<number, (data: DataView) => number> = {
  // CreateAccount { lamports: u64, space: u64, owner: Pubkey }
  0: () => 4,
  // Transfer { lamports: u64 }
  2: () => 4,
  // CreateAccountWithSeed { base: Pubkey, seed: String, lamports: u64, space: u64, owner: Pubkey }
  3: (data) => 4 + 32 + 8 + seedLength(data, 4 + 32),
  // TransferWithSeed { lamports: u64, from_seed: String, from_owner: Pubkey }
  11: () => 4,
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

/** What a transaction's instructions add up to. */
interface SolanaCount {
  /** each instruction's program (base58), or null when it names none of the account keys */
  programs: (string | null)[];
  /** each instruction's lamports, for the four counted System instructions */
  moved: (bigint | undefined)[];
  /** the counted System instructions' lamports, summed; null beside a System instruction not counted or unreadable, or a program outside the account keys */
  lamports: bigint | null;
  /** ComputeBudget's unit price and limit; null when one of its instructions cannot be read or is given twice */
  budget: ComputeBudget | null;
  /** the most the priority fee can reach (see `priorityFee`); null with the budget */
  priorityFee: bigint | null;
}

/** Reads a message's instructions in order: each one's program and lamports, their sum and the priority fee. */
function countSolanaTransaction(message: SolanaMessage): SolanaCount {
  const count: SolanaCount = { programs: [], moved: [], lamports: 0n, budget: null, priorityFee: null };
  const budget: ComputeBudget = { price: 0n, units: undefined, seen: new Set() };
  let budgetRead = true;
  let others = 0n;
  for (const instruction of message.instructions) {
    const key = message.accountKeys[instruction.programIdIndex];
    const program = key === undefined ? null : base58.encode(key);
    const moved = program === SYSTEM_PROGRAM_ADDRESS ? systemLamports(instruction.data) : undefined;
    count.programs.push(program);
    count.moved.push(moved);
    if (program === COMPUTE_BUDGET_PROGRAM_ADDRESS) {
      budgetRead = readComputeBudget(instruction.data, budget) && budgetRead;
      continue;
    }
    others += 1n;
    if (program === null || (program === SYSTEM_PROGRAM_ADDRESS && moved === undefined)) {
      count.lamports = null;
    } else if (moved !== undefined && count.lamports !== null) {
      count.lamports += moved;
    }
  }
  if (budgetRead) {
    count.budget = budget;
    count.priorityFee = priorityFee(budget, others);
  }
  return count;
}

/** As the runtime prices it: the unit price times the unit limit, or 200,000 units per other instruction, at most 1,400,000 units. */
function priorityFee(budget: ComputeBudget, others: bigint): bigint {
  const units = budget.units ?? others * DEFAULT_UNITS_PER_INSTRUCTION;
  return budget.price * (units < MAX_COMPUTE_UNITS ? units : MAX_COMPUTE_UNITS);
}

/** The lamports a System instruction moves: one of the four counted ones; undefined for any other, or one cut short. */
function systemLamports(data: Uint8Array): bigint | undefined {
  try {
    const fields = view(data);
    const lamportsAt = COUNTED_SYSTEM_INSTRUCTIONS[fields.getUint32(0, true)];
    return lamportsAt === undefined ? undefined : fields.getBigUint64(lamportsAt(fields), true);
  } catch (error) {
    if (error instanceof RangeError) {
      return undefined;
    }
    throw error;
  }
}

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
 * transaction: false, and the fee is not counted.
 */
function readComputeBudget(data: Uint8Array, budget: ComputeBudget): boolean {
  const kind = data[0];
  if (kind === undefined || COMPUTE_BUDGET_LENGTHS[kind] !== data.length || budget.seen.has(kind)) {
    return false;
  }
  budget.seen.add(kind);
  if (kind === 2) {
    budget.units = BigInt(view(data).getUint32(1, true));
  } else if (kind === 3) {
    budget.price = view(data).getBigUint64(1, true);
  }
  return true;
}

// What the rules read of a transaction (policy v2)

/** A Solana transaction's facts (see `SigningFacts`): what the `sol*` criteria read. */
export interface SolanaTransactionFacts extends SigningFacts {
  operation: 'transaction';
  chain: 'sol';
  /** `lamports` (the native units moved), for velocity limits */
  nativeValue: string | null;
  version: 'legacy' | 0;
  /** the programs the instructions call, each once, in order (base58) */
  programs: string[];
  instructions: SolanaInstructionFacts[];
  /**
   * The lamports System CreateAccount, Transfer, CreateAccountWithSeed and TransferWithSeed move, summed; null when
   * another System instruction, one that cannot be read, or a program outside the account keys is present.
   */
  lamports: string | null;
  /** ComputeBudget's unit price (micro-lamports per compute unit; 0 when none is set); null when the budget cannot be read */
  computeUnitPrice: string | null;
  /** ComputeBudget's unit limit; null when none is set or the budget cannot be read */
  computeUnitLimit: string | null;
  /**
   * The most the priority fee can reach (micro-lamports): the unit price × the unit limit, or 200,000 units per other
   * instruction, at most 1,400,000 units; null when a ComputeBudget instruction cannot be read or is given twice.
   */
  priorityFee: string | null;
}

export interface SolanaInstructionFacts {
  /** the program (base58); null when the instruction names none of the transaction's account keys */
  program: string | null;
  programName: SolProgramName | null;
  /** camelCase, as the program's client names it; null when the program is not a known one or the instruction cannot be read */
  instruction: string | null;
  /** a token transfer's or associated token account's mint; null when the account comes from an address lookup table */
  mint?: string | null;
  /** a token transfer's amount, in base units */
  amount?: string;
  /** the lamports a System instruction moves */
  lamports?: string;
}

const TOKEN_2022_PROGRAM_ADDRESS = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb' as Address;

/** The programs read by name, with their clients (Token-2022's transfers with the token client: their layout is the same). */
/** Programs whose instructions move no lamports of the wallet but through the System Program's counted ones. */
const VALUE_COUNTABLE = new Set<string>(['system', 'compute-budget', 'memo', 'spl-token', 'token-2022']);

const KNOWN_PROGRAMS = new Map<string, SolProgramName>([
  [SYSTEM_PROGRAM_ADDRESS, 'system'],
  [TOKEN_PROGRAM_ADDRESS, 'spl-token'],
  [TOKEN_2022_PROGRAM_ADDRESS, 'token-2022'],
  [ASSOCIATED_TOKEN_PROGRAM_ADDRESS, 'associated-token'],
  ...SUPPORTED_MEMO_PROGRAM_ADDRESSES.map((address) => [address, 'memo'] as const),
  [COMPUTE_BUDGET_PROGRAM_ADDRESS, 'compute-budget'],
]);

/** An account the message takes from an address lookup table: its address is not known offline. */
const FROM_LOOKUP_TABLE = '(from an address lookup table)' as Address;

/**
 * What the rules read of a transaction the wallet's wire reader accepted (every byte, its signature slots). The
 * message is read again with @solana/kit's compiled-message decoder, which gives each instruction's accounts and the
 * lookup tables but does not refuse trailing bytes or other versions: it must use every byte, and be legacy or v0 (a
 * later version is not read, so not signed: 400). Lamports and the priority fee are counted by `countSolanaTransaction`.
 */
function solanaTransactionFacts(transaction: SolanaWireTransaction, messageBytes: Uint8Array): SolanaTransactionFacts {
  const compiled = compiledMessage(messageBytes, transaction.message.instructions.length);
  const count = countSolanaTransaction(transaction.message);
  const { staticAccounts } = compiled;
  const instructions = compiled.instructions.map((instruction, index): SolanaInstructionFacts => {
    const program = staticAccounts[instruction.programAddressIndex];
    if (program === undefined) {
      return { program: null, programName: null, instruction: null };
    }
    // The clients' parsers read accounts by position only, never their roles.
    const accounts = (instruction.accountIndices ?? []).map((at): AccountMeta => ({ address: staticAccounts[at] ?? FROM_LOOKUP_TABLE, role: AccountRole.READONLY }));
    const programName = KNOWN_PROGRAMS.get(program) ?? null;
    const read = programName === null ? { instruction: null } : readInstruction(programName, { programAddress: program, accounts, data: instruction.data ?? new Uint8Array() });
    const moved = count.moved[index];
    return { program, programName, ...read, ...(moved === undefined ? {} : { lamports: moved.toString() }) };
  });
  const lamports = count.lamports === null ? null : count.lamports.toString();
  const { budget } = count;
  return {
    operation: 'transaction',
    chain: 'sol',
    // Only the System Program's own transfers are counted: any program but these few may move the wallet's lamports
    // through a call of its own (the Associated Token program pays rent from it), so a value limit cannot count them.
    nativeValue: instructions.every((instruction) => instruction.programName !== null && VALUE_COUNTABLE.has(instruction.programName)) ? lamports : null,
    version: compiled.version,
    programs: [...new Set(count.programs.filter((program) => program !== null))],
    instructions,
    lamports,
    computeUnitPrice: budget === null ? null : budget.price.toString(),
    computeUnitLimit: budget?.units === undefined ? null : budget.units.toString(),
    priorityFee: count.priorityFee === null ? null : count.priorityFee.toString(),
  };
}

function compiledMessage(messageBytes: Uint8Array, instructionCount: number): LegacyCompiledTransactionMessage | V0CompiledTransactionMessage {
  let read: ReturnType<ReturnType<typeof getCompiledTransactionMessageDecoder>['read']> | undefined;
  try {
    read = getCompiledTransactionMessageDecoder().read(messageBytes, 0);
  } catch {
    read = undefined;
  }
  if (read === undefined || read[1] !== messageBytes.length) {
    throw new AppError('VALIDATION_FAILED', NOT_A_TRANSACTION);
  }
  const [compiled] = read;
  if (compiled.version !== 'legacy' && compiled.version !== 0) {
    throw new AppError('VALIDATION_FAILED', `transaction: version ${compiled.version} transactions are not read (legacy or v0 only)`);
  }
  if (compiled.instructions.length !== instructionCount) {
    throw new AppError('VALIDATION_FAILED', NOT_A_TRANSACTION);
  }
  return compiled;
}

type ReadInstruction = Pick<SolanaInstructionFacts, 'instruction' | 'mint' | 'amount' | 'lamports'>;
type KnownInstruction = Instruction & InstructionWithAccounts<AccountMeta[]> & InstructionWithData<ReadonlyUint8Array>;

/** A known program's instruction read with its client (whose parsers do not check the program: it was checked here); unreadable: null. */
function readInstruction(program: SolProgramName, instruction: KnownInstruction): ReadInstruction {
  try {
    return INSTRUCTION_READERS[program](instruction);
  } catch {
    return { instruction: null };
  }
}

const camelCase = (name: string): string => `${name.charAt(0).toLowerCase()}${name.slice(1)}`;
const nameOf = (names: Record<number, string>, value: number): string => camelCase(names[value]);
const namesOf = (names: Record<string, string | number>): string[] => Object.values(names).flatMap((name) => (typeof name === 'string' ? [camelCase(name)] : []));
const addressOf = (account: AccountMeta): string | null => (account.address === FROM_LOOKUP_TABLE ? null : account.address);

/** The associated token program reads empty data as Create, which the client cannot identify. */
const CREATE_ASSOCIATED_TOKEN = Uint8Array.of(AssociatedTokenInstruction.CreateAssociatedToken);
const UTF8 = new TextDecoder('utf-8', { fatal: true });

const INSTRUCTION_READERS: Record<SolProgramName, (instruction: KnownInstruction) => ReadInstruction> = {
  system(instruction) {
    const parsed = parseSystemInstruction(instruction);
    const name = nameOf(SystemInstruction, parsed.instructionType);
    // The four counted instructions' lamports are `countSolanaTransaction`'s.
    switch (parsed.instructionType) {
      case SystemInstruction.WithdrawNonceAccount:
        return { instruction: name, lamports: parsed.data.withdrawAmount.toString() };
      case SystemInstruction.CreateAccountAllowPrefund:
        return { instruction: name, lamports: parsed.data.lamports.toString() };
      default:
        return { instruction: name };
    }
  },
  'spl-token': (instruction) => tokenInstruction(parseTokenInstruction(instruction)),
  'token-2022'(instruction) {
    switch (identifyTokenInstruction(instruction)) {
      case TokenInstruction.Transfer:
        return tokenInstruction({ instructionType: TokenInstruction.Transfer, ...parseTransferInstruction(instruction) });
      case TokenInstruction.TransferChecked:
        return tokenInstruction({ instructionType: TokenInstruction.TransferChecked, ...parseTransferCheckedInstruction(instruction) });
      default:
        return { instruction: null };
    }
  },
  'associated-token'(instruction) {
    const parsed = parseAssociatedTokenInstruction(instruction.data.length === 0 ? { ...instruction, data: CREATE_ASSOCIATED_TOKEN } : instruction);
    const name = nameOf(AssociatedTokenInstruction, parsed.instructionType);
    return parsed.instructionType === AssociatedTokenInstruction.RecoverNestedAssociatedToken ? { instruction: name } : { instruction: name, mint: addressOf(parsed.accounts.mint) };
  },
  memo(instruction) {
    UTF8.decode(Uint8Array.from(instruction.data)); // the program refuses a memo that is not UTF-8
    return { instruction: nameOf(MemoInstruction, MemoInstruction.AddMemo) };
  },
  'compute-budget': (instruction) => ({ instruction: nameOf(ComputeBudgetInstruction, parseComputeBudgetInstruction(instruction).instructionType) }),
};

function tokenInstruction(parsed: ParsedTokenInstruction<string>): ReadInstruction {
  const name = nameOf(TokenInstruction, parsed.instructionType);
  switch (parsed.instructionType) {
    case TokenInstruction.Transfer:
      return { instruction: name, amount: parsed.data.amount.toString() };
    case TokenInstruction.TransferChecked:
      return { instruction: name, mint: addressOf(parsed.accounts.mint), amount: parsed.data.amount.toString() };
    default:
      return { instruction: name };
  }
}

// The criteria

/** The instructions each known program may be allowed by name: its client's, camelCase; Token-2022's transfers only. */
const INSTRUCTION_NAMES: Record<SolProgramName, string[]> = {
  system: namesOf(SystemInstruction),
  'spl-token': namesOf(TokenInstruction),
  'token-2022': ['transfer', 'transferChecked'],
  'associated-token': namesOf(AssociatedTokenInstruction),
  memo: namesOf(MemoInstruction),
  'compute-budget': namesOf(ComputeBudgetInstruction),
};

/** The instructions an allowance may bound by mint; of them, the token transfers may be bounded by amount too. */
const TOKEN_TRANSFERS = ['spl-token transfer', 'spl-token transferChecked', 'token-2022 transfer', 'token-2022 transferChecked'];
const WITH_MINT = [...TOKEN_TRANSFERS, 'associated-token createAssociatedToken', 'associated-token createAssociatedTokenIdempotent'];

const DECIMAL = /^(0|[1-9][0-9]{0,39})$/;
const decimal = (value: string): bigint | null => (DECIMAL.test(value) ? BigInt(value) : null);
const MAX_OBSERVED = 200;

const counted = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;
const knownProgram = (program: string): SolProgramName | null => SOL_PROGRAMS.find((name) => name === program) ?? KNOWN_PROGRAMS.get(program) ?? null;

/** One `sol*` criterion against a transaction's facts (see `ChainSigner.criterion`). */
function solCriterion(criterion: Criterion, facts: SigningFacts): CriterionOutcome {
  const outcome = solTransactionCriterion(criterion, facts);
  return outcome.observed.length <= MAX_OBSERVED ? outcome : { ...outcome, observed: `${outcome.observed.slice(0, MAX_OBSERVED - 1)}…` };
}

function solTransactionCriterion(criterion: Criterion, facts: SigningFacts): CriterionOutcome {
  if (facts.chain !== 'sol' || facts.operation !== 'transaction' || !Array.isArray(facts.instructions)) {
    return { result: 'unknown', observed: 'not a Solana transaction' };
  }
  const transaction = facts as SolanaTransactionFacts;
  switch (criterion.type) {
    case 'solProgram': {
      const listed = criterion.operator === 'in';
      return everyInstruction(
        transaction.instructions,
        ({ program }) => {
          if (program === null) {
            return { result: 'unknown', observed: "an instruction's program is outside the account keys" };
          }
          return criterion.values.includes(program) === listed ? { result: 'holds', observed: '' } : { result: 'fails', observed: `program ${program} ${listed ? 'is not' : 'is'} listed` };
        },
        `${counted(transaction.programs.length, 'program')}, ${listed ? 'each' : 'none'} listed`,
      );
    }
    case 'solInstruction':
      return everyInstruction(transaction.instructions, (instruction) => allowedInstruction(criterion.allowed, instruction), `${counted(transaction.instructions.length, 'instruction')}, each allowed`);
    case 'solLamports':
      return compared(criterion, transaction.lamports, 'lamports moved', 'lamports not counted: a System instruction that is not a transfer or account creation, or one that cannot be read');
    case 'solComputeUnitPrice':
      return compared(criterion, transaction.computeUnitPrice, 'micro-lamports per compute unit', 'unit price unknown: a ComputeBudget instruction cannot be read or is given twice');
    case 'solPriorityFee':
      return compared(criterion, transaction.priorityFee, 'micro-lamports of priority fee at most', 'priority fee unknown: a ComputeBudget instruction cannot be read or is given twice');
    default:
      return { result: 'unknown', observed: `${criterion.type} is not read on Solana transactions` };
  }
}

/** Holds when it holds for every instruction; the first that fails decides, else the first undecided. */
function everyInstruction(instructions: SolanaInstructionFacts[], outcome: (instruction: SolanaInstructionFacts) => CriterionOutcome, holds: string): CriterionOutcome {
  let undecided: CriterionOutcome | undefined;
  for (const instruction of instructions) {
    const each = outcome(instruction);
    if (each.result === 'fails') {
      return each;
    }
    undecided ??= each.result === 'unknown' ? each : undefined;
  }
  return undecided ?? { result: 'holds', observed: holds };
}

/** Holds when one allowance allows the instruction; else undecided when one might, else it fails. */
function allowedInstruction(allowed: SolInstructionAllowance[], instruction: SolanaInstructionFacts): CriterionOutcome {
  let undecided: CriterionOutcome | undefined;
  for (const allowance of allowed) {
    const outcome = allows(allowance, instruction);
    if (outcome.result === 'holds') {
      return outcome;
    }
    undecided ??= outcome.result === 'unknown' ? outcome : undefined;
  }
  return undecided ?? { result: 'fails', observed: `${described(instruction)} is not allowed` };
}

function allows(allowance: SolInstructionAllowance, instruction: SolanaInstructionFacts): CriterionOutcome {
  const { program, programName, mint, amount } = instruction;
  const unknown = (why: string): CriterionOutcome => ({ result: 'unknown', observed: `${described(instruction)}: ${why}` });
  const fails: CriterionOutcome = { result: 'fails', observed: '' };
  if (program === null) {
    return unknown('its program is outside the account keys');
  }
  if (allowance.program !== program && allowance.program !== programName) {
    return fails;
  }
  if (allowance.instruction === undefined) {
    return { result: 'holds', observed: '' };
  }
  if (instruction.instruction === null) {
    return unknown('it cannot be read');
  }
  if (allowance.instruction !== instruction.instruction) {
    return fails;
  }
  if (allowance.mints !== undefined) {
    if (mint === undefined) {
      return unknown('it names no mint');
    }
    if (mint === null) {
      return unknown('its mint is in an address lookup table');
    }
    if (!allowance.mints.includes(mint)) {
      return fails;
    }
  }
  if (allowance.maxAmount !== undefined) {
    const most = decimal(allowance.maxAmount);
    if (amount === undefined || most === null) {
      return unknown(amount === undefined ? 'it has no amount' : `maxAmount ${allowance.maxAmount} is not a decimal number`);
    }
    if (BigInt(amount) > most) {
      return fails;
    }
  }
  return { result: 'holds', observed: '' };
}

/** e.g. `instruction spl-token transferChecked of mint X, 5000001 units` */
function described({ program, programName, instruction, mint, amount, lamports }: SolanaInstructionFacts): string {
  const of = mint === undefined ? '' : ` of mint ${mint ?? '(from an address lookup table)'}`;
  const units = amount === undefined ? '' : `, ${amount} units`;
  const moved = lamports === undefined ? '' : `, ${lamports} lamports`;
  return `instruction ${programName ?? program ?? '(program outside the account keys)'} ${instruction ?? '(unread)'}${of}${units}${moved}`;
}

function compared(condition: NumberCondition, observed: string | null, unit: string, uncounted: string): CriterionOutcome {
  if (observed === null) {
    return { result: 'unknown', observed: uncounted };
  }
  const bound = decimal(condition.value);
  if (bound === null) {
    return { result: 'unknown', observed: `value ${condition.value} is not a decimal number` };
  }
  return { result: COMPARE_NUMBERS[condition.operator](BigInt(observed), bound) ? 'holds' : 'fails', observed: `${observed} ${unit}` };
}

/** What is wrong with a `sol*` criterion beyond its JSON shape (see `ChainSigner.criterionProblem`). */
function solCriterionProblem(criterion: Criterion): string | undefined {
  switch (criterion.type) {
    case 'solProgram':
      return addressesProblem('values', criterion.values);
    case 'solInstruction':
      return criterion.allowed.map((allowance, index) => allowanceProblem(allowance, `allowed[${index}]`)).find((problem) => problem !== undefined);
    case 'solLamports':
    case 'solComputeUnitPrice':
    case 'solPriorityFee':
      return DECIMAL.test(criterion.value) ? undefined : 'value: a decimal number';
    default:
      return undefined;
  }
}

function addressesProblem(field: string, addresses: string[]): string | undefined {
  const index = addresses.findIndex((address) => !isAddress(address));
  return index < 0 ? undefined : `${field}[${index}]: not a base58 address`;
}

function allowanceProblem({ program, instruction, mints, maxAmount }: SolInstructionAllowance, field: string): string | undefined {
  const name = knownProgram(program);
  if (name === null && !isAddress(program)) {
    return `${field}.program: neither a known program (${SOL_PROGRAMS.join(', ')}) nor a base58 program id`;
  }
  if (instruction !== undefined) {
    if (name === null) {
      return `${field}.instruction: only a known program's instructions are read; leave it out to allow any instruction of ${program}`;
    }
    if (!INSTRUCTION_NAMES[name].includes(instruction)) {
      return `${field}.instruction: ${name} has no instruction ${instruction} that is read (camelCase, as its client names it)`;
    }
  }
  const kind = `${name} ${instruction}`;
  if (mints !== undefined) {
    if (!WITH_MINT.includes(kind)) {
      return `${field}.mints: only for a token transfer (transfer, transferChecked) or an associated token account's creation`;
    }
    const problem = addressesProblem(`${field}.mints`, mints);
    if (problem !== undefined) {
      return problem;
    }
  }
  if (maxAmount !== undefined) {
    if (!TOKEN_TRANSFERS.includes(kind)) {
      return `${field}.maxAmount: only for a token transfer (transfer, transferChecked)`;
    }
    if (!DECIMAL.test(maxAmount)) {
      return `${field}.maxAmount: a decimal number of base units`;
    }
  }
  return undefined;
}

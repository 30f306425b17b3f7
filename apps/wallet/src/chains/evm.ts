import {
  AppError,
  Criterion,
  EIP712_DOMAIN_TYPE,
  EVM_ADDRESS,
  EVM_QUANTITY,
  EvmTransactionRequest,
  ListCondition,
  MAX_RULE_CRITERIA,
  NumberCondition,
  TypedDataRequest,
  UINT256_MAX,
  ValueCondition,
  isTypedDataName,
  parseTypedDataType,
  typedDataProblem,
} from '@game-wallet/contracts';
import { keccak_256 } from '@noble/hashes/sha3';
import type { AbiCoder, FunctionFragment, Transaction } from 'ethers';
import { LRUCache } from 'lru-cache';
import { ChainSigner, CriterionOutcome, DecodedRequest, MessageSigning, SigningFacts, bytesOfHex, decodedMessage, COMPARE_NUMBERS } from './chain-signer';
import { SIGNATURE_PRIMITIVES } from './signature-primitives';

/**
 * EVM chains: messages (EIP-191), transactions (EIP-1559 and legacy) and typed data (EIP-712) — decoded, read as the
 * game's policy rules read them, and signed. Encoding and hashing are ethers' (RLP, EIP-155/1559, EIP-712); the
 * key itself never reaches ethers: the digest is signed by @noble/curves with the wallet's key bytes. ethers is
 * loaded on the first such request, or the first `evmData` criterion checked or evaluated (its ABI fragment is read
 * by ethers, synchronously): about 19 MB a replica that does neither does not carry.
 */
const ethers = (): Promise<typeof import('ethers')> => import('ethers');
/** ethers for a synchronous call (an ABI fragment read): the same module, loaded then if no request has yet. */
const ethersNow = (): typeof import('ethers') => require('ethers') as typeof import('ethers');

export const evm: ChainSigner<EvmTransactionRequest> = {
  chain: 'evm',
  criterion: evmCriterion,
  criterionProblem: evmCriterionProblem,
  message: (message) => decodedMessage('evm', message, EVM_MESSAGES),
  transaction: async (request) => decodedTransaction(await evmTransactionToSign(request)),
  typedData: decodedTypedData,
};

function decodedTransaction({ transaction, unsigned }: EvmTransactionToSign): DecodedRequest {
  return {
    facts: evmTransactionFacts(transaction),
    forWallet: (address) => ({
      audited: unsigned,
      async sign(signWithKey) {
        // ethers' `unsignedHash`, without serializing the transaction again.
        const signature = recoverableOf(await signWithKey(keccak_256(unsigned)));
        const { raw, hash } = await signedEvmTransaction(transaction, signature);
        return { view: { chain: 'evm', address, signedTransaction: raw, hash }, signed: unsigned };
      },
    }),
  };
}

/**
 * Typed data: its shape checked again (the gateway's bounds: linear in its size), then the rules that read the
 * request as sent, and only then is it hashed. Until it is hashed, a refusal is recorded under the SHA-256 of the
 * request as received; a signature under the digest's.
 */
function decodedTypedData(typedData: TypedDataRequest): DecodedRequest {
  const problem = typedDataProblem(typedData);
  if (problem !== undefined) {
    throw new AppError('VALIDATION_FAILED', problem);
  }
  return {
    facts: evmTypedDataFacts(typedData),
    forWallet: (address) => ({
      audited: Buffer.from(JSON.stringify(typedData)),
      async sign(signWithKey) {
        const digest = await typedDataDigest(typedData);
        const signature = evmSignatureHex(recoverableOf(await signWithKey(digest)));
        return { view: { chain: 'evm', address, signature }, signed: digest };
      },
    }),
  };
}

// Signatures

/**
 * EIP-191 `personal_sign`: keccak256("\x19Ethereum Signed Message:\n" + length + message), secp256k1 with low s,
 * serialized r ‖ s ‖ v with v ∈ {27, 28}, as `0x` + 130 hex (ethers/viem `verifyMessage` accept it).
 */
const EVM_MESSAGES: MessageSigning = {
  payload: (message) => keccak_256(Uint8Array.of(...new TextEncoder().encode(`\x19Ethereum Signed Message:\n${message.length}`), ...message)),
  format: (signature) => evmSignatureHex(recoverableOf(signature)),
};

/** A message signed with a key at hand (test vectors): the same steps as a request's. */
export function signEvm(privateKey: Uint8Array, message: Uint8Array): string {
  return EVM_MESSAGES.format(SIGNATURE_PRIMITIVES.evm(privateKey, EVM_MESSAGES.payload(message)));
}

/** The primitive's r ‖ s ‖ recovery bit, apart (what Ethereum's `v` is made of). */
function recoverableOf(signature: Uint8Array): { r: Uint8Array; s: Uint8Array; recovery: number } {
  return { r: signature.slice(0, 32), s: signature.slice(32, 64), recovery: signature[64] };
}

/** `0x` + r ‖ s ‖ v with v ∈ {27, 28}: 130 hex digits, as `personal_sign` and `eth_signTypedData_v4` answer. */
export function evmSignatureHex({ r, s, recovery }: { r: Uint8Array; s: Uint8Array; recovery: number }): string {
  return `0x${Buffer.from(r).toString('hex')}${Buffer.from(s).toString('hex')}${(27 + recovery).toString(16)}`;
}

// Decoding
function invalid(field: string, error: unknown): AppError {
  return new AppError('VALIDATION_FAILED', `${field}: ${reasonOf(error)}`);
}

/** What an error of ethers' says, without the details it appends (`(argument="…", code=…)`), at most 300 characters. */
function reasonOf(error: unknown): string {
  const reason = error instanceof Error ? (error as { shortMessage?: string }).shortMessage ?? error.message : String(error);
  const short = reason.split(' (')[0];
  return short.length > 300 ? `${short.slice(0, 300)}…` : short;
}

/** An unsigned transaction and its serialization, the pre-image of the hash that is signed (serialized once). */
export interface EvmTransactionToSign {
  transaction: Transaction;
  unsigned: Uint8Array;
}

/** The unsigned transaction: legacy (type 0, EIP-155) when `gasPrice` is given or type 0 asked, else EIP-1559. */
export async function evmTransactionToSign(request: EvmTransactionRequest): Promise<EvmTransactionToSign> {
  const { Transaction } = await ethers();
  const type = request.type ?? (request.gasPrice !== undefined ? 0 : 2);
  const fields: [string, unknown][] = [
    ['type', type],
    ['chainId', request.chainId],
    ['nonce', request.nonce ?? '0'],
    ['to', request.to ?? null],
    ['value', request.value ?? '0'],
    ['data', request.data ?? '0x'],
    ['gasLimit', request.gasLimit ?? '0'],
    ...(type === 0
      ? [['gasPrice', request.gasPrice ?? '0'] as [string, unknown]]
      : [
          ['maxFeePerGas', request.maxFeePerGas ?? '0'] as [string, unknown],
          ['maxPriorityFeePerGas', request.maxPriorityFeePerGas ?? '0'] as [string, unknown],
          ['accessList', request.accessList ?? []] as [string, unknown],
        ]),
  ];
  const transaction = new Transaction();
  for (const [field, value] of fields) {
    try {
      (transaction as unknown as Record<string, unknown>)[field] = field === 'nonce' ? Number(BigInt(value as string)) : value;
    } catch (error) {
      throw invalid(`transaction.${field}`, error);
    }
  }
  if (transaction.chainId === 0n) {
    throw new AppError('VALIDATION_FAILED', 'transaction.chainId: must be a chain id (replay protection needs one)');
  }
  let unsigned: string;
  try {
    // What ethers checks only as it encodes (a priority fee above the max fee, say) is a 400 here, not later.
    unsigned = transaction.unsignedSerialized;
  } catch (error) {
    throw invalid('transaction', error);
  }
  return { transaction, unsigned: bytesOfHex(unsigned) };
}

/**
 * The signed transaction's raw bytes and hash, from the unsigned one and a signature of its `unsignedHash`. The
 * signature is set on `transaction` itself (its one use after this; a copy would parse every field again). The hash
 * is ethers' `hash` (keccak-256 of the signed serialization: for types 0 and 2, which carry no blob sidecar, exactly
 * the raw bytes), taken from the bytes serialized once.
 */
export async function signedEvmTransaction(
  transaction: Transaction,
  signature: { r: Uint8Array; s: Uint8Array; recovery: number },
): Promise<{ raw: string; hash: string }> {
  const { Signature } = await ethers();
  transaction.signature = Signature.from({ r: hex(signature.r), s: hex(signature.s), v: 27 + signature.recovery });
  const raw = transaction.serialized;
  return { raw, hash: hex(keccak_256(bytesOfHex(raw))) };
}

/**
 * The EIP-712 digest of typed data: the types reachable from `primaryType` (as `eth_signTypedData_v4` reads them;
 * `EIP712Domain` is derived from the domain), the domain separator and the message's struct hash. The request has
 * passed `typedDataProblem` (names in the EIP-712 grammar, at most 256 characters, bounded counts and depth), so what
 * ethers is given costs no more than its size; types are looked up as the request's own keys only.
 */
export async function typedDataDigest(request: TypedDataRequest): Promise<Uint8Array> {
  const { TypedDataEncoder, getBytes } = await ethers();
  const types = new Map(Object.entries(request.types).filter(([name]) => name !== EIP712_DOMAIN_TYPE));
  if (!types.has(request.primaryType)) {
    throw new AppError('VALIDATION_FAILED', `primaryType: ${request.primaryType} is not among the types`);
  }
  const reachable = new Set<string>();
  const pending = [request.primaryType];
  while (pending.length > 0) {
    const name = pending.pop() as string;
    const fields = types.get(name);
    if (reachable.has(name) || fields === undefined) {
      continue;
    }
    reachable.add(name);
    for (const field of fields) {
      const base = parseTypedDataType(field.type)?.base;
      if (base !== undefined) {
        pending.push(base);
      }
    }
  }
  const used = Object.fromEntries([...types].filter(([name]) => reachable.has(name)));
  try {
    return getBytes(TypedDataEncoder.hash(withoutPrototypes(request.domain) as typeof request.domain, used, withoutPrototypes(request.message) as typeof request.message));
  } catch (error) {
    throw invalid('typedData', error);
  }
}

/**
 * A copy of JSON whose objects have no prototype: ethers reads a struct's fields as `value[name]`, so a field named
 * `constructor` or `toString` that the caller left out would otherwise be hashed from `Object.prototype` — a value the
 * caller never sent. Missing, it is refused. (Bounded depth: the request passed `typedDataProblem`.)
 */
function withoutPrototypes(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(withoutPrototypes);
  }
  if (typeof value === 'object' && value !== null) {
    return Object.assign(Object.create(null) as object, Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutPrototypes(item)])));
  }
  return value;
}

const hex = (bytes: Uint8Array): string => `0x${Buffer.from(bytes).toString('hex')}`;

// What the policy rules read

/** The most a unit of gas may cost: `gasPrice` (legacy), or the larger of EIP-1559's two fees per gas. */
function highestFeePerGas(transaction: Transaction): bigint {
  const fees = [transaction.gasPrice, transaction.maxFeePerGas, transaction.maxPriorityFeePerGas].filter((fee): fee is bigint => fee !== null);
  return fees.reduce((highest, fee) => (fee > highest ? fee : highest), 0n);
}

/** A domain's `chainId` (uint256: a safe integer, decimal digits or 0x hex); anything else is 400. */
function domainChainId(value: unknown): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) {
    return BigInt(value);
  }
  if (typeof value === 'string' && EVM_QUANTITY.test(value) && BigInt(value) <= UINT256_MAX) {
    return BigInt(value);
  }
  throw new AppError('VALIDATION_FAILED', 'domain.chainId: must be a whole number (uint256), decimal or 0x hex');
}

/**
 * A transaction as the rules read it (`SigningFacts`; amounts in wei, as decimal strings): its `chainId`; `to`, the
 * address called or paid (EIP-55), null for a contract creation; the `value` it moves (also its `nativeValue`); `fee`,
 * the most its fees may burn (gasLimit × the highest fee per gas it offers); `contractCreation`; and `data`, the
 * calldata (`0x` hex) that `evmData` criteria decode. Stored, calldata past 4 KiB is kept as its selector and length
 * only (`storedEvmFacts`).
 */
export interface EvmTransactionFacts extends SigningFacts {
  operation: 'transaction';
  chain: 'evm';
  nativeValue: string;
  chainId: string;
  to: string | null;
  value: string;
  fee: string;
  contractCreation: boolean;
  data: string;
}

/**
 * Typed data as the rules read it (`SigningFacts`; it moves no native value): its `primaryType`; of its `domain`, the
 * `chainId` (decimal, null when it has none), the `verifyingContract` as sent (null when it is not text), and `name`
 * and `version` as sent when present; and its `message`, holding only the fields its types declare (what the
 * signature covers: a key no type names is not signed, so no rule reads it), as sent.
 */
export interface EvmTypedDataFacts extends SigningFacts {
  operation: 'typed-data';
  chain: 'evm';
  nativeValue: '0';
  primaryType: string;
  domain: { chainId: string | null; verifyingContract: string | null; name?: unknown; version?: unknown };
  message: Record<string, unknown>;
}

/** A transaction's facts, read from it as ethers holds it. */
export function evmTransactionFacts(transaction: Transaction): EvmTransactionFacts {
  const value = transaction.value.toString();
  return {
    operation: 'transaction',
    chain: 'evm',
    nativeValue: value,
    chainId: transaction.chainId.toString(),
    to: transaction.to,
    value,
    fee: (transaction.gasLimit * highestFeePerGas(transaction)).toString(),
    contractCreation: transaction.to === null,
    data: transaction.data,
  };
}

/** The most calldata (bytes) a stored transaction's facts keep whole. */
export const STORED_CALLDATA_BYTES = 4_096;

/**
 * Facts as a signing attempt stores them: a transaction's calldata past 4 KiB becomes its `dataSelector`, its
 * `dataLength` (bytes) and `dataTruncated: true`. Replayed over them, an `evmData` criterion still tells a call of
 * another function by its selector (`fails`), but cannot read the parameters (`unknown`). Other facts are kept whole.
 */
export function storedEvmFacts(facts: SigningFacts): SigningFacts {
  const { data, ...rest } = facts;
  if (facts.operation !== 'transaction' || typeof data !== 'string' || data.length <= 2 + 2 * STORED_CALLDATA_BYTES) {
    return facts;
  }
  return { ...rest, dataSelector: data.slice(0, 10).toLowerCase(), dataLength: (data.length - 2) / 2, dataTruncated: true };
}

/** Typed data's facts, read from the request as sent (a domain chain id that is not a whole number: 400). */
export function evmTypedDataFacts({ domain, types, primaryType, message }: TypedDataRequest): EvmTypedDataFacts {
  const chainId = domain.chainId === undefined || domain.chainId === null ? null : domainChainId(domain.chainId).toString();
  const named = (['name', 'version'] as const).filter((key) => Object.hasOwn(domain, key)).map((key) => [key, domain[key]]);
  return {
    operation: 'typed-data',
    chain: 'evm',
    nativeValue: '0',
    primaryType,
    domain: { chainId, verifyingContract: typeof domain.verifyingContract === 'string' ? ((signedValue(domain.verifyingContract, 'address') as string | undefined) ?? null) : null, ...Object.fromEntries(named) },
    message: signedFields(message, primaryType, types) as Record<string, unknown>,
  };
}

/**
 * `value` as its EIP-712 `type` signs it: of a struct, the fields the type declares (each as its own type reads it),
 * of an array each item; anything else as it is (ethers refuses what does not fit when it hashes). Walks the value, as
 * deep as it is (bounded by `typedDataProblem`), never the types' paths.
 */
/**
 * An atomic value as ethers encodes it for its type when it hashes typed data, so a rule reads what is signed, not
 * how it was spelled: an address in lower case (ethers takes it without `0x`, or checksummed), an integer in decimal
 * (ethers takes `"0X10"`, `" 16"`, `"0b10000"`), a bool as its truth (`"false"` is signed as true), bytes in lower-case
 * hex. A value ethers would not encode is left out (a criterion reading it cannot be decided).
 */
function signedValue(value: unknown, type: string): unknown {
  const { getAddress, getBigInt, hexlify, getBytes } = ethersNow();
  try {
    if (type === 'address') {
      return getAddress(value as string).toLowerCase();
    }
    if (/^u?int[0-9]*$/.test(type)) {
      return getBigInt(value as string).toString();
    }
    if (type === 'bool') {
      return Boolean(value);
    }
    if (/^bytes[0-9]*$/.test(type)) {
      return hexlify(getBytes(value as string)).toLowerCase();
    }
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

function signedFields(value: unknown, type: string, types: TypedDataRequest['types']): unknown {
  const parsed = parseTypedDataType(type);
  if (parsed === undefined) {
    return value;
  }
  if (parsed.dimensions > 0) {
    const item = type.slice(0, type.lastIndexOf('['));
    return Array.isArray(value) ? value.map((entry) => signedFields(entry, item, types)) : value;
  }
  const fields = parsed.base !== EIP712_DOMAIN_TYPE && Object.hasOwn(types, parsed.base) ? types[parsed.base] : undefined;
  if (fields === undefined) {
    return signedValue(value, parsed.base);
  }
  if (!isRecord(value)) {
    return value;
  }
  return Object.fromEntries(fields.filter(({ name }) => Object.hasOwn(value, name)).map(({ name, type: field }) => [name, signedFields(value[name], field, types)]));
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isAddress = (value: unknown): value is string => typeof value === 'string' && EVM_ADDRESS.test(value);

/** How a condition compares what it reads: as whole numbers, as text (hex in any case), or as either (typed data's fields). */
type Reading = 'number' | 'text' | 'any';
type Result = CriterionOutcome['result'];
/** What is wrong with a value a condition states for what it reads (`not an address…`), or undefined. */
type ValueCheck = (value: unknown) => string | undefined;

const LIST_OPERATORS: readonly string[] = ['in', 'not in'];
const ORDER_OPERATORS: readonly string[] = ['<=', '>=', '<', '>'];
const NUMBER_OPERATORS: readonly string[] = [...ORDER_OPERATORS, '=='];
const TEXT_OPERATORS: readonly string[] = [...LIST_OPERATORS, '=='];
const ALL_OPERATORS: readonly string[] = [...NUMBER_OPERATORS, ...LIST_OPERATORS];

/** A whole number: decimal digits (a `-` before them allowed), `0x` and hex digits, or a JSON safe integer. */
const WHOLE_NUMBER = /^(-?[0-9]{1,78}|0x[0-9a-fA-F]{1,64})$/;
const HEX = /^0x[0-9a-fA-F]*$/;
const ARRAY_INDEX = /^(0|[1-9][0-9]{0,3})$/;

function wholeNumber(value: unknown): bigint | undefined {
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) ? BigInt(value) : undefined;
  }
  if (typeof value !== 'string') {
    return undefined;
  }
  // Read once: a policy's bounds are compared with every request, and a request's values with every rule.
  if (!readNumbers.has(value)) {
    if (readNumbers.size >= MAX_READ_NUMBERS) {
      readNumbers.clear();
    }
    readNumbers.set(value, WHOLE_NUMBER.test(value) ? BigInt(value) : undefined);
  }
  return readNumbers.get(value);
}

const MAX_READ_NUMBERS = 10_000;
const readNumbers = new Map<string, bigint | undefined>();

/** Whether a condition's value stands for a number when read as either (an address is text, though hex). */
const numberLike = (value: unknown): boolean => wholeNumber(value) !== undefined && !isAddress(value);

/** A value as `same` compares it: its number when it stands for one, and its text (hex in lower case). */
interface Comparable {
  number: bigint | undefined;
  text: string | undefined;
  hex: boolean;
}

function comparable(value: unknown): Comparable {
  const text = typeof value === 'string' ? value : undefined;
  const hex = text !== undefined && HEX.test(text);
  return { number: numberLike(value) ? wholeNumber(value) : undefined, text: hex ? text?.toLowerCase() : text, hex };
}

/** A policy's lists, read once each (a policy's values are compared with every request's). */
const comparableLists = new WeakMap<unknown[], Comparable[]>();

function comparableList(values: unknown[]): Comparable[] {
  let list = comparableLists.get(values);
  if (list === undefined) {
    list = values.map(comparable);
    comparableLists.set(values, list);
  }
  return list;
}

/** Whether `observed` is `listed`: as numbers when both are and the reading allows, else as text, hex in any case. */
function same(observed: Comparable, listed: Comparable, reading: Reading, observedText: string): boolean {
  if (reading !== 'text' && observed.number !== undefined && listed.number !== undefined) {
    return observed.number === listed.number;
  }
  if (reading === 'number' || listed.text === undefined) {
    return false;
  }
  return observed.hex && listed.hex ? observed.text === listed.text : observedText === listed.text && !listed.hex;
}

function ordered(operator: string, observed: bigint, bound: bigint): boolean | undefined {
  return Object.hasOwn(COMPARE_NUMBERS, operator) ? COMPARE_NUMBERS[operator as keyof typeof COMPARE_NUMBERS](observed, bound) : undefined;
}

/** One condition against a single value read from the request (text, a number or a boolean); anything else is unknown. */
function conditionResult(condition: ValueCondition, observed: unknown, reading: Reading): Result {
  if (observed === undefined || observed === null || typeof observed === 'object') {
    return 'unknown';
  }
  const { operator } = condition;
  if (LIST_OPERATORS.includes(operator)) {
    const { values } = condition as ListCondition;
    if (!Array.isArray(values) || (reading === 'number' && wholeNumber(observed) === undefined)) {
      return 'unknown';
    }
    const seen = comparable(String(observed));
    const read = { ...seen, number: numberLike(observed) ? wholeNumber(observed) : undefined };
    return comparableList(values).some((value) => same(read, value, reading, String(observed))) === (operator === 'in') ? 'holds' : 'fails';
  }
  const { value } = condition as NumberCondition;
  if (operator === '==' && (reading === 'text' || (reading === 'any' && !numberLike(value)))) {
    return same(comparable(String(observed)), comparable(value), 'text', String(observed)) ? 'holds' : 'fails';
  }
  const [number, bound] = [wholeNumber(observed), wholeNumber(value)];
  const holds = reading === 'text' || number === undefined || bound === undefined ? undefined : ordered(operator, number, bound);
  return holds === undefined ? 'unknown' : holds ? 'holds' : 'fails';
}

const MAX_OBSERVED = 200;
const MAX_SHOWN = 100;

const clipped = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
/** A value read from the request as an outcome shows it: at most 100 characters. */
const shown = (value: unknown): string => clipped(typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)), MAX_SHOWN);
const outcome = (result: Result, observed: string): CriterionOutcome => ({ result, observed: clipped(observed, MAX_OBSERVED) });
const judged = (condition: ValueCondition, observed: unknown, reading: Reading, label: string, unit = ''): CriterionOutcome =>
  outcome(conditionResult(condition, observed, reading), `${label} ${shown(observed)}${unit}`);

/** One of EVM's criteria against the facts of a request (see `EvmTransactionFacts`, `EvmTypedDataFacts`). */
function evmCriterion(criterion: Criterion, facts: SigningFacts): CriterionOutcome {
  const transaction = facts.chain === 'evm' && facts.operation === 'transaction';
  const typed = facts.chain === 'evm' && facts.operation === 'typed-data';
  const notRead = (): CriterionOutcome => outcome('unknown', `${criterion.type} does not read ${facts.chain} ${facts.operation}`);
  switch (criterion.type) {
    case 'evmAddress':
      if (!transaction) {
        return notRead();
      }
      return typeof facts.to === 'string' ? judged(criterion, facts.to, 'text', 'to') : outcome('unknown', 'a contract creation, which has no to address');
    case 'evmValue':
      return transaction ? judged(criterion, facts.value, 'number', 'value', ' wei') : notRead();
    case 'evmChainId':
      return transaction ? judged(criterion, facts.chainId, 'number', 'chain id') : notRead();
    case 'evmFee':
      return transaction ? judged(criterion, facts.fee, 'number', 'fee', ' wei') : notRead();
    case 'evmContractCreation':
      if (!transaction || typeof facts.contractCreation !== 'boolean') {
        return notRead();
      }
      return facts.contractCreation ? outcome(criterion.allowed ? 'holds' : 'fails', 'a contract creation') : outcome('holds', `a call to ${shown(facts.to)}`);
    case 'evmData':
      return transaction ? dataOutcome(criterion, facts) : notRead();
    case 'evmTypedDataVerifyingContract': {
      const contract = typed ? fieldAt(facts, 'domain.verifyingContract') : undefined;
      if (!isAddress(contract)) {
        return typed ? outcome('unknown', contract === undefined ? 'no domain.verifyingContract' : `domain.verifyingContract ${shown(contract)}, not an address`) : notRead();
      }
      return judged(criterion, contract, 'text', 'verifying contract');
    }
    case 'evmTypedDataPrimaryType':
      return typed ? judged(criterion, facts.primaryType, 'text', 'primary type') : notRead();
    case 'evmTypedDataChainId': {
      const chainId = typed ? fieldAt(facts, 'domain.chainId') : undefined;
      return chainId === undefined ? (typed ? outcome('unknown', 'no domain.chainId') : notRead()) : judged(criterion, chainId, 'number', 'domain chain id');
    }
    case 'evmTypedDataField': {
      const value = typed ? fieldAt(facts, criterion.path) : undefined;
      const path = clipped(String(criterion.path), MAX_SHOWN);
      return value === undefined ? (typed ? outcome('unknown', `no ${path}`) : notRead()) : judged(criterion, value, 'any', path);
    }
    default:
      return notRead();
  }
}

/** The value at a typed-data path (`message.items.0.to`, `domain.name`), or undefined when the request has none. */
function fieldAt(facts: SigningFacts, path: unknown): unknown {
  const [root, ...segments] = typeof path === 'string' ? path.split('.') : [];
  let value: unknown = root === 'message' || root === 'domain' ? facts[root] : undefined;
  for (const segment of segments) {
    if (Array.isArray(value)) {
      value = ARRAY_INDEX.test(segment) ? value[Number(segment)] : undefined;
    } else if (isRecord(value) && Object.hasOwn(value, segment)) {
      value = value[segment];
    } else {
      return undefined;
    }
  }
  return value ?? undefined;
}

// evmData: a call of one function, its parameters decoded with the policy's ABI fragment

type DataCriterion = Extract<Criterion, { type: 'evmData' }>;

/** A policy's function fragment, parsed: what its calldata starts with, and how each parameter is read. */
interface AbiFunction {
  fragment: FunctionFragment;
  /** ethers' coder of the parameters (the selector is compared before: hashing it again on every call costs a keccak) */
  coder: AbiCoder;
  /** when every parameter is static, how each word is padded (see `canonicalWords`) */
  staticWords: WordShape[] | undefined;
  selector: string;
  /** `transfer(address,uint256)` */
  signature: string;
  params: { name: string; type: string; reading: Reading; check: ValueCheck }[];
  /** the parameter each condition's `param` names, found once */
  indexes: Map<string, number | undefined>;
}

export const ABI_FUNCTION_LIMITS = { maxLength: 1_024, maxParams: 16, remembered: 256 } as const;
/** Types a parameter may have: one value each (tuples and arrays are refused: their decoding costs are another matter). */
const ELEMENTARY_TYPE = /^(address|bool|string|bytes[0-9]*|u?int[0-9]*)$/;
const abiFunctions = new LRUCache<string, AbiFunction | string>({ max: ABI_FUNCTION_LIMITS.remembered });

/**
 * A function fragment parsed, or what is wrong with it: remembered by its text (the most recently used 256), so a
 * policy's fragments are parsed once, not on every request.
 */
function abiFunction(text: unknown): AbiFunction | string {
  if (typeof text !== 'string' || text.length > ABI_FUNCTION_LIMITS.maxLength) {
    return `must be a function fragment of at most ${ABI_FUNCTION_LIMITS.maxLength} characters`;
  }
  let known = abiFunctions.get(text);
  if (known === undefined) {
    known = parsedFunction(text);
    abiFunctions.set(text, known);
  }
  return known;
}

function parsedFunction(text: string): AbiFunction | string {
  const { AbiCoder, FunctionFragment } = ethersNow();
  let fragment: FunctionFragment;
  try {
    fragment = FunctionFragment.from(text);
  } catch (error) {
    return `not a function fragment (${reasonOf(error)}), e.g. function transfer(address to, uint256 amount)`;
  }
  const { inputs } = fragment;
  if (inputs.length > ABI_FUNCTION_LIMITS.maxParams) {
    return `${inputs.length} parameters, more than ${ABI_FUNCTION_LIMITS.maxParams}`;
  }
  const complex = inputs.findIndex(({ type }) => !ELEMENTARY_TYPE.test(type));
  if (complex >= 0) {
    return `parameter ${inputs[complex].name || complex} is ${inputs[complex].type}: only address, bool, uintN, intN, bytesN, bytes and string parameters are read`;
  }
  return {
    fragment,
    coder: AbiCoder.defaultAbiCoder(),
    staticWords: staticWordsOf(inputs.map(({ type }) => type)),
    selector: fragment.selector,
    signature: fragment.format('sighash'),
    params: inputs.map(({ name, type }) => ({ name, type, reading: /^u?int/.test(type) ? 'number' : 'text', check: abiValueCheck(type) })),
    indexes: new Map(),
  };
}

/** The parameter a condition names (its name, or its index as decimal digits), or undefined when it names no one parameter. */
function parameterIndex(call: AbiFunction, param: unknown): number | undefined {
  if (typeof param !== 'string') {
    return undefined;
  }
  if (!call.indexes.has(param)) {
    call.indexes.set(param, indexOfParameter(call, param));
  }
  return call.indexes.get(param);
}

function indexOfParameter(call: AbiFunction, param: string): number | undefined {
  if (ARRAY_INDEX.test(param)) {
    return Number(param) < call.params.length ? Number(param) : undefined;
  }
  const named = call.params.flatMap(({ name }, index) => (name === param ? [index] : []));
  return named.length === 1 ? named[0] : undefined;
}

/**
 * The calldata's parameters as text (numbers in decimal, addresses EIP-55, bytes hex), or undefined when it is not
 * exactly the canonical ABI encoding of a call of the function: ethers' decoder is lax (it ignores trailing bytes, and
 * reads a bool of 2 as true or a uint8 of 256 as 0), so what it decoded is encoded again and compared.
 */
function decodedArguments(call: AbiFunction, data: string, facts: SigningFacts): string[] | undefined {
  // Rules that read the same function share one decoding per request: a policy of 50 rules decodes each function once.
  let known = decodings.get(facts);
  if (known === undefined) {
    known = new Map();
    decodings.set(facts, known);
  }
  if (!known.has(call)) {
    known.set(call, strictlyDecoded(call, data));
  }
  return known.get(call);
}

const decodings = new WeakMap<SigningFacts, Map<AbiFunction, string[] | undefined>>();

function strictlyDecoded(call: AbiFunction, data: string): string[] | undefined {
  const params = `0x${data.slice(10)}`;
  // A function of static parameters only: its canonical encoding is one 32-byte word each, padded as its type says,
  // which is checked word by word (encoding again would hash every address a second time for its checksum).
  const canonical = call.staticWords === undefined ? undefined : canonicalWords(call.staticWords, data.slice(10).toLowerCase());
  if (canonical === false) {
    return undefined;
  }
  try {
    if (canonical === true && call.staticWords !== undefined) {
      return wordValues(call.staticWords, data.slice(10).toLowerCase());
    }
    const args = call.coder.decode(call.fragment.inputs, params).toArray(); // read inside `try`: some errors surface only then
    return call.coder.encode(call.fragment.inputs, args) === params.toLowerCase() ? args.map((arg) => String(arg)) : undefined;
  } catch {
    return undefined;
  }
}

/** How each word of a static parameter must be padded: zero bytes at its start (`left`) or end (`right`), or a sign extension. */
type WordShape = { pad: 'left'; bytes: number; address?: true } | { pad: 'right'; bytes: number } | { pad: 'sign'; bytes: number } | { pad: 'bool' };

/** The shapes of a fragment's words when every parameter is static (address, bool, uintN, intN, bytesN), else undefined. */
function staticWordsOf(types: string[]): WordShape[] | undefined {
  const shapes: WordShape[] = [];
  for (const type of types) {
    const sized = /^(u?int|bytes)([0-9]+)$/.exec(type);
    if (type === 'address') {
      shapes.push({ pad: 'left', bytes: 20, address: true });
    } else if (type === 'bool') {
      shapes.push({ pad: 'bool' });
    } else if (sized !== null && sized[1] === 'uint') {
      shapes.push({ pad: 'left', bytes: Number(sized[2]) / 8 });
    } else if (sized !== null && sized[1] === 'int') {
      shapes.push({ pad: 'sign', bytes: Number(sized[2]) / 8 });
    } else if (sized !== null && sized[1] === 'bytes') {
      shapes.push({ pad: 'right', bytes: Number(sized[2]) });
    } else {
      return undefined;
    }
  }
  return shapes;
}

/**
 * The values of canonical static words, as ethers would give them as text but for addresses in lower case (ethers
 * hashes each for its EIP-55 checksum; addresses compare in any case): a number in decimal, `true`/`false`, hex.
 */
function wordValues(shapes: WordShape[], hex: string): string[] {
  return shapes.map((shape, index) => {
    const word = hex.slice(index * 64, index * 64 + 64);
    switch (shape.pad) {
      case 'bool':
        return word.endsWith('1') ? 'true' : 'false';
      case 'left':
        return shape.address === true ? `0x${word.slice(24)}` : BigInt(`0x${word}`).toString();
      case 'sign':
        return BigInt.asIntN(shape.bytes * 8, BigInt(`0x${word}`)).toString();
      case 'right':
        return `0x${word.slice(0, shape.bytes * 2)}`;
    }
  });
}

/** Whether the parameters' hex (lower case) is exactly one canonical word per static parameter. */
function canonicalWords(shapes: WordShape[], hex: string): boolean {
  if (hex.length !== shapes.length * 64 || !/^[0-9a-f]*$/.test(hex)) {
    return false;
  }
  return shapes.every((shape, index) => {
    const word = hex.slice(index * 64, index * 64 + 64);
    switch (shape.pad) {
      case 'bool':
        return /^0{63}[01]$/.test(word);
      case 'left':
        return /^0*$/.test(word.slice(0, 64 - shape.bytes * 2));
      case 'right':
        return /^0*$/.test(word.slice(shape.bytes * 2));
      case 'sign': {
        const negative = parseInt(word[64 - shape.bytes * 2], 16) >= 8;
        return word.slice(0, 64 - shape.bytes * 2) === (negative ? 'f' : '0').repeat(64 - shape.bytes * 2);
      }
    }
  });
}

/**
 * evmData: the transaction calls the function (its selector), its calldata decodes strictly, and every condition on
 * its parameters holds. A call of another function, or a condition that fails, fails (the first such condition is
 * observed); calldata that does not decode, or a condition that cannot be decided, is unknown.
 */
function dataOutcome(criterion: DataCriterion, facts: SigningFacts): CriterionOutcome {
  if (facts.contractCreation === true) {
    return outcome('fails', 'a contract creation, not a function call');
  }
  const call = abiFunction(criterion.function);
  if (typeof call === 'string' || !Array.isArray(criterion.conditions)) {
    return outcome('unknown', typeof call === 'string' ? `function: ${call}` : 'conditions: not a list');
  }
  const data = facts.dataTruncated === true ? undefined : facts.data;
  const selector = facts.dataTruncated === true ? facts.dataSelector : typeof data === 'string' ? data.slice(0, 10) : undefined;
  if (typeof selector !== 'string') {
    return outcome('unknown', 'no calldata');
  }
  if (selector.toLowerCase() !== call.selector) {
    return outcome('fails', selector.length <= 2 ? 'no calldata' : selector.length < 10 ? `calldata ${shown(selector)}, shorter than a selector` : `selector ${selector}`);
  }
  const args = typeof data === 'string' ? decodedArguments(call, data, facts) : undefined;
  if (args === undefined) {
    return outcome('unknown', typeof data === 'string' ? `${call.signature} calldata that is not its exact ABI encoding` : `${call.signature} calldata of ${shown(facts.dataLength)} bytes, not stored`);
  }
  const read: string[] = [];
  let undecided: string | undefined;
  for (const condition of criterion.conditions) {
    const index = parameterIndex(call, condition.param);
    const param = index === undefined ? undefined : call.params[index];
    const seen = index === undefined || param === undefined ? `no parameter ${shown(condition.param)}` : `${param.name || index} ${shown(args[index])}`;
    const result = param === undefined || index === undefined ? 'unknown' : conditionResult(condition, args[index], param.reading);
    if (result === 'fails') {
      return outcome('fails', `${call.signature} ${seen}`);
    }
    undecided ??= result === 'unknown' ? `${call.signature} ${seen}` : undefined;
    read.push(seen);
  }
  return undecided === undefined ? outcome('holds', `${call.signature} ${read.join(', ')}`.trimEnd()) : outcome('unknown', undecided);
}

// What is wrong with a criterion as a policy states it

const chainIdValue: ValueCheck = (value) => (typeof value === 'string' && /^[0-9]{1,78}$/.test(value) ? undefined : 'not a chain id (decimal digits)');
const addressValue: ValueCheck = (value) => (isAddress(value) ? undefined : 'not an address (0x and 40 hex digits)');
const wholeValue: ValueCheck = (value) => (typeof value === 'string' && WHOLE_NUMBER.test(value) ? undefined : 'not a whole number (decimal digits or 0x hex)');
const textValue: ValueCheck = (value) => (typeof value === 'string' ? undefined : 'not text');

/** What a condition on a parameter of an ABI type may state. */
function abiValueCheck(type: string): ValueCheck {
  const size = /^bytes([0-9]+)$/.exec(type)?.[1];
  if (type === 'address') {
    return addressValue;
  }
  if (type === 'bool') {
    return (value) => (value === 'true' || value === 'false' ? undefined : 'not true or false');
  }
  if (/^u?int/.test(type)) {
    return wholeValue;
  }
  if (size !== undefined) {
    const digits = 2 * Number(size);
    return (value) => (typeof value === 'string' && HEX.test(value) && value.length === 2 + digits ? undefined : `not ${type} (0x and ${digits} hex digits)`);
  }
  if (type === 'bytes') {
    return (value) => (typeof value === 'string' && HEX.test(value) && value.length % 2 === 0 ? undefined : 'not bytes (0x and pairs of hex digits)');
  }
  return textValue;
}

/** What a condition may state: its operators, and what each value must be (order operators always take whole numbers). */
interface ConditionFit {
  operators: readonly string[];
  check: ValueCheck;
}

const ADDRESS_LIST: ConditionFit = { operators: LIST_OPERATORS, check: addressValue };
const CHAIN_ID_LIST: ConditionFit = { operators: LIST_OPERATORS, check: chainIdValue };
const TYPE_NAME_LIST: ConditionFit = { operators: LIST_OPERATORS, check: (value) => (typeof value === 'string' && isTypedDataName(value) ? undefined : 'not an EIP-712 type name') };
const AMOUNT: ConditionFit = { operators: NUMBER_OPERATORS, check: wholeValue };
const TYPED_FIELD: ConditionFit = { operators: ALL_OPERATORS, check: textValue };

function conditionProblem(condition: ValueCondition, { operators, check }: ConditionFit, what: string): string | undefined {
  const { operator } = condition;
  if (!operators.includes(operator)) {
    return `operator: ${shown(operator)} does not fit ${what} (${operators.join(', ')})`;
  }
  if (LIST_OPERATORS.includes(operator)) {
    const { values } = condition as ListCondition;
    if (!Array.isArray(values)) {
      return 'values: must be a list';
    }
    const at = values.findIndex((value) => check(value) !== undefined);
    return at < 0 ? undefined : `values.${at}: ${shown(values[at])} is ${check(values[at])}`;
  }
  const { value } = condition as NumberCondition;
  const problem = (ORDER_OPERATORS.includes(operator) ? wholeValue : check)(value);
  return problem === undefined ? undefined : `value: ${shown(value)} is ${problem}`;
}

/** A typed-data path: `message.` or `domain.`, then field names and array indexes, at most 256 characters in 16 segments. */
function pathProblem(path: unknown): string | undefined {
  if (typeof path !== 'string' || path.length > 256) {
    return 'path: must be text of at most 256 characters';
  }
  const segments = path.split('.');
  if ((segments[0] !== 'message' && segments[0] !== 'domain') || segments.length < 2) {
    return `path: ${shown(path)} must start with message. or domain. (message.spender, message.items.0.to, domain.name)`;
  }
  if (segments.length > 16) {
    return `path: ${segments.length} segments, more than 16`;
  }
  const bad = segments.find((segment) => !isTypedDataName(segment) && !ARRAY_INDEX.test(segment));
  return bad === undefined ? undefined : `path: ${shown(bad)} is neither a field name nor an array index`;
}

function dataProblem({ function: text, conditions }: DataCriterion): string | undefined {
  const call = abiFunction(text);
  if (typeof call === 'string') {
    return `function: ${call}`;
  }
  if (!Array.isArray(conditions) || conditions.length > MAX_RULE_CRITERIA) {
    return `conditions: must be a list of at most ${MAX_RULE_CRITERIA}`;
  }
  for (const [at, condition] of conditions.entries()) {
    const index = parameterIndex(call, condition.param);
    if (index === undefined) {
      return `conditions.${at}.param: ${shown(condition.param)} names no one parameter of ${call.signature} (give its name, or its index from 0)`;
    }
    const { name, type, reading, check } = call.params[index];
    const problem = conditionProblem(condition, { operators: reading === 'number' ? ALL_OPERATORS : TEXT_OPERATORS, check }, `${name || index} (${type})`);
    if (problem !== undefined) {
      return `conditions.${at}.${problem}`;
    }
  }
  return undefined;
}

/** What is wrong with one of EVM's criteria beyond its JSON shape (see `ChainSigner.criterionProblem`), or undefined. */
function evmCriterionProblem(criterion: Criterion): string | undefined {
  switch (criterion.type) {
    case 'evmAddress':
    case 'evmTypedDataVerifyingContract':
      return conditionProblem(criterion, ADDRESS_LIST, criterion.type);
    case 'evmChainId':
    case 'evmTypedDataChainId':
      return conditionProblem(criterion, CHAIN_ID_LIST, criterion.type);
    case 'evmTypedDataPrimaryType':
      return conditionProblem(criterion, TYPE_NAME_LIST, criterion.type);
    case 'evmValue':
    case 'evmFee':
      return conditionProblem(criterion, AMOUNT, criterion.type);
    case 'evmContractCreation':
      return typeof criterion.allowed === 'boolean' ? undefined : 'allowed: must be true or false';
    case 'evmData':
      return dataProblem(criterion);
    case 'evmTypedDataField':
      return pathProblem(criterion.path) ?? conditionProblem(criterion, TYPED_FIELD, criterion.path);
    default:
      return undefined;
  }
}

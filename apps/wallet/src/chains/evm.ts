import { AppError, EIP712_DOMAIN_TYPE, EVM_ADDRESS, EVM_QUANTITY, EvmTransactionRequest, SigningPolicy, TypedDataRequest, UINT256_MAX, parseTypedDataType, typedDataProblem } from '@game-wallet/contracts';
import { secp256k1 } from '@noble/curves/secp256k1';
import { keccak_256 } from '@noble/hashes/sha3';
import type { Transaction } from 'ethers';
import { ChainSigner, DecodedRequest, bytesOfHex, decodedMessage, denied } from './chain-signer';

/**
 * EVM chains: messages (EIP-191), transactions (EIP-1559 and legacy) and typed data (EIP-712) — decoded, checked
 * against the game's signing policy and signed. Encoding and hashing are ethers' (RLP, EIP-155/1559, EIP-712); the
 * key itself never reaches ethers: the digest is signed by @noble/curves with the wallet's key bytes. ethers is
 * loaded on the first such request (about 19 MB a replica that never signs one does not carry).
 */
const ethers = (): Promise<typeof import('ethers')> => import('ethers');

export const evm: ChainSigner<EvmTransactionRequest> = {
  chain: 'evm',
  criterion: (criterion) => ({ result: 'unknown', observed: `${criterion.type} is not read yet` }),
  criterionProblem: () => undefined,
  message: (message) => decodedMessage('evm', message, signEvm),
  transaction: async (request) => decodedTransaction(await evmTransactionToSign(request)),
  typedData: decodedTypedData,
};

function decodedTransaction(transaction: Transaction): DecodedRequest {
  const unsigned = bytesOfHex(transaction.unsignedSerialized);
  return {
    facts: { operation: 'transaction', chain: 'evm', nativeValue: null },
    forWallet: (address) => ({
      audited: unsigned,
      check: (policy) => checkEvmTransaction(policy, transaction),
      async sign(withKey) {
        const digest = bytesOfHex(transaction.unsignedHash);
        const signature = await withKey((key) => signEvmDigest(key, digest));
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
    facts: { operation: 'typed-data', chain: 'evm', nativeValue: null },
    forWallet: (address) => ({
      audited: Buffer.from(JSON.stringify(typedData)),
      check: (policy) => checkTypedData(policy, typedData),
      async sign(withKey) {
        const digest = await typedDataDigest(typedData);
        const signature = await withKey((key) => evmSignatureHex(signEvmDigest(key, digest)));
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
export function signEvm(privateKey: Uint8Array, message: Uint8Array): string {
  const prefix = new TextEncoder().encode(`\x19Ethereum Signed Message:\n${message.length}`);
  return evmSignatureHex(signEvmDigest(privateKey, keccak_256(Uint8Array.of(...prefix, ...message))));
}

/** A secp256k1 signature of a 32-byte digest, low s (EIP-2), with the recovery bit Ethereum's `v` is made of. */
export function signEvmDigest(privateKey: Uint8Array, digest: Uint8Array): { r: Uint8Array; s: Uint8Array; recovery: number } {
  const signature = secp256k1.sign(digest, privateKey, { lowS: true });
  const compact = signature.toCompactRawBytes();
  return { r: compact.slice(0, 32), s: compact.slice(32), recovery: signature.recovery };
}

/** `0x` + r ‖ s ‖ v with v ∈ {27, 28}: 130 hex digits, as `personal_sign` and `eth_signTypedData_v4` answer. */
export function evmSignatureHex({ r, s, recovery }: { r: Uint8Array; s: Uint8Array; recovery: number }): string {
  return `0x${Buffer.from(r).toString('hex')}${Buffer.from(s).toString('hex')}${(27 + recovery).toString(16)}`;
}

// Decoding
function invalid(field: string, error: unknown): AppError {
  const reason = error instanceof Error ? (error as { shortMessage?: string }).shortMessage ?? error.message : String(error);
  const short = reason.split(' (')[0];
  return new AppError('VALIDATION_FAILED', `${field}: ${short.length > 300 ? `${short.slice(0, 300)}…` : short}`);
}

/** The unsigned transaction: legacy (type 0, EIP-155) when `gasPrice` is given or type 0 asked, else EIP-1559. */
export async function evmTransactionToSign(request: EvmTransactionRequest): Promise<Transaction> {
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
  try {
    // What ethers checks only as it encodes (a priority fee above the max fee, say) is a 400 here, not later.
    void transaction.unsignedSerialized;
  } catch (error) {
    throw invalid('transaction', error);
  }
  return transaction;
}

/** The signed transaction's raw bytes and hash, from the unsigned one and a signature of its `unsignedHash`. */
export async function signedEvmTransaction(
  transaction: Transaction,
  signature: { r: Uint8Array; s: Uint8Array; recovery: number },
): Promise<{ raw: string; hash: string }> {
  const { Signature } = await ethers();
  const signed = transaction.clone();
  signed.signature = Signature.from({ r: hex(signature.r), s: hex(signature.s), v: 27 + signature.recovery });
  return { raw: signed.serialized, hash: signed.hash as string };
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

// The signing policy

function checkChainId(policy: SigningPolicy, chainId: bigint): void {
  if (policy.evm.chainIds !== null && !policy.evm.chainIds.some((allowed) => BigInt(allowed) === chainId)) {
    throw denied(`chain id ${chainId} is not among the allowed chain ids (evm.chainIds)`);
  }
}

function checkContract(policy: SigningPolicy, address: string, what: string): void {
  if (policy.evm.contracts !== null && !policy.evm.contracts.some((allowed) => allowed.toLowerCase() === address.toLowerCase())) {
    throw denied(`${what} ${address} is not among the allowed addresses (evm.contracts)`);
  }
}

/** evm: the chain id, the value moved, what the fees may burn, and the address called or paid. */
export function checkEvmTransaction(policy: SigningPolicy, transaction: Transaction): void {
  checkChainId(policy, transaction.chainId);
  if (policy.evm.maxValueWei !== null && transaction.value > BigInt(policy.evm.maxValueWei)) {
    throw denied(`the value ${transaction.value} wei is over the limit of ${policy.evm.maxValueWei} (evm.maxValueWei)`);
  }
  if (policy.evm.maxFeeWei !== null) {
    const fee = transaction.gasLimit * highestFeePerGas(transaction);
    if (fee > BigInt(policy.evm.maxFeeWei)) {
      throw denied(`the fees may reach ${fee} wei (gasLimit × fee per gas), over the limit of ${policy.evm.maxFeeWei} (evm.maxFeeWei)`);
    }
  }
  if (policy.evm.contracts !== null) {
    if (transaction.to === null) {
      throw denied('contract creation is not allowed when evm.contracts lists the allowed addresses');
    }
    checkContract(policy, transaction.to, 'the address');
  }
}

/** The most a unit of gas may cost: `gasPrice` (legacy), or the larger of EIP-1559's two fees per gas. */
function highestFeePerGas(transaction: Transaction): bigint {
  const fees = [transaction.gasPrice, transaction.maxFeePerGas, transaction.maxPriorityFeePerGas].filter((fee): fee is bigint => fee !== null);
  return fees.reduce((highest, fee) => (fee > highest ? fee : highest), 0n);
}

/**
 * evm typed data, read from the request as sent, before anything is hashed: the chain its domain names, the contract
 * it is for (`domain.verifyingContract` must be listed when `evm.contracts` is set), and its primary type.
 */
export function checkTypedData(policy: SigningPolicy, typedData: TypedDataRequest): void {
  const { chainId, verifyingContract } = typedData.domain;
  if (chainId !== undefined && chainId !== null) {
    checkChainId(policy, domainChainId(chainId));
  } else if (policy.evm.chainIds !== null) {
    throw denied('typed data without a domain chainId is not allowed when evm.chainIds is set');
  }
  if (policy.evm.contracts !== null) {
    if (typeof verifyingContract !== 'string' || !EVM_ADDRESS.test(verifyingContract)) {
      throw denied('typed data without a domain verifyingContract address is not allowed when evm.contracts is set');
    }
    checkContract(policy, verifyingContract, 'the verifying contract');
  }
  if (policy.evm.typedDataPrimaryTypes !== null && !policy.evm.typedDataPrimaryTypes.includes(typedData.primaryType)) {
    throw denied(`the primary type ${typedData.primaryType} is not among the allowed ones (evm.typedDataPrimaryTypes)`);
  }
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

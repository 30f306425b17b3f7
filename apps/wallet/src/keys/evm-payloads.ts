import { AppError, EIP712_DOMAIN_TYPE, EvmTransactionRequest, TypedDataRequest, parseTypedDataType } from '@game-wallet/contracts';
import type { Transaction } from 'ethers';

/**
 * What the wallet signs on EVM chains besides messages, encoded and hashed by ethers (RLP, EIP-155/1559, EIP-712);
 * the key itself never reaches ethers: the digest is signed by @noble/curves with the wallet's key bytes. ethers is
 * loaded on the first such request (about 19 MB a replica that never signs one does not carry).
 */
const ethers = (): Promise<typeof import('ethers')> => import('ethers');

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

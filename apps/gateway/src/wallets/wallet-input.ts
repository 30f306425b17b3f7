import {
  AppError,
  CHAIN_NAMES,
  ChainName,
  EVM_ADDRESS,
  EVM_QUANTITY,
  FREE_FORM_JSON_LIMITS,
  MAX_SIGN_MESSAGE_BYTES,
  MAX_SIGN_PAYLOAD_BYTES,
  TYPED_DATA_LIMITS,
  TransactionRequest,
  TypedDataRequest,
  UINT256_MAX,
  UINT64_MAX,
  typedDataProblem,
} from '@game-wallet/contracts';
import { z } from 'zod';
import { parseBody, parseQuery } from '../validation';

export interface WalletQuery {
  includeProfile: boolean;
  chain?: ChainName;
}

export const walletQuery = z.object({
  include: z.enum(['profile'], { error: 'may only be "profile"' }).optional().describe('`profile` adds the wallet\'s profile'),
  chain: z.enum(CHAIN_NAMES, { error: `must be one of ${CHAIN_NAMES.join(', ')}` }).optional().describe('only this chain\'s address'),
});

/** SPEC §4.2: `include` may only be `profile`, `chain` only evm/sol/sui; any other value → 400 `INVALID_QUERY`. */
export function parseWalletQuery(query: Record<string, unknown> | undefined): WalletQuery {
  const { include, chain } = parseQuery(walletQuery, query);
  return { includeProfile: include === 'profile', chain };
}

export const signBody = z
  .object({
    chain: z.enum(CHAIN_NAMES, { error: `must be one of ${CHAIN_NAMES.join(', ')}` }),
    message: z.string({ error: 'must be a string' }),
    encoding: z.enum(['utf8', 'hex', 'base64'], { error: 'must be utf8, hex or base64' }).optional(),
  })
  .strict();

const HEX = /^(0x)?((?:[0-9a-fA-F]{2})*)$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A message as `/sign` takes it with `encoding: base64`: at most 4 KiB once decoded (a policy's dry run sends it so). */
export const base64Message = z
  .string({ error: 'must be a base64 string' })
  .regex(BASE64, 'must be base64')
  .refine((value) => Buffer.byteLength(value, 'base64') <= MAX_SIGN_MESSAGE_BYTES, `must be at most ${MAX_SIGN_MESSAGE_BYTES} bytes once decoded`)
  .describe(`the message in base64, at most ${MAX_SIGN_MESSAGE_BYTES} bytes once decoded`);

/** SPEC §4.5: the chain and the decoded message (at most 4 KiB); malformed hex or base64 → 400 `VALIDATION_FAILED`. */
export function parseSignBody(raw: unknown): { chain: ChainName; message: Buffer } {
  const { chain, message, encoding = 'utf8' } = parseBody(signBody, raw);
  let bytes: Buffer;
  if (encoding === 'hex') {
    const match = HEX.exec(message);
    if (!match) {
      throw new AppError('VALIDATION_FAILED', 'message is not valid hex (an even number of 0-9a-f digits, optionally after 0x)');
    }
    bytes = Buffer.from(match[2], 'hex');
  } else if (encoding === 'base64') {
    if (!BASE64.test(message)) {
      throw new AppError('VALIDATION_FAILED', 'message is not valid base64');
    }
    bytes = Buffer.from(message, 'base64');
  } else {
    bytes = Buffer.from(message, 'utf8');
  }
  if (bytes.length > MAX_SIGN_MESSAGE_BYTES) {
    throw new AppError('VALIDATION_FAILED', `message is longer than ${MAX_SIGN_MESSAGE_BYTES} bytes once decoded`);
  }
  return { chain, message: bytes };
}

/**
 * A non-negative whole number: decimal or `0x` hex digits (a JSON number too, when it is a safe integer), from `min` to
 * `max`: the range of the field in the transaction, so nothing out of range reaches the encoder.
 */
const quantity = (max: bigint, range: string, min = 0n) =>
  z
    .union([z.string().regex(EVM_QUANTITY, 'must be a whole number, decimal or 0x hex'), z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)])
    .transform(String)
    .refine((value) => BigInt(value) >= min && BigInt(value) <= max, `must be ${range}`);
const isQuantity = (value: unknown): value is string => typeof value === 'string' && EVM_QUANTITY.test(value);
/** wei amounts and fees per gas: uint256 */
const amount = quantity(UINT256_MAX, 'at most 2^256-1 (uint256)');
/** gas: uint64 */
const gas = quantity(UINT64_MAX, 'at most 2^64-1 (uint64)');
const address = z.string().regex(EVM_ADDRESS, 'must be a 0x-prefixed 20-byte hex address');
const hexBytes = z
  .string()
  .regex(/^0x([0-9a-fA-F]{2})*$/, 'must be 0x-prefixed hex bytes')
  .refine((value) => (value.length - 2) / 2 <= MAX_SIGN_PAYLOAD_BYTES, `must be at most ${MAX_SIGN_PAYLOAD_BYTES} bytes`);

export const evmTransaction = z
  .object({
    type: z.union([z.literal(0), z.literal(2)], { error: 'must be 0 (legacy) or 2 (EIP-1559)' }).optional(),
    chainId: quantity(UINT64_MAX, 'a chain id from 1 to 2^64-1 (replay protection needs one)', 1n).describe('1 to 2^64-1'),
    // EIP-2681 bounds a nonce by 2^64-1; the encoder keeps it as a JavaScript number, and no account comes near 2^53.
    nonce: quantity(BigInt(Number.MAX_SAFE_INTEGER), 'at most 2^53-1').optional().describe('0 to 2^53-1'),
    to: address.nullable().optional().describe('absent or null: contract creation'),
    value: amount.optional().describe('wei, uint256'),
    data: hexBytes.optional(),
    gasLimit: gas.optional().describe('uint64'),
    gasPrice: amount.optional().describe('wei per gas, uint256; legacy transactions'),
    maxFeePerGas: amount.optional().describe('wei per gas, uint256'),
    maxPriorityFeePerGas: amount.optional().describe('wei per gas, uint256'),
    accessList: z
      .array(z.object({ address, storageKeys: z.array(z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be 32-byte hex')) }).strict())
      .optional(),
  })
  .strict()
  .refine(
    // Runs even when a field failed its own check (zod still calls it), so only compares two well-formed fees.
    ({ maxFeePerGas: max, maxPriorityFeePerGas: priority }) => !isQuantity(max) || !isQuantity(priority) || BigInt(priority) <= BigInt(max),
    { message: 'must not be more than maxFeePerGas', path: ['maxPriorityFeePerGas'] },
  );

/** A serialized transaction in base64, at most 64 KiB once decoded. */
export const serializedTransaction = z
  .string({ error: 'must be a base64 string' })
  .regex(BASE64, 'must be base64')
  .refine((value) => Math.floor((value.length * 3) / 4) <= MAX_SIGN_PAYLOAD_BYTES + 2, `must be at most ${MAX_SIGN_PAYLOAD_BYTES} bytes once decoded`)
  .refine((value) => value.length > 0, 'must not be empty');

export const signTransactionBody = z.discriminatedUnion(
  'chain',
  [
    z.object({ chain: z.literal('evm'), transaction: evmTransaction }).strict(),
    z.object({ chain: z.literal('sol'), transaction: serializedTransaction.describe('a legacy or v0 transaction in wire format (signature slots, then the message), unsigned or partly signed') }).strict(),
    z.object({ chain: z.literal('sui'), transaction: serializedTransaction.describe('TransactionData in BCS, as `Transaction.build()` returns it') }).strict(),
  ],
  { error: `chain: must be one of ${CHAIN_NAMES.join(', ')}` },
);

/** SPEC §11: a transaction to sign: EVM fields, or a Solana or Sui transaction in base64. */
export function parseSignTransactionBody(raw: unknown): TransactionRequest {
  return parseBody(signTransactionBody, raw);
}

/** Free-form JSON: its bounds are checked with the rest of the typed data, by {@link typedDataProblem}. */
const freeFormObject = () =>
  z
    .record(z.string(), z.unknown(), { error: 'must be a JSON object' })
    .describe(
      `at most ${FREE_FORM_JSON_LIMITS.maxDepth} levels of objects and arrays, ${FREE_FORM_JSON_LIMITS.maxEntries} entries in one, ` +
        `${FREE_FORM_JSON_LIMITS.maxValues} values in all; strings well-formed Unicode`,
    );

export const signTypedDataBody = z
  .object({
    domain: freeFormObject(),
    types: z
      .record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }).strict()), { error: 'must map type names to their fields' })
      .describe(
        `at most ${TYPED_DATA_LIMITS.maxTypes} types of at most ${TYPED_DATA_LIMITS.maxFields} fields; names and types follow the EIP-712 grammar ` +
          `(^[A-Za-z_$][A-Za-z0-9_$]*(\\[\\d*\\])*$, at most ${TYPED_DATA_LIMITS.maxNameLength} characters and ${TYPED_DATA_LIMITS.maxDimensions} array dimensions)`,
      ),
    primaryType: z.string().min(1).describe('one of the types (not EIP712Domain)'),
    message: freeFormObject(),
  })
  .strict()
  .superRefine((value, context) => {
    // Names, counts and the primary type, before anything is hashed (the wallet checks it again).
    const problem = typedDataProblem(value);
    if (problem !== undefined) {
      context.addIssue({ code: 'custom', message: problem });
    }
  });

/** SPEC §11: EIP-712 typed data, as `eth_signTypedData_v4` takes it, within the bounds of {@link typedDataProblem}. */
export function parseSignTypedDataBody(raw: unknown): TypedDataRequest {
  return parseBody(signTypedDataBody, raw);
}

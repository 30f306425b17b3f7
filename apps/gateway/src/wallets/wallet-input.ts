import { AppError, CHAIN_NAMES, ChainName, MAX_SIGN_MESSAGE_BYTES } from '@game-wallet/contracts';
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

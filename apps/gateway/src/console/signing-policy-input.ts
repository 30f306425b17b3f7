import { EVM_ADDRESS, SIGNING_OPERATIONS, SigningPolicy, isTypedDataName } from '@game-wallet/contracts';
import { z } from 'zod';
import { parseBody } from '../validation';

const operations = z.array(z.enum(SIGNING_OPERATIONS, { error: `must be ${SIGNING_OPERATIONS.join(', ')}` })).max(SIGNING_OPERATIONS.length);
const decimal = z.string().regex(/^[0-9]{1,78}$/, 'must be a whole number in decimal digits');
const anyOr = <T extends z.ZodType>(list: T) => list.nullable().describe('null: any');
/** A limit added after the policy's first version: absent means `null` (no limit), so earlier clients keep working. */
const newLimit = <T extends z.ZodType>(limit: T) => limit.nullable().optional().transform((value) => value ?? null).describe('null or absent: no limit');

/**
 * SPEC §11: a game's whole signing policy (PUT replaces it). Every field of the first version is required, `null`
 * meaning "any"; the limits added since may be left out (no limit).
 */
export const signingPolicyBody = z
  .object({
    operations: z.object({ apiKey: operations, profile: operations }).strict(),
    evm: z
      .object({
        chainIds: anyOr(z.array(decimal).max(100)),
        maxValueWei: anyOr(decimal),
        maxFeeWei: newLimit(decimal),
        contracts: anyOr(z.array(z.string().regex(EVM_ADDRESS, 'must be 0x-prefixed 20-byte hex addresses')).max(1000)),
        typedDataPrimaryTypes: newLimit(z.array(z.string().refine(isTypedDataName, 'must be EIP-712 struct names')).max(100)),
      })
      .strict(),
    sol: z
      .object({
        programs: anyOr(z.array(z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'must be base58 program ids')).max(1000)),
        maxLamports: anyOr(decimal),
        maxPriorityMicroLamports: newLimit(decimal),
      })
      .strict(),
    sui: z
      .object({
        packages: anyOr(z.array(z.string().regex(/^0x[0-9a-fA-F]{1,64}$/, 'must be 0x-prefixed hex package ids')).max(1000)),
        allowTransfers: z.boolean({ error: 'must be true or false' }),
        maxGasBudget: newLimit(decimal),
      })
      .strict(),
  })
  .strict();

export function parseSigningPolicy(raw: unknown): SigningPolicy {
  return parseBody(signingPolicyBody, raw);
}

import {
  AppError,
  CHAIN_NAMES,
  EVM_ADDRESS,
  MAX_CRITERION_LIST,
  MAX_POLICY_RULES,
  MAX_RULE_CRITERIA,
  PolicyEvaluationRequest,
  RULE_ID,
  SIGNING_OPERATIONS,
  SOL_PROGRAMS,
  SigningPolicy,
  SigningPolicyInput,
  SigningRules,
  VELOCITY_WINDOW_SECONDS,
  isTypedDataName,
  isUuid,
} from '@game-wallet/contracts';
import { z } from 'zod';
import { parseBody, withoutControlCharacters } from '../validation';
import { base64Message, evmTransaction, serializedTransaction, signTypedDataBody } from '../wallets/wallet-input';

const operations = z.array(z.enum(SIGNING_OPERATIONS, { error: `must be ${SIGNING_OPERATIONS.join(', ')}` })).max(SIGNING_OPERATIONS.length);
const decimal = z.string({ error: 'must be a string of decimal digits' }).regex(/^[0-9]{1,78}$/, 'must be a whole number in decimal digits');
const BASE58_ID = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const anyOr = <T extends z.ZodType>(list: T) => list.nullable().describe('null: any');
/** A limit added after the policy's first version: absent means `null` (no limit), so earlier clients keep working. */
const newLimit = <T extends z.ZodType>(limit: T) => limit.nullable().optional().transform((value) => value ?? null).describe('null or absent: no limit');

/**
 * SPEC §11, the first shape (deprecated: PUT converts it to rules): a game's whole signing policy. Every field of its
 * first version is required, `null` meaning "any"; the limits added since may be left out (no limit).
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
        programs: anyOr(z.array(z.string().regex(BASE58_ID, 'must be base58 program ids')).max(1000)),
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

// ---- policy v2: ordered rules ----

/** Text a rule states (no control characters: nothing a person cannot read, nothing the database cannot store). */
const text = (max: number) =>
  z
    .string({ error: 'must be a string' })
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine(...withoutControlCharacters);
const list = <T extends z.ZodType>(item: T, max = MAX_CRITERION_LIST) => z.array(item, { error: 'must be a list' }).max(max, `must have at most ${max} items`);
const flag = z.boolean({ error: 'must be true or false' });
const evmAddress = z.string({ error: 'must be a string' }).regex(EVM_ADDRESS, 'must be a 0x-prefixed 20-byte hex address');
const base58Id = z.string({ error: 'must be a string' }).regex(BASE58_ID, 'must be a base58 id of 32 to 44 characters');
const uuid = z.string({ error: 'must be a string' }).refine(isUuid, 'must be a UUID');
const typeName = z.string({ error: 'must be a string' }).refine(isTypedDataName, 'must be an EIP-712 struct name');

const NUMBER_OPERATORS = ['<=', '>=', '<', '>', '=='] as const;
const LIST_OPERATORS = ['in', 'not in'] as const;
const numberOperator = z.enum(NUMBER_OPERATORS, { error: `must be one of ${NUMBER_OPERATORS.join(', ')}` });
const listOperator = z.enum(LIST_OPERATORS, { error: `must be one of ${LIST_OPERATORS.join(', ')}` });

/** `{type, operator, value}`: a number compared (decimal digits: wei, lamports, MIST, bytes…). */
const numberCriterion = <T extends string>(type: T, description: string) =>
  z.object({ type: z.literal(type), operator: numberOperator, value: decimal }).strict().describe(description);
/** `{type, operator: in | not in, values}`. */
const listCriterion = <T extends string>(type: T, value: z.ZodType<string>, description: string) =>
  z.object({ type: z.literal(type), operator: listOperator, values: list(value) }).strict().describe(description);
const allowedCriterion = <T extends string>(type: T, description: string) => z.object({ type: z.literal(type), allowed: flag }).strict().describe(description);

/**
 * A decoded value compared (an ABI parameter, a typed-data field): a number (decimal or 0x hex) with an order or `==`,
 * or text (an address, a string) `==`, `in` or `not in` a list. Which values fit the parameter's type is the wallet's
 * check.
 */
const conditionValue = text(1024);
const valueCondition = <S extends z.ZodRawShape>(shape: S) =>
  z.discriminatedUnion(
    'operator',
    [
      z.object({ ...shape, operator: numberOperator, value: conditionValue }).strict(),
      z.object({ ...shape, operator: listOperator, values: list(conditionValue) }).strict(),
    ],
    { error: `must be one of ${[...NUMBER_OPERATORS, ...LIST_OPERATORS].join(', ')}` },
  );

const solInstructionAllowance = z
  .object({
    program: z
      .string({ error: 'must be a string' })
      .refine((value) => (SOL_PROGRAMS as readonly string[]).includes(value) || BASE58_ID.test(value), `must be ${SOL_PROGRAMS.join(', ')} or a base58 program id`)
      .describe(`a known program (${SOL_PROGRAMS.join(', ')}) or a base58 program id`),
    instruction: z
      .string({ error: 'must be a string' })
      .regex(/^[a-z][A-Za-z0-9]{0,63}$/, "must be an instruction's name in camelCase (e.g. transferChecked)")
      .optional()
      .describe("a known program's instruction, camelCase as its client names it; absent: any instruction of the program"),
    mints: list(base58Id).optional(),
    maxAmount: decimal.optional().describe('base units'),
  })
  .strict();

const velocityCriterion = z
  .object({
    type: z.literal('velocity'),
    scope: z.enum(['wallet', 'profile', 'game'], { error: 'must be wallet, profile or game' }),
    windowSeconds: z
      .number({ error: 'must be a number of seconds' })
      .int('must be a whole number of seconds')
      .min(VELOCITY_WINDOW_SECONDS.min, `must be at least ${VELOCITY_WINDOW_SECONDS.min}`)
      .max(VELOCITY_WINDOW_SECONDS.max, `must be at most ${VELOCITY_WINDOW_SECONDS.max} (30 days)`),
    maxCount: z.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(1_000_000_000, 'must be at most 1000000000').optional(),
    maxValue: decimal.optional().describe("the chain's native units (wei, lamports, MIST)"),
  })
  .strict()
  .refine((criterion) => criterion.maxCount !== undefined || criterion.maxValue !== undefined, 'needs maxCount, maxValue or both')
  .describe('At most maxCount accepted signatures and/or maxValue native units moved per scope in the last windowSeconds (accept rules only).');

/** Every criterion of `Criterion` (libs/contracts signing-rules.ts), with its exact fields. */
export const criterionBody = z.discriminatedUnion(
  'type',
  [
    // EVM transactions
    listCriterion('evmAddress', evmAddress, 'The address called or paid (`to`), in or not in a list.'),
    numberCriterion('evmValue', 'The value (wei).'),
    listCriterion('evmChainId', decimal, 'The chain id.'),
    numberCriterion('evmFee', 'The most the fees may reach (wei): gas limit × max fee per gas (or gas price).'),
    allowedCriterion('evmContractCreation', 'Whether the transaction may create a contract (no `to`).'),
    z
      .object({
        type: z.literal('evmData'),
        function: text(1024).describe('a human-readable ABI function fragment, e.g. `function transfer(address to, uint256 amount)`'),
        conditions: list(valueCondition({ param: text(128).describe("the parameter's name, or its index from 0") }), MAX_RULE_CRITERIA),
      })
      .strict()
      .describe('A call of this function, its parameters meeting every condition.'),
    // EVM typed data
    listCriterion('evmTypedDataVerifyingContract', evmAddress, "The domain's verifying contract."),
    listCriterion('evmTypedDataPrimaryType', typeName, 'The primary type.'),
    listCriterion('evmTypedDataChainId', decimal, "The domain's chain id."),
    valueCondition({
      type: z.literal('evmTypedDataField'),
      path: text(256).describe('`message.` or `domain.`, then field names and array indexes (`message.items.0.to`)'),
    }).describe('A field of the typed data compared.'),
    // messages
    z
      .object({ type: z.literal('messagePattern'), pattern: text(512).describe('a regular expression (RE2 syntax)'), match: flag })
      .strict()
      .describe('Whether the message (UTF-8) matches the pattern.'),
    numberCriterion('messageLength', 'The length of the message in bytes.'),
    // Solana transactions
    listCriterion('solProgram', base58Id, 'Every program the transaction calls.'),
    z.object({ type: z.literal('solInstruction'), allowed: list(solInstructionAllowance) }).strict().describe('Every instruction is one of these.'),
    numberCriterion('solLamports', 'The lamports the transaction moves.'),
    numberCriterion('solComputeUnitPrice', 'The compute unit price (micro-lamports).'),
    numberCriterion('solPriorityFee', 'The priority fee (micro-lamports).'),
    // Sui transactions
    listCriterion('suiMoveCall', text(200), 'Every Move call: `0x<package>::<module>::<function>`, `*` as module or function.'),
    allowedCriterion('suiTransfers', 'Whether coins or objects may be transferred.'),
    numberCriterion('suiGasBudget', 'The gas budget (MIST).'),
    allowedCriterion('suiPublish', 'Whether Publish or Upgrade commands are allowed.'),
    // any operation
    velocityCriterion,
  ],
  { error: 'not a criterion type' },
);

export const policyRuleBody = z
  .object({
    id: z.string({ error: 'must be a string' }).regex(RULE_ID, 'must be 1 to 64 letters, digits, _, . or -, starting with a letter or digit'),
    description: z.string({ error: 'must be a string' }).max(500, 'must be at most 500 characters').refine(...withoutControlCharacters).optional(),
    action: z.enum(['accept', 'reject'], { error: 'must be accept or reject' }),
    operation: z.enum(SIGNING_OPERATIONS, { error: `must be one of ${SIGNING_OPERATIONS.join(', ')}` }),
    chains: z
      .array(z.enum(CHAIN_NAMES, { error: `must be one of ${CHAIN_NAMES.join(', ')}` }))
      .min(1, 'must name a chain (leave it out for every chain)')
      .max(CHAIN_NAMES.length)
      .optional()
      .describe('absent: every chain'),
    credentials: z
      .object({
        kinds: z
          .array(z.enum(['apiKey', 'profile'], { error: 'must be apiKey or profile' }))
          .min(1, 'must name a kind (leave it out for every kind)')
          .max(2)
          .optional(),
        apiKeyIds: z.array(uuid).min(1, 'must name a key (leave it out for every key)').max(100, 'must have at most 100 items').optional(),
      })
      .strict()
      .optional()
      .describe('absent: every credential'),
    criteria: list(criterionBody, MAX_RULE_CRITERIA).describe('all must hold; none: the rule matches on operation, chain and credential alone'),
  })
  .strict();

/** A policy as ordered rules: the first rule that matches decides; none that matches refuses. */
export const signingRulesBody = z.object({ rules: list(policyRuleBody, MAX_POLICY_RULES) }).strict();

/** `PUT …/signing-policy`, as its document shows it: the rules, or the first shape (deprecated, converted to rules). */
export const putSigningPolicyBody = z.xor([
  signingRulesBody.describe('The policy as ordered rules.'),
  signingPolicyBody.meta({ deprecated: true }).describe('Deprecated: the first policy shape (operations per credential kind, limits per chain), converted to the rules that decide as it did.'),
]);

/** The body of `PUT …/signing-policy`: `{rules}` when it has `rules`, else the first shape. */
export function parseSigningPolicyInput(raw: unknown): SigningPolicyInput {
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw) && 'rules' in raw) {
    return parseBody(signingRulesBody, raw);
  }
  return parseSigningPolicy(raw);
}

export function parseSigningPolicy(raw: unknown): SigningPolicy {
  return parseBody(signingPolicyBody, raw);
}

export function parseSigningRules(raw: unknown): SigningRules {
  return parseBody(signingRulesBody, raw);
}

// ---- dry run, replay ----

const evaluationFields = {
  credential: z
    .object({ kind: z.enum(['apiKey', 'profile'], { error: 'must be apiKey or profile' }), apiKeyId: uuid.optional().describe('the API key, for rules that name keys') })
    .strict(),
  walletId: uuid.optional().describe("whose velocity counts are read (the wallet's, its player's, the game's); absent: velocity is not read"),
  policy: z.enum(['active', 'draft'], { error: 'must be active or draft' }).optional().describe('absent: the active policy'),
};
const chain = z.enum(CHAIN_NAMES, { error: `must be one of ${CHAIN_NAMES.join(', ')}` });

/**
 * `POST …/signing-policy/evaluate`: the request as a signing route would take it. `payload` is what that route signs:
 * a message in base64 (`/sign`), a transaction (`/sign-transaction`: EVM's fields, or base64 for sol and sui) or
 * typed data (`/sign-typed-data`), checked by the route's own schema.
 */
export const evaluationBody = z.discriminatedUnion(
  'operation',
  [
    z.object({ operation: z.literal('message'), chain, payload: base64Message, ...evaluationFields }).strict(),
    z.discriminatedUnion(
      'chain',
      [
        z.object({ operation: z.literal('transaction'), chain: z.literal('evm'), payload: evmTransaction, ...evaluationFields }).strict(),
        z.object({ operation: z.literal('transaction'), chain: z.literal('sol'), payload: serializedTransaction.describe('a Solana transaction in wire format, base64'), ...evaluationFields }).strict(),
        z.object({ operation: z.literal('transaction'), chain: z.literal('sui'), payload: serializedTransaction.describe('Sui TransactionData in BCS, base64'), ...evaluationFields }).strict(),
      ],
      { error: `must be one of ${CHAIN_NAMES.join(', ')}` },
    ),
    z.object({ operation: z.literal('typed-data'), chain: z.literal('evm', { error: 'typed data is signed on evm only' }), payload: signTypedDataBody, ...evaluationFields }).strict(),
  ],
  { error: `must be one of ${SIGNING_OPERATIONS.join(', ')}` },
);

export function parseEvaluation(raw: unknown): PolicyEvaluationRequest {
  return parseBody(evaluationBody, raw);
}

export const replayBody = z
  .object({ since: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time, e.g. 2026-11-01T00:00:00Z' }).optional().describe('only attempts since then; absent: the last 100,000') })
  .strict();

export function parseReplay(raw: unknown): { since?: string } {
  return parseBody(replayBody, raw);
}

// ---- versions as HTTP validators ----

/** A version as its strong ETag: `"3"`. */
export const etagOf = (version: number): string => `"${version}"`;

/**
 * `If-Match`: absent or `*` (any version), or the strong ETag of one version (`"3"`) — what GET answered. Anything
 * else (a weak ETag, a list, an unquoted number) is 400.
 */
export function parseIfMatch(header: string | string[] | undefined): number | undefined {
  if (header === undefined) {
    return undefined;
  }
  const value = (Array.isArray(header) ? header.join(',') : header).trim();
  if (value === '*') {
    return undefined;
  }
  const match = /^"(0|[1-9][0-9]{0,14})"$/.exec(value);
  if (match === null) {
    throw new AppError('VALIDATION_FAILED', 'If-Match: must be the ETag a GET answered (a version in quotes, e.g. "3") or *');
  }
  return Number(match[1]);
}

import type { ChainName, SigningOperation, SigningPolicy } from './wallet';

/**
 * A game's signing policy as ordered rules (SPEC §11, policy v2). The first rule whose operation, chain and
 * credential match and whose criteria all hold decides, `accept` or `reject`; when none does, the request is refused.
 * A criterion that cannot be decided (what it reads cannot be decoded, or is not in the request) never helps a
 * signature: an accept rule with it does not match, a reject rule with it does.
 */
export interface SigningRules {
  rules: PolicyRule[];
}

export const MAX_POLICY_RULES = 100;
export const MAX_RULE_CRITERIA = 20;
/** The longest list a criterion may hold (addresses, programs, targets, chain ids…). */
export const MAX_CRITERION_LIST = 1_000;
export const RULE_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export interface PolicyRule {
  /** unique in the policy: 1–64 letters, digits, `_`, `.`, `-` */
  id: string;
  description?: string;
  action: 'accept' | 'reject';
  operation: SigningOperation;
  /** the chains it applies to; absent: every chain (typed data is EVM's only) */
  chains?: ChainName[];
  /** the credentials it applies to; absent: every credential */
  credentials?: { kinds?: CredentialKind[]; apiKeyIds?: string[] };
  /** all must hold (none: the rule matches on operation, chain and credential alone) */
  criteria: Criterion[];
}

export type CredentialKind = 'apiKey' | 'profile';

/** A number compared: decimal digits (wei, lamports, MIST, token base units…). */
export type NumberOperator = '<=' | '>=' | '<' | '>' | '==';
export type ListOperator = 'in' | 'not in';

export interface NumberCondition {
  operator: NumberOperator;
  value: string;
}

export interface ListCondition {
  operator: ListOperator;
  values: string[];
}

/** A decoded value compared: a number (decimal, or 0x hex), an address or string in or not in a list, or equal. */
export type ValueCondition = NumberCondition | ListCondition;

export type Criterion =
  // EVM transactions
  | ({ type: 'evmAddress' } & ListCondition)
  | ({ type: 'evmValue' } & NumberCondition)
  | ({ type: 'evmChainId' } & ListCondition)
  | ({ type: 'evmFee' } & NumberCondition)
  | { type: 'evmContractCreation'; allowed: boolean }
  | { type: 'evmData'; function: string; conditions: ({ param: string } & ValueCondition)[] }
  // EVM typed data
  | ({ type: 'evmTypedDataVerifyingContract' } & ListCondition)
  | ({ type: 'evmTypedDataPrimaryType' } & ListCondition)
  | ({ type: 'evmTypedDataChainId' } & ListCondition)
  | ({ type: 'evmTypedDataField'; path: string } & ValueCondition)
  // messages
  | { type: 'messagePattern'; pattern: string; match: boolean }
  | ({ type: 'messageLength' } & NumberCondition)
  // Solana transactions
  | ({ type: 'solProgram' } & ListCondition)
  | { type: 'solInstruction'; allowed: SolInstructionAllowance[] }
  | ({ type: 'solLamports' } & NumberCondition)
  | ({ type: 'solComputeUnitPrice' } & NumberCondition)
  | ({ type: 'solPriorityFee' } & NumberCondition)
  // Sui transactions
  | ({ type: 'suiMoveCall' } & ListCondition)
  | { type: 'suiTransfers'; allowed: boolean }
  | ({ type: 'suiGasBudget' } & NumberCondition)
  | { type: 'suiPublish'; allowed: boolean }
  // any operation
  | VelocityCriterion;

export type CriterionType = Criterion['type'];

/**
 * At most `maxCount` accepted signatures and/or `maxValue` of the chain's native unit moved (wei, lamports, MIST) per
 * wallet, profile or game in the last `windowSeconds`; counted when a signature is made, across replicas. Only in
 * accept rules.
 */
export interface VelocityCriterion {
  type: 'velocity';
  scope: 'wallet' | 'profile' | 'game';
  windowSeconds: number;
  maxCount?: number;
  maxValue?: string;
}

export const VELOCITY_WINDOW_SECONDS = { min: 60, max: 30 * 24 * 3_600 } as const;

/** Solana programs known by name: their instructions are read with the program's own client. */
export const SOL_PROGRAMS = ['system', 'spl-token', 'token-2022', 'associated-token', 'memo', 'compute-budget'] as const;
export type SolProgramName = (typeof SOL_PROGRAMS)[number];

/**
 * One kind of instruction a Solana transaction may hold: a known program's instruction (by name, camelCase as the
 * program's client names it, e.g. `transferSol`, `transferChecked`, `createAssociatedTokenIdempotent`), or any
 * instruction of a program given by id. Token transfers may be bounded by mint and amount (base units).
 */
export interface SolInstructionAllowance {
  program: SolProgramName | string;
  /** absent: any instruction of the program */
  instruction?: string;
  mints?: string[];
  maxAmount?: string;
}

/** Which operations and chains a criterion reads; a rule's criteria must fit its operation. */
export const CRITERION_SCOPE: Record<CriterionType, { operations: SigningOperation[]; chains: ChainName[] }> = {
  evmAddress: { operations: ['transaction'], chains: ['evm'] },
  evmValue: { operations: ['transaction'], chains: ['evm'] },
  evmChainId: { operations: ['transaction'], chains: ['evm'] },
  evmFee: { operations: ['transaction'], chains: ['evm'] },
  evmContractCreation: { operations: ['transaction'], chains: ['evm'] },
  evmData: { operations: ['transaction'], chains: ['evm'] },
  evmTypedDataVerifyingContract: { operations: ['typed-data'], chains: ['evm'] },
  evmTypedDataPrimaryType: { operations: ['typed-data'], chains: ['evm'] },
  evmTypedDataChainId: { operations: ['typed-data'], chains: ['evm'] },
  evmTypedDataField: { operations: ['typed-data'], chains: ['evm'] },
  messagePattern: { operations: ['message'], chains: ['evm', 'sol', 'sui'] },
  messageLength: { operations: ['message'], chains: ['evm', 'sol', 'sui'] },
  solProgram: { operations: ['transaction'], chains: ['sol'] },
  solInstruction: { operations: ['transaction'], chains: ['sol'] },
  solLamports: { operations: ['transaction'], chains: ['sol'] },
  solComputeUnitPrice: { operations: ['transaction'], chains: ['sol'] },
  solPriorityFee: { operations: ['transaction'], chains: ['sol'] },
  suiMoveCall: { operations: ['transaction'], chains: ['sui'] },
  suiTransfers: { operations: ['transaction'], chains: ['sui'] },
  suiGasBudget: { operations: ['transaction'], chains: ['sui'] },
  suiPublish: { operations: ['transaction'], chains: ['sui'] },
  velocity: { operations: ['message', 'transaction', 'typed-data'], chains: ['evm', 'sol', 'sui'] },
};

/** What a policy decided, and why: the rule (or none) and the observed value that decided it. */
export interface PolicyDecision {
  decision: 'accept' | 'reject';
  /** the deciding rule's id; null when no rule matched */
  ruleId: string | null;
  reason: string;
  /** the value that decided it, as read from the request (e.g. `value 11 wei`), when one did */
  observed?: string;
}

/** The `details` of a 403 `POLICY_DENIED`. */
export type PolicyDeniedDetails = Pick<PolicyDecision, 'ruleId' | 'reason' | 'observed'>;

/** The largest u64, for bounds that only require a value to be countable (rules converted from the first policy shape). */
export const U64_MAX = '18446744073709551615';
/** Above any sum of u64 amounts one transaction can hold (fewer than 2^16 instructions): a bound that only requires the sum to be countable. */
const SUM_OF_U64_MAX = ((2n ** 64n - 1n) * 2n ** 16n).toString();
/** The most a Solana priority fee can reach: the largest unit price times the most units a transaction may ask for. */
const SOL_PRIORITY_FEE_MAX = (2n ** 64n - 1n) * 1_400_000n;

/**
 * The first policy shape (operations × credential kind, limits per chain) as ordered rules that decide exactly as it
 * did: per operation and credential kind it allows, one accept rule per chain with that chain's limits; everything
 * else falls through to "no rule accepted". A limit set on a chain makes what it cannot count refused, as before: the
 * converted rules bound it at the most it can be (u64), which still requires it to be countable.
 */
export function rulesOfPolicy(policy: SigningPolicy): SigningRules {
  const rules: PolicyRule[] = [];
  for (const kind of ['apiKey', 'profile'] as const) {
    for (const operation of policy.operations[kind]) {
      const credentials = { kinds: [kind] };
      if (operation === 'message') {
        rules.push({ id: `${kind}-message`, action: 'accept', operation, credentials, criteria: [] });
      } else if (operation === 'typed-data') {
        rules.push({ id: `${kind}-typed-data`, action: 'accept', operation, chains: ['evm'], credentials, criteria: typedDataCriteria(policy) });
      } else {
        for (const chain of ['evm', 'sol', 'sui'] as const) {
          rules.push({ id: `${kind}-transaction-${chain}`, action: 'accept', operation, chains: [chain], credentials, criteria: TRANSACTION_CRITERIA[chain](policy) });
        }
      }
    }
  }
  return { rules };
}

function typedDataCriteria({ evm }: SigningPolicy): Criterion[] {
  return [
    ...(evm.chainIds === null ? [] : [{ type: 'evmTypedDataChainId', operator: 'in', values: evm.chainIds } as const]),
    ...(evm.contracts === null ? [] : [{ type: 'evmTypedDataVerifyingContract', operator: 'in', values: evm.contracts } as const]),
    ...(evm.typedDataPrimaryTypes === null ? [] : [{ type: 'evmTypedDataPrimaryType', operator: 'in', values: evm.typedDataPrimaryTypes } as const]),
  ];
}

const TRANSACTION_CRITERIA: Record<ChainName, (policy: SigningPolicy) => Criterion[]> = {
  evm: ({ evm }) => [
    ...(evm.chainIds === null ? [] : [{ type: 'evmChainId', operator: 'in', values: evm.chainIds } as const]),
    ...(evm.maxValueWei === null ? [] : [{ type: 'evmValue', operator: '<=', value: evm.maxValueWei } as const]),
    ...(evm.maxFeeWei === null ? [] : [{ type: 'evmFee', operator: '<=', value: evm.maxFeeWei } as const]),
    ...(evm.contracts === null ? [] : [{ type: 'evmContractCreation', allowed: false } as const, { type: 'evmAddress', operator: 'in', values: evm.contracts } as const]),
  ],
  sol: ({ sol }) =>
    sol.programs === null && sol.maxLamports === null && sol.maxPriorityMicroLamports === null
      ? []
      : [
          ...(sol.programs === null ? [] : [{ type: 'solProgram', operator: 'in', values: sol.programs } as const]),
          { type: 'solLamports', operator: '<=', value: sol.maxLamports ?? SUM_OF_U64_MAX },
          { type: 'solPriorityFee', operator: '<=', value: sol.maxPriorityMicroLamports ?? SOL_PRIORITY_FEE_MAX.toString() },
        ],
  sui: ({ sui }) =>
    sui.packages === null && sui.allowTransfers && sui.maxGasBudget === null
      ? []
      : [
          ...(sui.packages === null ? [] : [{ type: 'suiPublish', allowed: false } as const, { type: 'suiMoveCall', operator: 'in', values: sui.packages.map((id) => `${id}::*`) } as const]),
          ...(sui.allowTransfers ? [] : [{ type: 'suiTransfers', allowed: false } as const]),
          { type: 'suiGasBudget', operator: '<=', value: sui.maxGasBudget ?? U64_MAX },
        ],
};

const UNITS: Partial<Record<CriterionType, string>> = {
  evmValue: ' wei',
  evmFee: ' wei',
  messageLength: ' bytes',
  solLamports: ' lamports',
  solComputeUnitPrice: ' micro-lamports per compute unit',
  solPriorityFee: ' micro-lamports',
  suiGasBudget: ' MIST',
};

/** The native unit velocity's `maxValue` counts on each chain. */
const NATIVE_UNITS: Record<ChainName, string> = { evm: 'wei', sol: 'lamports', sui: 'MIST' };

type SubjectType = Exclude<CriterionType, 'evmContractCreation' | 'evmData' | 'messagePattern' | 'solInstruction' | 'suiTransfers' | 'suiPublish' | 'velocity' | 'evmTypedDataField'>;

const SUBJECTS: Record<SubjectType, string> = {
  evmAddress: 'the address called or paid',
  evmValue: 'the value',
  evmChainId: 'the chain id',
  evmFee: 'the most the fees may reach',
  evmTypedDataVerifyingContract: 'the verifying contract',
  evmTypedDataPrimaryType: 'the primary type',
  evmTypedDataChainId: "the domain's chain id",
  messageLength: 'the length',
  solProgram: 'program',
  solLamports: 'the amount of lamports moved',
  solComputeUnitPrice: 'the compute unit price',
  solPriorityFee: 'the priority fee',
  suiMoveCall: 'Move call',
  suiGasBudget: 'the gas budget',
};

const NUMBER_WORDS: Record<NumberOperator, string> = { '<=': 'is at most', '>=': 'is at least', '<': 'is below', '>': 'is above', '==': 'is exactly' };

const listText = (values: string[]): string => (values.length <= 3 ? values.join(', ') : `${values.slice(0, 3).join(', ')} and ${values.length - 3} more`);
const conditionText = (condition: ValueCondition, unit = ''): string =>
  'values' in condition ? `${condition.operator === 'in' ? 'is in' : 'is not in'} [${listText(condition.values)}]` : `${NUMBER_WORDS[condition.operator]} ${condition.value}${unit}`;

/**
 * One criterion in a readable phrase, e.g. `the value is at most 10 wei`, `every program is in [11111111111111111111111111111111]`;
 * `chain` names the unit a velocity limit's value counts in.
 */
export function criterionText(criterion: Criterion, chain?: ChainName): string {
  switch (criterion.type) {
    case 'evmContractCreation':
      return criterion.allowed ? 'contract creation allowed' : 'no contract creation';
    case 'evmData':
      return `a call of ${criterion.function.replace(/^function\s+/, '')}${criterion.conditions.length === 0 ? '' : ` with ${criterion.conditions.map((condition) => `${condition.param} ${conditionText(condition).replace(/^is /, '')}`).join(' and ')}`}`;
    case 'evmTypedDataField':
      return `${criterion.path} ${conditionText(criterion)}`;
    case 'messagePattern':
      return `the message ${criterion.match ? 'matches' : 'does not match'} /${criterion.pattern}/`;
    case 'solProgram':
    case 'suiMoveCall':
      return `${criterion.operator === 'in' ? 'every' : 'no'} ${SUBJECTS[criterion.type]} is in [${listText(criterion.values)}]`;
    case 'solInstruction':
      return `only the instructions ${listText(criterion.allowed.map((allowed) => `${allowed.program}${allowed.instruction === undefined ? '' : ` ${allowed.instruction}`}${allowed.mints === undefined ? '' : ` of mint ${listText(allowed.mints)}`}${allowed.maxAmount === undefined ? '' : ` up to ${allowed.maxAmount}`}`))}`;
    case 'suiTransfers':
      return criterion.allowed ? 'transfers allowed' : 'no transfer of coins or objects';
    case 'suiPublish':
      return criterion.allowed ? 'publishing allowed' : 'no Publish or Upgrade';
    case 'velocity': {
      const unit = chain === undefined ? 'native units' : NATIVE_UNITS[chain];
      const limits = [...(criterion.maxCount === undefined ? [] : [`${criterion.maxCount} signatures`]), ...(criterion.maxValue === undefined ? [] : [`${criterion.maxValue} ${unit} moved`])];
      return `at most ${limits.join(' and ')} per ${criterion.scope} in ${windowText(criterion.windowSeconds)}`;
    }
    default: {
      const subject: string | undefined = SUBJECTS[criterion.type];
      if (subject === undefined) {
        // Not a criterion of this contract (a newer one, read by an older console): its reader shows it otherwise.
        throw new TypeError(`not a criterion type: ${String((criterion as { type: unknown }).type)}`);
      }
      return `${subject} ${conditionText(criterion, UNITS[criterion.type])}`;
    }
  }
}

function windowText(seconds: number): string {
  for (const [unit, size, article] of [['day', 86_400, 'a'], ['hour', 3_600, 'an'], ['minute', 60, 'a']] as const) {
    if (seconds % size === 0) {
      const count = seconds / size;
      return count === 1 ? `${article} ${unit}` : `${count} ${unit}s`;
    }
  }
  return `${seconds} seconds`;
}

const OPERATION_WORDS: Record<SigningOperation, string> = { message: 'messages', transaction: 'transactions', 'typed-data': 'typed data' };

/** A rule in one readable sentence, as the console shows it: `Accept transactions on evm from API keys when the value is at most 10 wei.` */
export function ruleSentence(rule: PolicyRule): string {
  const chains = rule.chains === undefined ? '' : ` on ${rule.chains.join(' or ')}`;
  const kinds = rule.credentials?.kinds?.map((kind) => (kind === 'apiKey' ? 'API keys' : 'profile JWTs')).join(' or ');
  const keys = rule.credentials?.apiKeyIds === undefined ? '' : ` (API key ${listText(rule.credentials.apiKeyIds)})`;
  const from = kinds === undefined && keys === '' ? '' : ` from ${kinds ?? 'API keys'}${keys}`;
  const chain = rule.chains?.length === 1 ? rule.chains[0] : undefined;
  const when = rule.criteria.length === 0 ? '' : ` when ${rule.criteria.map((criterion) => criterionText(criterion, chain)).join(', and ')}`;
  return `${rule.action === 'accept' ? 'Accept' : 'Reject'} ${OPERATION_WORDS[rule.operation]}${chains}${from}${when}.`;
}

/** A game's active signing policy (GET answers it with `ETag: "<version>"`). */
export interface SigningPolicyView extends SigningRules {
  /** 0: the default, which the game never changed; each `PUT` makes the next */
  version: number;
  updatedAt: string | null;
  /** who made this version: `operator:<id>`, or `system:migration` for a policy of the first shape converted */
  updatedBy: string | null;
}

/** One version of a game's signing policy, as `GET …/signing-policy/versions` lists them. */
export interface SigningPolicyVersionView extends SigningRules {
  version: number;
  createdAt: string;
  createdBy: string;
  /** `put` (rules sent), `put-v1` (the first shape sent, converted), `migrated`, `draft` (a draft activated) */
  origin: 'put' | 'put-v1' | 'migrated' | 'draft';
}

/** `PUT …/signing-policy`: the rules, or the first shape (deprecated, converted to rules). */
export type SigningPolicyInput = SigningRules | SigningPolicy;

export const isRulesPolicy = (policy: SigningPolicyInput): policy is SigningRules => Array.isArray((policy as SigningRules).rules);

/**
 * `POST …/signing-policy/evaluate` (a dry run): what the active policy would decide for this request, without signing
 * and without counting velocity. `payload` is what the signing route takes: a message (base64), a transaction (EVM's
 * fields, or base64) or typed data.
 */
export interface PolicyEvaluationRequest {
  operation: SigningOperation;
  chain: ChainName;
  credential: { kind: CredentialKind; apiKeyId?: string };
  /** whose velocity counts are read (the wallet's, its player's, the game's); absent: velocity is not read */
  walletId?: string;
  payload: unknown;
  /** evaluate the draft instead of the active policy */
  policy?: 'active' | 'draft';
}

export interface PolicyEvaluationView extends PolicyDecision {
  /** the version evaluated (the draft: null) */
  version: number | null;
  /** what the rules read of the request, decoded */
  facts: Record<string, unknown>;
}

/** A game's draft policy: evaluated beside the active one on every signing attempt, never deciding. */
export interface SigningPolicyDraftView extends SigningRules {
  /** the active version it was written against */
  baseVersion: number;
  updatedAt: string;
  updatedBy: string;
}

/** One signing attempt where the draft decided otherwise than the active policy. */
export interface PolicyDifferenceView {
  attemptId: string;
  at: string;
  walletId: string;
  operation: SigningOperation;
  chain: ChainName;
  active: Pick<PolicyDecision, 'decision' | 'ruleId'>;
  draft: Pick<PolicyDecision, 'decision' | 'ruleId'>;
}

/** `POST …/signing-policy/draft/replay`: the draft over past attempts (at most 100,000, newest first, since `since`). */
export interface PolicyReplayView {
  /** attempts evaluated */
  evaluated: number;
  /** attempts whose decision the draft changes */
  changed: number;
  /** accepted now, refused by the draft */
  newlyRejected: number;
  /** refused now, accepted by the draft */
  newlyAccepted: number;
  /** attempts the draft cannot decide from stored facts (a message pattern reads the message, which is never stored) */
  undecidable: number;
  /** the changed attempts, newest first (at most 100) */
  changes: PolicyDifferenceView[];
}

/** What changed between two versions of a policy, by rule id (recorded with each change in the audit trail). */
export interface RuleDifference {
  added: string[];
  removed: string[];
  changed: string[];
  /** whether the rules kept in both are in another order */
  reordered: boolean;
}

/** What changed between two rule lists: added, removed, changed (by their content), and whether the kept ones moved. */
export function ruleDifference(before: PolicyRule[], after: PolicyRule[]): RuleDifference {
  const old = new Map(before.map((rule) => [rule.id, canonicalJson(rule)]));
  const now = new Map(after.map((rule) => [rule.id, canonicalJson(rule)]));
  const kept = (rules: PolicyRule[], other: Map<string, string>) => rules.map((rule) => rule.id).filter((id) => other.has(id));
  return {
    added: after.filter((rule) => !old.has(rule.id)).map((rule) => rule.id),
    removed: before.filter((rule) => !now.has(rule.id)).map((rule) => rule.id),
    changed: after.filter((rule) => old.has(rule.id) && old.get(rule.id) !== now.get(rule.id)).map((rule) => rule.id),
    reordered: kept(before, now).join('\n') !== kept(after, old).join('\n'),
  };
}

/** JSON with every object's keys in order: rules read back from the database (jsonb orders keys its own way) compare equal to those sent. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map(canonicalJson).join(',')}]`;
  }
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

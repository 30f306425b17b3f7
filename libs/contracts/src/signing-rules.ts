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
          { type: 'solLamports', operator: '<=', value: sol.maxLamports ?? U64_MAX },
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

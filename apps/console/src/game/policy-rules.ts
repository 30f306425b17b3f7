import type { Criterion, CriterionType, PolicyRule, ValueCondition } from '@game-wallet/contracts/signing-rules';
import type { ChainName, SigningOperation } from '@game-wallet/contracts/views';

/**
 * The console's side of the signing rules (SPEC §11): what each criterion type is called, which operations and
 * chains it reads, and how a rule reads as one sentence. The console shares the API's types only, never its code, so
 * this mirrors the contract's `CRITERION_SCOPE`, `criterionText` and `ruleSentence`; its tests hold it to them.
 */

/** How a criterion's fields are edited. */
export type CriterionShape = 'number' | 'list' | 'allowed' | 'evmData' | 'typedDataField' | 'messagePattern' | 'solInstruction' | 'velocity';

export interface CriterionKind {
  /** the name the criterion editor offers it by */
  label: string;
  shape: CriterionShape;
  operations: SigningOperation[];
  chains: ChainName[];
  /** number and list criteria: what the sentence compares, and the unit of a number */
  phrase?: { subject: string; unit?: string; hint: string };
  /** allowed criteria: the sentence when allowed, and when not */
  allowed?: { yes: string; no: string };
}

const EVERY_CHAIN: ChainName[] = ['evm', 'sol', 'sui'];
const evmTransactions = { operations: ['transaction'], chains: ['evm'] } satisfies Pick<CriterionKind, 'operations' | 'chains'>;
const evmTypedData = { operations: ['typed-data'], chains: ['evm'] } satisfies Pick<CriterionKind, 'operations' | 'chains'>;
const messages = { operations: ['message'], chains: EVERY_CHAIN } satisfies Pick<CriterionKind, 'operations' | 'chains'>;
const solTransactions = { operations: ['transaction'], chains: ['sol'] } satisfies Pick<CriterionKind, 'operations' | 'chains'>;
const suiTransactions = { operations: ['transaction'], chains: ['sui'] } satisfies Pick<CriterionKind, 'operations' | 'chains'>;

/** Every criterion type, in the order the editor lists them. */
export const CRITERIA: Record<CriterionType, CriterionKind> = {
  evmAddress: { label: 'Address called or paid', shape: 'list', ...evmTransactions, phrase: { subject: 'the address called or paid', hint: '0x addresses' } },
  evmValue: { label: 'Value (wei)', shape: 'number', ...evmTransactions, phrase: { subject: 'the value', unit: ' wei', hint: 'wei, in decimal digits' } },
  evmChainId: { label: 'Chain id', shape: 'list', ...evmTransactions, phrase: { subject: 'the chain id', hint: 'decimal chain ids (1, 8453…)' } },
  evmFee: { label: 'Most fees (wei)', shape: 'number', ...evmTransactions, phrase: { subject: 'the most the fees may reach', unit: ' wei', hint: 'gas limit × the highest fee per gas, in wei' } },
  evmContractCreation: { label: 'Contract creation', shape: 'allowed', ...evmTransactions, allowed: { yes: 'contract creation allowed', no: 'no contract creation' } },
  evmData: { label: 'Function called', shape: 'evmData', ...evmTransactions },
  evmTypedDataVerifyingContract: { label: 'Verifying contract', shape: 'list', ...evmTypedData, phrase: { subject: 'the verifying contract', hint: '0x addresses' } },
  evmTypedDataPrimaryType: { label: 'Primary type', shape: 'list', ...evmTypedData, phrase: { subject: 'the primary type', hint: 'EIP-712 type names (Order, Permit…)' } },
  evmTypedDataChainId: { label: "Domain's chain id", shape: 'list', ...evmTypedData, phrase: { subject: "the domain's chain id", hint: 'decimal chain ids' } },
  evmTypedDataField: { label: 'A typed-data field', shape: 'typedDataField', ...evmTypedData },
  messagePattern: { label: 'Message pattern', shape: 'messagePattern', ...messages },
  messageLength: { label: 'Message length (bytes)', shape: 'number', ...messages, phrase: { subject: 'the length', unit: ' bytes', hint: 'bytes' } },
  solProgram: { label: 'Programs called', shape: 'list', ...solTransactions, phrase: { subject: 'every program', hint: 'base58 program ids' } },
  solInstruction: { label: 'Instructions', shape: 'solInstruction', ...solTransactions },
  solLamports: { label: 'Lamports moved', shape: 'number', ...solTransactions, phrase: { subject: 'the lamports moved', unit: ' lamports', hint: 'lamports (1 SOL is 10⁹)' } },
  solComputeUnitPrice: {
    label: 'Compute unit price',
    shape: 'number',
    ...solTransactions,
    phrase: { subject: 'the compute unit price', unit: ' micro-lamports per compute unit', hint: 'micro-lamports per compute unit' },
  },
  solPriorityFee: { label: 'Priority fee', shape: 'number', ...solTransactions, phrase: { subject: 'the priority fee', unit: ' micro-lamports', hint: 'micro-lamports: unit price × unit limit' } },
  suiMoveCall: { label: 'Move calls', shape: 'list', ...suiTransactions, phrase: { subject: 'every Move call', hint: '0x<package>::<module>::<function>, * for any module or function' } },
  suiTransfers: { label: 'Transfers of coins or objects', shape: 'allowed', ...suiTransactions, allowed: { yes: 'transfers allowed', no: 'no transfer of coins or objects' } },
  suiGasBudget: { label: 'Gas budget (MIST)', shape: 'number', ...suiTransactions, phrase: { subject: 'the gas budget', unit: ' MIST', hint: 'MIST (1 SUI is 10⁹)' } },
  suiPublish: { label: 'Publish or Upgrade', shape: 'allowed', ...suiTransactions, allowed: { yes: 'publishing allowed', no: 'no Publish or Upgrade' } },
  velocity: { label: 'Velocity (signatures or value per time)', shape: 'velocity', operations: ['message', 'transaction', 'typed-data'], chains: EVERY_CHAIN },
};

export const CRITERION_TYPES = Object.keys(CRITERIA) as CriterionType[];

/** The chains a rule applies to: those it names, or every chain. */
export const ruleChains = (rule: Pick<PolicyRule, 'chains'>): ChainName[] => rule.chains ?? EVERY_CHAIN;

/**
 * Whether a criterion type can be read by a rule of this operation and these chains (none: every chain), as the
 * platform checks it: a rule for transactions on every chain cannot read an EVM value. Velocity bounds what is
 * accepted, so only accept rules have it.
 */
export function criterionFits(type: CriterionType, rule: Pick<PolicyRule, 'operation' | 'chains' | 'action'>): boolean {
  const kind = CRITERIA[type];
  return kind.operations.includes(rule.operation) && ruleChains(rule).every((chain) => kind.chains.includes(chain)) && (type !== 'velocity' || rule.action === 'accept');
}

/** Up to three items, then how many more: `a, b, c and 2 more`. */
export function shortList(values: string[]): string {
  return values.length <= 3 ? values.join(', ') : `${values.slice(0, 3).join(', ')} and ${values.length - 3} more`;
}

function comparison(condition: ValueCondition, unit = ''): string {
  return 'values' in condition ? `${condition.operator} [${shortList(condition.values)}]` : `${condition.operator} ${condition.value}${unit}`;
}

/** A time window in words: `a day`, `2 hours`, `90 seconds`. */
export function windowWords(seconds: number): string {
  const unit = [
    { name: 'day', size: 86_400 },
    { name: 'hour', size: 3_600 },
    { name: 'minute', size: 60 },
  ].find(({ size }) => seconds % size === 0);
  if (unit === undefined) {
    return `${seconds} seconds`;
  }
  const count = seconds / unit.size;
  return count === 1 ? `a ${unit.name}` : `${count} ${unit.name}s`;
}

/** One criterion as a phrase of a rule's sentence: `the value <= 10 wei`. */
export function criterionPhrase(criterion: Criterion): string {
  const kind = CRITERIA[criterion.type];
  switch (criterion.type) {
    case 'evmContractCreation':
    case 'suiTransfers':
    case 'suiPublish':
      return criterion.allowed ? (kind.allowed?.yes ?? '') : (kind.allowed?.no ?? '');
    case 'evmData': {
      const conditions = criterion.conditions.map((condition) => `${condition.param} ${comparison(condition)}`);
      return `a call of ${criterion.function.replace(/^function\s+/, '')}${conditions.length > 0 ? ` with ${conditions.join(' and ')}` : ''}`;
    }
    case 'evmTypedDataField':
      return `${criterion.path} ${comparison(criterion)}`;
    case 'messagePattern':
      return `a message that ${criterion.match ? 'matches' : 'does not match'} /${criterion.pattern}/`;
    case 'solInstruction': {
      const allowances = criterion.allowed.map(
        (allowed) =>
          allowed.program +
          (allowed.instruction !== undefined ? ` ${allowed.instruction}` : '') +
          (allowed.mints !== undefined ? ` of mint ${shortList(allowed.mints)}` : '') +
          (allowed.maxAmount !== undefined ? ` up to ${allowed.maxAmount}` : ''),
      );
      return `only instructions ${shortList(allowances)}`;
    }
    case 'velocity': {
      const limits: string[] = [];
      if (criterion.maxCount !== undefined) {
        limits.push(`${criterion.maxCount} signatures`);
      }
      if (criterion.maxValue !== undefined) {
        limits.push(`${criterion.maxValue} native units moved`);
      }
      return `at most ${limits.join(' and ')} per ${criterion.scope} in ${windowWords(criterion.windowSeconds)}`;
    }
    default:
      return `${kind.phrase?.subject ?? criterion.type} ${comparison(criterion, kind.phrase?.unit)}`;
  }
}

const OPERATION_NOUNS: Record<SigningOperation, string> = { message: 'messages', transaction: 'transactions', 'typed-data': 'typed data' };
const CREDENTIAL_NOUNS = { apiKey: 'API keys', profile: 'profile JWTs' } as const;

/** A rule as one sentence: `Accept transactions on evm from API keys when the value <= 10 wei.` */
export function ruleText(rule: PolicyRule): string {
  const parts = [rule.action === 'accept' ? 'Accept' : 'Reject', OPERATION_NOUNS[rule.operation]];
  if (rule.chains !== undefined) {
    parts.push(`on ${rule.chains.join(' or ')}`);
  }
  const kinds = rule.credentials?.kinds;
  const keys = rule.credentials?.apiKeyIds;
  if (kinds !== undefined || keys !== undefined) {
    const from = kinds === undefined ? 'API keys' : kinds.map((kind) => CREDENTIAL_NOUNS[kind]).join(' or ');
    parts.push(`from ${from}${keys === undefined ? '' : ` (API key ${shortList(keys)})`}`);
  }
  if (rule.criteria.length > 0) {
    parts.push(`when ${rule.criteria.map(criterionPhrase).join(', and ')}`);
  }
  return `${parts.join(' ')}.`;
}

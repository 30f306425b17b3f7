import type {
  CredentialKind,
  Criterion,
  CriterionType,
  ListOperator,
  NumberOperator,
  PolicyRule,
  SolInstructionAllowance,
  ValueCondition,
  VelocityCriterion,
} from '@game-wallet/contracts/views';
import type { ChainName, SigningOperation } from '@game-wallet/contracts/views';
import { CRITERIA, criterionFits } from './policy-rules';

export const NUMBER_OPERATORS: NumberOperator[] = ['<=', '<', '==', '>=', '>'];
export const LIST_OPERATORS: ListOperator[] = ['in', 'not in'];
type Operator = NumberOperator | ListOperator;

/** A criterion as its editor holds it: every field as text, lists one item a line. Only the type's own fields count. */
export interface CriterionForm {
  type: CriterionType;
  operator: Operator;
  /** a number criterion's value, or a typed-data field's when compared as a number */
  value: string;
  /** a list, one item a line */
  values: string;
  allowed: boolean;
  /** evmData: the function's ABI fragment */
  functionFragment: string;
  /** evmData: one condition a line, `param operator value` (`amount <= 1000`, `to in 0xaa…, 0xbb…`) */
  conditions: string;
  /** evmTypedDataField: `message.` or `domain.` then field names */
  path: string;
  pattern: string;
  match: boolean;
  /** solInstruction: one allowed instruction a line, `program [instruction] [mints=a,b] [max=amount]` */
  instructions: string;
  scope: VelocityCriterion['scope'];
  windowSeconds: string;
  maxCount: string;
  maxValue: string;
}

/** A rule as its editor holds it; no chain or credential kind checked means every one. */
export interface RuleForm {
  id: string;
  description: string;
  action: PolicyRule['action'];
  operation: SigningOperation;
  chains: ChainName[];
  kinds: CredentialKind[];
  /** one API key id a line */
  apiKeyIds: string;
  criteria: CriterionForm[];
}

export const isListOperator = (operator: string): operator is ListOperator => (LIST_OPERATORS as string[]).includes(operator);

/** A criterion of this type with its fields empty (an allowance off, a pattern that must match, a window of an hour). */
export function blankCriterion(type: CriterionType): CriterionForm {
  return {
    type,
    operator: CRITERIA[type].shape === 'list' ? 'in' : '<=',
    value: '',
    values: '',
    allowed: false,
    functionFragment: '',
    conditions: '',
    path: '',
    pattern: '',
    match: true,
    instructions: '',
    scope: 'wallet',
    windowSeconds: '3600',
    maxCount: '',
    maxValue: '',
  };
}

/** Text lines, trimmed, empty ones left out. */
export const linesOf = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

const conditionLine = (condition: { param: string } & ValueCondition): string =>
  `${condition.param} ${condition.operator} ${'values' in condition ? condition.values.join(', ') : condition.value}`;

const instructionLine = (allowed: SolInstructionAllowance): string =>
  [allowed.program, allowed.instruction, allowed.mints && `mints=${allowed.mints.join(',')}`, allowed.maxAmount && `max=${allowed.maxAmount}`].filter((part) => part !== undefined).join(' ');

export function formOfCriterion(criterion: Criterion): CriterionForm {
  const form = blankCriterion(criterion.type);
  switch (criterion.type) {
    case 'evmContractCreation':
    case 'suiTransfers':
    case 'suiPublish':
      return { ...form, allowed: criterion.allowed };
    case 'evmData':
      return { ...form, functionFragment: criterion.function, conditions: criterion.conditions.map(conditionLine).join('\n') };
    case 'messagePattern':
      return { ...form, pattern: criterion.pattern, match: criterion.match };
    case 'solInstruction':
      return { ...form, instructions: criterion.allowed.map(instructionLine).join('\n') };
    case 'velocity':
      return {
        ...form,
        scope: criterion.scope,
        windowSeconds: String(criterion.windowSeconds),
        maxCount: criterion.maxCount === undefined ? '' : String(criterion.maxCount),
        maxValue: criterion.maxValue ?? '',
      };
    case 'evmTypedDataField':
      return { ...form, path: criterion.path, ...conditionForm(criterion) };
    default:
      return { ...form, ...conditionForm(criterion) };
  }
}

function conditionForm(condition: ValueCondition): Pick<CriterionForm, 'operator' | 'value' | 'values'> {
  return 'values' in condition ? { operator: condition.operator, value: '', values: condition.values.join('\n') } : { operator: condition.operator, value: condition.value, values: '' };
}

export function formOfRule(rule: PolicyRule): RuleForm {
  return {
    id: rule.id,
    description: rule.description ?? '',
    action: rule.action,
    operation: rule.operation,
    chains: rule.chains ?? [],
    kinds: rule.credentials?.kinds ?? [],
    apiKeyIds: (rule.credentials?.apiKeyIds ?? []).join('\n'),
    criteria: rule.criteria.map(formOfCriterion),
  };
}

/** A new rule's form: accept messages, with an id no other rule has. */
export function newRuleForm(takenIds: string[]): RuleForm {
  let number = takenIds.length + 1;
  while (takenIds.includes(`rule-${number}`)) {
    number += 1;
  }
  return { id: `rule-${number}`, description: '', action: 'accept', operation: 'message', chains: [], kinds: [], apiKeyIds: '', criteria: [] };
}

/** What the editor saves, or the problems to fix first (each naming the field). */
export type Parsed<T> = { ok: true; value: T } | { ok: false; problems: string[] };

const RULE_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const WHOLE = /^\d+$/;
const CONDITION_LINE = /^(\S+)\s+(<=|>=|==|<|>|not in|in)\s+(.+)$/;

function valueCondition(operator: Operator, value: string, values: string[]): ValueCondition {
  return isListOperator(operator) ? { operator, values } : { operator, value: value.trim() };
}

function parseCondition(line: string): ({ param: string } & ValueCondition) | undefined {
  const match = CONDITION_LINE.exec(line);
  if (match === null) {
    return undefined;
  }
  const [, param = '', operator = '', rest = ''] = match;
  const values = rest
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return { param, ...valueCondition(operator as Operator, rest, values) };
}

function parseInstruction(line: string): SolInstructionAllowance {
  const [program = '', ...rest] = line.split(/\s+/);
  const allowed: SolInstructionAllowance = { program };
  for (const part of rest) {
    if (part.startsWith('mints=') || part.startsWith('mint=')) {
      allowed.mints = part
        .slice(part.indexOf('=') + 1)
        .split(',')
        .filter((mint) => mint !== '');
    } else if (part.startsWith('max=')) {
      allowed.maxAmount = part.slice('max='.length);
    } else {
      allowed.instruction = part;
    }
  }
  return allowed;
}

/** The criterion a form holds, or what is wrong with it (`at` names it: `Criterion 2 (Value (wei))`). */
export function criterionOfForm(form: CriterionForm, at: string): Parsed<Criterion> {
  const problems: string[] = [];
  const criterion = ((): Criterion => {
    const { type } = form;
    switch (type) {
      case 'evmContractCreation':
      case 'suiTransfers':
      case 'suiPublish':
        return { type, allowed: form.allowed };
      case 'evmData': {
        const lines = linesOf(form.conditions);
        const conditions = lines.map(parseCondition);
        lines.forEach((line, index) => conditions[index] === undefined && problems.push(`${at}: condition “${line}” is not “parameter operator value”, e.g. “amount <= 1000”`));
        return { type, function: form.functionFragment.trim(), conditions: conditions.filter((condition) => condition !== undefined) };
      }
      case 'messagePattern':
        return { type, pattern: form.pattern, match: form.match };
      case 'solInstruction':
        return { type, allowed: linesOf(form.instructions).map(parseInstruction) };
      case 'velocity': {
        const velocity: VelocityCriterion = { type, scope: form.scope, windowSeconds: Number(form.windowSeconds.trim()) };
        if (!WHOLE.test(form.windowSeconds.trim())) {
          problems.push(`${at}: the window must be a whole number of seconds`);
        }
        if (form.maxCount.trim() !== '') {
          velocity.maxCount = Number(form.maxCount.trim());
          if (!WHOLE.test(form.maxCount.trim())) {
            problems.push(`${at}: the most signatures must be a whole number`);
          }
        }
        if (form.maxValue.trim() !== '') {
          velocity.maxValue = form.maxValue.trim();
        }
        if (velocity.maxCount === undefined && velocity.maxValue === undefined) {
          problems.push(`${at}: give the most signatures, the most value, or both`);
        }
        return velocity;
      }
      case 'evmTypedDataField':
        return { type, path: form.path.trim(), ...valueCondition(form.operator, form.value, linesOf(form.values)) };
      default: {
        // A number or a list compared: its operator follows the type (a type changed keeps no operator of the other kind).
        const list = CRITERIA[type].shape === 'list';
        const operator = list === isListOperator(form.operator) ? form.operator : list ? 'in' : '<=';
        return { type, ...valueCondition(operator, form.value, linesOf(form.values)) } as Criterion;
      }
    }
  })();
  return problems.length === 0 ? { ok: true, value: criterion } : { ok: false, problems };
}

/**
 * The rule a form holds, or what is wrong with it. Checked here: what the editor alone can tell (an id that is taken
 * or malformed, a line it cannot read, a criterion that does not fit); the platform checks the rest when saving.
 */
export function ruleOfForm(form: RuleForm, otherIds: string[]): Parsed<PolicyRule> {
  const problems: string[] = [];
  const id = form.id.trim();
  if (!RULE_ID.test(id)) {
    problems.push('Rule id: 1 to 64 letters, digits, _, . or -, starting with a letter or digit');
  } else if (otherIds.includes(id)) {
    problems.push(`Rule id: another rule is called ${id}`);
  }
  // Typed data is EVM's only: such a rule names that chain.
  const chains = form.operation === 'typed-data' ? ['evm' as const] : form.chains;
  const apiKeyIds = linesOf(form.apiKeyIds);
  const rule: PolicyRule = {
    id,
    ...(form.description.trim() === '' ? {} : { description: form.description.trim() }),
    action: form.action,
    operation: form.operation,
    ...(chains.length === 0 ? {} : { chains }),
    ...(form.kinds.length === 0 && apiKeyIds.length === 0
      ? {}
      : { credentials: { ...(form.kinds.length === 0 ? {} : { kinds: form.kinds }), ...(apiKeyIds.length === 0 ? {} : { apiKeyIds }) } }),
    criteria: [],
  };
  form.criteria.forEach((criterionForm, index) => {
    const at = `Criterion ${index + 1} (${CRITERIA[criterionForm.type].label})`;
    if (!criterionFits(criterionForm.type, rule)) {
      problems.push(
        criterionForm.type === 'velocity' && rule.action !== 'accept'
          ? `${at}: a velocity limit belongs to an accept rule`
          : `${at}: reads ${CRITERIA[criterionForm.type].operations.join(' or ')} on ${CRITERIA[criterionForm.type].chains.join(' or ')}: change the rule's operation or chains, or remove it`,
      );
    }
    const parsed = criterionOfForm(criterionForm, at);
    if (parsed.ok) {
      rule.criteria.push(parsed.value);
    } else {
      problems.push(...parsed.problems);
    }
  });
  return problems.length === 0 ? { ok: true, value: rule } : { ok: false, problems };
}

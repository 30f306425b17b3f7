import { criterionText } from '@game-wallet/contracts/signing-rules';
import type { Criterion, CriterionType, PolicyRule } from '@game-wallet/contracts/views';
import type { SigningOperation } from '@game-wallet/contracts/views';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { CheckboxGroup, RadioGroup, SelectField, TextField } from '../ui/form';
import { CHAINS } from './chains';
import { CRITERIA, CRITERION_TYPES, criterionFits, ruleText } from './policy-rules';
import { type CriterionForm, LIST_OPERATORS, NUMBER_OPERATORS, type RuleForm, blankCriterion, isListOperator, ruleOfForm } from './rule-form';

export const OPERATIONS: { value: SigningOperation; label: string }[] = [
  { value: 'message', label: 'Messages' },
  { value: 'transaction', label: 'Transactions' },
  { value: 'typed-data', label: 'Typed data (EIP-712)' },
];

const ACTIONS = [
  { value: 'accept', label: 'Accept' },
  { value: 'reject', label: 'Reject' },
] as const;

/** What the fields of the criteria that are not a plain number or list take. */
const HINTS = {
  functionFragment: 'A human-readable ABI fragment, e.g. function transfer(address to, uint256 amount).',
  conditions:
    'Parameter (its name, or its index from 0), operator, value: amount <= 1000, or to in 0xaa…, 0xbb… (values separated by commas). None: any call of the function.',
  path: 'message. or domain., then field names and array indexes: message.items.0.to',
  pattern: 'A regular expression (RE2 syntax) over the message as UTF-8 text, e.g. ^Sign in to Space Miners: [0-9a-f]{32}$',
  instructions:
    'Program, then optionally its instruction, mints=mint1,mint2 and max=amount (base units): spl-token transferChecked mints=EPjF… max=1000. Programs by name (system, spl-token, token-2022, associated-token, memo, compute-budget) or by id; no instruction: any of the program.',
  windowSeconds: '60 (a minute) to 2592000 (30 days): 3600 is an hour, 86400 a day.',
};

const KINDS = [
  { value: 'apiKey', label: 'API keys (game servers)' },
  { value: 'profile', label: 'Profile JWTs (game clients)' },
] as const;

const OPERATOR_OPTIONS = {
  number: NUMBER_OPERATORS.map((operator) => ({ value: operator, label: operator })),
  list: LIST_OPERATORS.map((operator) => ({ value: operator, label: operator })),
  any: [...NUMBER_OPERATORS, ...LIST_OPERATORS].map((operator) => ({ value: operator, label: operator })),
};

/** The fields of one criterion, as its type has them. */
function CriterionFields({ form, onChange }: { form: CriterionForm; onChange: (form: CriterionForm) => void }) {
  const kind = CRITERIA[form.type];
  const set =
    <K extends keyof CriterionForm>(key: K) =>
    (value: CriterionForm[K]) =>
      onChange({ ...form, [key]: value });
  switch (kind.shape) {
    case 'number':
      return (
        <>
          <SelectField label="Operator" value={form.operator} options={OPERATOR_OPTIONS.number} onChange={set('operator')} />
          <TextField label="Value" hint={kind.hint} value={form.value} onChange={set('value')} numeric />
        </>
      );
    case 'list':
      return (
        <>
          <SelectField label="Operator" value={form.operator} options={OPERATOR_OPTIONS.list} onChange={set('operator')} />
          <TextField label="Values, one a line" hint={kind.hint} value={form.values} onChange={set('values')} multiline />
        </>
      );
    case 'allowed':
      return (
        <SelectField
          label="Condition"
          value={form.allowed ? 'yes' : 'no'}
          options={[
            { value: 'no', label: criterionText({ type: form.type, allowed: false } as Criterion) },
            { value: 'yes', label: criterionText({ type: form.type, allowed: true } as Criterion) },
          ]}
          onChange={(value) => set('allowed')(value === 'yes')}
        />
      );
    case 'evmData':
      return (
        <>
          <TextField label="Function" hint={HINTS.functionFragment} value={form.functionFragment} onChange={set('functionFragment')} />
          <TextField label="Conditions on its parameters, one a line" hint={HINTS.conditions} value={form.conditions} onChange={set('conditions')} multiline />
        </>
      );
    case 'typedDataField':
      return (
        <>
          <TextField label="Field" hint={HINTS.path} value={form.path} onChange={set('path')} />
          <SelectField label="Operator" value={form.operator} options={OPERATOR_OPTIONS.any} onChange={set('operator')} />
          {isListOperator(form.operator) ? (
            <TextField label="Values, one a line" hint="Addresses or strings." value={form.values} onChange={set('values')} multiline />
          ) : (
            <TextField label="Value" hint="A number, in decimal or 0x hex." value={form.value} onChange={set('value')} />
          )}
        </>
      );
    case 'messagePattern':
      return (
        <>
          <TextField label="Pattern" hint={HINTS.pattern} value={form.pattern} onChange={set('pattern')} />
          <SelectField
            label="The message must"
            value={form.match ? 'match' : 'not'}
            options={[
              { value: 'match', label: 'match it' },
              { value: 'not', label: 'not match it' },
            ]}
            onChange={(value) => set('match')(value === 'match')}
          />
        </>
      );
    case 'solInstruction':
      return (
        <TextField label="Allowed instructions, one a line" hint={HINTS.instructions} value={form.instructions} onChange={set('instructions')} multiline />
      );
    case 'velocity':
      return (
        <>
          <SelectField
            label="Counted per"
            value={form.scope}
            options={[
              { value: 'wallet', label: 'wallet' },
              { value: 'profile', label: 'player profile' },
              { value: 'game', label: 'game' },
            ]}
            onChange={set('scope')}
          />
          <TextField label="Window, in seconds" hint={HINTS.windowSeconds} value={form.windowSeconds} onChange={set('windowSeconds')} numeric />
          <TextField label="Most signatures" hint="Empty: no count limit." value={form.maxCount} onChange={set('maxCount')} numeric />
          <TextField label="Most value moved" hint="In the chain's native unit (wei, lamports, MIST). Empty: no value limit." value={form.maxValue} onChange={set('maxValue')} numeric />
        </>
      );
  }
}

/**
 * One rule's form: its id, description, action, operation, chains, credentials and criteria. A criterion's type is
 * chosen among those the rule's operation and chains can read. `onSubmit` gets the rule once the form reads as one.
 */
export function RuleEditor({
  initial,
  otherIds,
  title,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial: RuleForm;
  otherIds: string[];
  title: string;
  submitLabel: string;
  onSubmit: (rule: PolicyRule) => void;
  onCancel: () => void;
}) {
  const [form, setForm] = useState(initial);
  const [problems, setProblems] = useState<string[]>([]);
  const titleId = useId();
  const firstField = useRef<HTMLDivElement>(null);
  const set =
    <K extends keyof RuleForm>(key: K) =>
    (value: RuleForm[K]) =>
      setForm((current) => ({ ...current, [key]: value }));
  const shape = { operation: form.operation, action: form.action, chains: form.operation === 'typed-data' ? (['evm'] as const).slice() : form.chains.length === 0 ? undefined : form.chains };
  const fitting = CRITERION_TYPES.filter((type) => criterionFits(type, shape));
  const parsed = ruleOfForm(form, otherIds);

  useEffect(() => {
    firstField.current?.querySelector('input')?.focus();
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (parsed.ok) {
      onSubmit(parsed.value);
    } else {
      setProblems(parsed.problems);
    }
  };
  const setCriterion = (index: number, criterion: CriterionForm) => set('criteria')(form.criteria.map((item, at) => (at === index ? criterion : item)));
  const typeOptions = (current: CriterionType) =>
    CRITERION_TYPES.filter((type) => type === current || fitting.includes(type)).map((type) => ({
      value: type,
      label: fitting.includes(type) ? CRITERIA[type].label : `${CRITERIA[type].label} (does not fit this rule)`,
    }));

  return (
    <form className="rule-editor" aria-labelledby={titleId} onSubmit={submit} onKeyDown={(event) => event.key === 'Escape' && onCancel()} noValidate>
      <h4 id={titleId}>{title}</h4>
      <div className="field-row" ref={firstField}>
        <TextField label="Rule id" hint="Letters, digits, _ . -; unique in the policy." value={form.id} onChange={set('id')} />
        <TextField label="Description" hint="Optional: why the rule is there." value={form.description} onChange={set('description')} />
      </div>
      <div className="field-row">
        <RadioGroup legend="Action" value={form.action} options={ACTIONS} onChange={set('action')} />
        <SelectField label="Operation" value={form.operation} options={OPERATIONS} onChange={set('operation')} />
      </div>
      <CheckboxGroup
        legend="Chains"
        hint={form.operation === 'typed-data' ? 'Typed data is signed on EVM only.' : 'None checked: every chain. Most criteria read one chain: check it to offer them.'}
        value={form.operation === 'typed-data' ? ['evm'] : form.chains}
        options={CHAINS.map((chain) => ({ value: chain.id, label: chain.label, disabled: form.operation === 'typed-data' }))}
        onChange={set('chains')}
      />
      <CheckboxGroup legend="Credentials" hint="None checked: every credential." value={form.kinds} options={KINDS} onChange={set('kinds')} />
      <TextField label="Only these API keys" hint="API key ids, one a line. Empty: any key." value={form.apiKeyIds} onChange={set('apiKeyIds')} multiline rows={2} />
      <fieldset className="criteria">
        <legend>Criteria</legend>
        <p className="muted small">All must hold. None: the rule decides on operation, chain and credential alone.</p>
        {form.criteria.map((criterion, index) => (
          <fieldset key={index} className="criterion">
            <legend>Criterion {index + 1}</legend>
            <SelectField label="Type" value={criterion.type} options={typeOptions(criterion.type)} onChange={(type) => setCriterion(index, blankCriterion(type))} />
            <CriterionFields form={criterion} onChange={(next) => setCriterion(index, next)} />
            <div className="criterion-tools">
              <button type="button" className="button compact danger-ghost" onClick={() => set('criteria')(form.criteria.filter((_item, at) => at !== index))}>
                Remove criterion {index + 1}
              </button>
            </div>
          </fieldset>
        ))}
        <button type="button" className="button" disabled={fitting.length === 0} onClick={() => fitting[0] && set('criteria')([...form.criteria, blankCriterion(fitting[0])])}>
          Add a criterion
        </button>
        {fitting.length === 0 ? <p className="muted small">No criterion reads every chain of this operation: check one chain.</p> : null}
      </fieldset>
      <p className="rule-preview">
        <span className="muted">Reads: </span>
        {parsed.ok ? ruleText(parsed.value) : <span className="muted">not yet a rule</span>}
      </p>
      {problems.length > 0 && !parsed.ok ? (
        <ul className="form-error" role="alert">
          {parsed.problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      ) : null}
      <div className="form-actions">
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button primary">
          {submitLabel}
        </button>
      </div>
    </form>
  );
}

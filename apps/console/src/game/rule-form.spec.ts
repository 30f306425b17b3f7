import { describe, expect, it } from 'vitest';
import { EXAMPLES, KEY } from '../test-rules';
import { blankCriterion, criterionOfForm, formOfRule, newRuleForm, ruleOfForm } from './rule-form';

describe('rule forms', () => {
  it.each(EXAMPLES.map((rule) => [rule.id, rule] as const))('hold rule %s as it is, field for field', (_id, rule) => {
    expect(ruleOfForm(formOfRule(rule), [])).toEqual({ ok: true, value: rule });
  });

  it('read lists one item a line, trimmed, and leave out what is empty', () => {
    const form = { ...newRuleForm([]), id: ' shop ', operation: 'transaction' as const, chains: ['evm' as const], apiKeyIds: `\n ${KEY} \n\n`, description: '  ' };
    form.criteria = [{ ...blankCriterion('evmAddress'), operator: 'not in', values: ' 0xaa \n\n0xbb ' }];
    expect(ruleOfForm(form, [])).toEqual({
      ok: true,
      value: { id: 'shop', action: 'accept', operation: 'transaction', chains: ['evm'], credentials: { apiKeyIds: [KEY] }, criteria: [{ type: 'evmAddress', operator: 'not in', values: ['0xaa', '0xbb'] }] },
    });
  });

  it('give typed data its one chain', () => {
    expect(ruleOfForm({ ...newRuleForm([]), operation: 'typed-data' }, [])).toMatchObject({ ok: true, value: { chains: ['evm'] } });
    expect(ruleOfForm({ ...newRuleForm([]), operation: 'typed-data', chains: ['sol'] }, [])).toMatchObject({ ok: true, value: { chains: ['evm'] } });
  });

  it('read function conditions and Solana instructions, one a line', () => {
    const conditions = criterionOfForm({ ...blankCriterion('evmData'), functionFragment: 'transfer(address to, uint256 amount)', conditions: 'amount <= 1000\nto not in 0xaa, 0xbb\n1 == 0x10' }, 'c');
    expect(conditions).toEqual({
      ok: true,
      value: {
        type: 'evmData',
        function: 'transfer(address to, uint256 amount)',
        conditions: [
          { param: 'amount', operator: '<=', value: '1000' },
          { param: 'to', operator: 'not in', values: ['0xaa', '0xbb'] },
          { param: '1', operator: '==', value: '0x10' },
        ],
      },
    });
    expect(criterionOfForm({ ...blankCriterion('solInstruction'), instructions: 'system transferSol\nspl-token transferChecked mints=m1,m2 max=5\nmemo' }, 'c')).toEqual({
      ok: true,
      value: { type: 'solInstruction', allowed: [{ program: 'system', instruction: 'transferSol' }, { program: 'spl-token', instruction: 'transferChecked', mints: ['m1', 'm2'], maxAmount: '5' }, { program: 'memo' }] },
    });
  });

  it('name what the editor can tell is wrong', () => {
    const form = { ...newRuleForm(['rule-1']), id: 'taken', action: 'reject' as const };
    form.criteria = [
      { ...blankCriterion('evmData'), conditions: 'amount is small' },
      { ...blankCriterion('velocity'), windowSeconds: 'an hour' },
      blankCriterion('evmValue'),
    ];
    expect(ruleOfForm(form, ['taken'])).toEqual({
      ok: false,
      problems: [
        'Rule id: another rule is called taken',
        'Criterion 1 (Function called): reads transaction on evm: change the rule\'s operation or chains, or remove it',
        'Criterion 1 (Function called): condition “amount is small” is not “parameter operator value”, e.g. “amount <= 1000”',
        'Criterion 2 (Velocity (signatures or value per time)): a velocity limit belongs to an accept rule',
        'Criterion 2 (Velocity (signatures or value per time)): the window must be a whole number of seconds',
        'Criterion 2 (Velocity (signatures or value per time)): give the most signatures, the most value, or both',
        "Criterion 3 (Value (wei)): reads transaction on evm: change the rule's operation or chains, or remove it",
      ],
    });
    expect(ruleOfForm({ ...newRuleForm([]), id: '-bad id' }, [])).toEqual({ ok: false, problems: ['Rule id: 1 to 64 letters, digits, _, . or -, starting with a letter or digit'] });
  });

  it('name a new rule apart from the others', () => {
    expect(newRuleForm([]).id).toBe('rule-1');
    expect(newRuleForm(['a', 'rule-3']).id).toBe('rule-4');
    expect(newRuleForm(['rule-2', 'rule-3']).id).toBe('rule-4');
  });
});

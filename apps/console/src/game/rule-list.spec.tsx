import type { PolicyRule } from '@game-wallet/contracts/views';
import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { RuleList, moved } from './rule-list';

const RULES: PolicyRule[] = [
  { id: 'shop', action: 'accept', operation: 'transaction', chains: ['evm'], criteria: [{ type: 'evmValue', operator: '<=', value: '10' }] },
  { id: 'no-sol', action: 'reject', operation: 'transaction', chains: ['sol'], criteria: [] },
  { id: 'messages', description: 'Sign-in messages', action: 'accept', operation: 'message', credentials: { kinds: ['profile'] }, criteria: [] },
];

function renderList(onSave = vi.fn(async (_rules: PolicyRule[]) => undefined)) {
  render(<RuleList label="Active rules" saved={RULES} saveLabel="Save policy" onSave={onSave} describeError={(error) => (error instanceof Error ? error.message : 'failed')} />);
  return onSave;
}

const order = () => within(screen.getByRole('list', { name: 'Active rules' })).getAllByRole('listitem').map((item) => item.querySelector('.rule-id')?.textContent);

describe(RuleList.name, () => {
  it('shows each rule in order: its position, id, action and sentence', () => {
    renderList();
    const [first, , third] = within(screen.getByRole('list', { name: 'Active rules' })).getAllByRole('listitem');
    expect(first).toHaveTextContent(/^⠿1shopAccept↑↓EditDeleteAccept transactions on evm when the value is at most 10 wei\.$/);
    expect(third).toHaveTextContent('Accept messages from profile JWTs.');
    expect(third).toHaveTextContent('Sign-in messages');
    expect(screen.getByRole('button', { name: 'Save policy' })).toBeDisabled();
  });

  it('moves a rule by keyboard alone: its Move buttons keep focus on the rule, Alt+arrows move it from any of its buttons, each move announced', async () => {
    const onSave = renderList();
    const user = userEvent.setup();
    screen.getByRole('button', { name: 'Move messages up' }).focus();
    await user.keyboard('{Enter}');
    expect(order()).toEqual(['shop', 'messages', 'no-sol']);
    expect(screen.getByRole('status')).toHaveTextContent('Rule messages moved to position 2 of 3.');
    expect(screen.getByRole('button', { name: 'Move messages up' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(order()).toEqual(['messages', 'shop', 'no-sol']);
    // At the top, Move up is disabled: focus goes to Move down.
    expect(screen.getByRole('button', { name: 'Move messages down' })).toHaveFocus();
    await user.keyboard('{Alt>}{ArrowDown}{ArrowDown}{/Alt}');
    expect(order()).toEqual(['shop', 'no-sol', 'messages']);
    expect(screen.getByRole('status')).toHaveTextContent('Rule messages moved to position 3 of 3.');
    expect(screen.getByRole('button', { name: 'Move messages down' })).toBeDisabled();
    screen.getByRole('button', { name: 'Edit no-sol' }).focus();
    await user.keyboard('{Alt>}{ArrowUp}{/Alt}');
    expect(order()).toEqual(['no-sol', 'shop', 'messages']);
    expect(screen.getByRole('button', { name: 'Edit no-sol' })).toHaveFocus();
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save policy' }));
    expect(onSave).toHaveBeenCalledWith([RULES[1], RULES[0], RULES[2]]);
  });

  it('moves a rule by dragging it onto another', () => {
    renderList();
    const items = within(screen.getByRole('list', { name: 'Active rules' })).getAllByRole('listitem');
    fireEvent.dragStart(items[2]!);
    fireEvent.dragOver(items[0]!);
    expect(items[0]).toHaveClass('drop-target');
    fireEvent.drop(items[0]!);
    expect(order()).toEqual(['messages', 'shop', 'no-sol']);
    expect(screen.getByRole('status')).toHaveTextContent('Rule messages moved to position 1 of 3.');
  });

  it('adds a rule with its criteria, chosen among those that fit, and shows it in its sentence', async () => {
    const onSave = renderList();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add a rule' }));
    const editor = screen.getByRole('form', { name: 'New rule' });
    expect(within(editor).getByLabelText('Rule id')).toHaveFocus();
    await user.clear(within(editor).getByLabelText('Rule id'));
    await user.type(within(editor).getByLabelText('Rule id'), 'sui-cap');
    await user.selectOptions(within(editor).getByLabelText('Operation'), 'transaction');
    // Transactions on every chain: only velocity reads them all.
    await user.click(within(editor).getByRole('button', { name: 'Add a criterion' }));
    expect(within(editor).getByLabelText('Type')).toHaveDisplayValue('Velocity (signatures or value per time)');
    await user.click(within(editor).getByRole('button', { name: 'Remove criterion 1' }));
    await user.click(within(editor).getByRole('checkbox', { name: 'Sui' }));
    await user.click(within(editor).getByRole('button', { name: 'Add a criterion' }));
    expect(within(within(editor).getByLabelText('Type')).getAllByRole('option').map((option) => option.textContent)).toEqual([
      'Move calls',
      'Transfers of coins or objects',
      'Gas budget (MIST)',
      'Publish or Upgrade',
      'Velocity (signatures or value per time)',
    ]);
    await user.selectOptions(within(editor).getByLabelText('Type'), 'suiGasBudget');
    await user.type(within(editor).getByLabelText('Value'), '50000000');
    expect(within(editor).getByText(/^Accept transactions on sui when the gas budget is at most 50000000 MIST\.$/)).toBeInTheDocument();
    await user.click(within(editor).getByRole('button', { name: 'Add rule' }));
    expect(order()).toEqual(['shop', 'no-sol', 'messages', 'sui-cap']);
    expect(screen.getByRole('button', { name: 'Edit sui-cap' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Save policy' }));
    expect(onSave.mock.calls[0]?.[0].at(-1)).toEqual({ id: 'sui-cap', action: 'accept', operation: 'transaction', chains: ['sui'], criteria: [{ type: 'suiGasBudget', operator: '<=', value: '50000000' }] });
  });

  it('edits a rule in place and refuses what the editor can tell is wrong', async () => {
    renderList();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Edit shop' }));
    const editor = screen.getByRole('form', { name: 'Edit rule shop' });
    expect(screen.getByRole('button', { name: 'Save policy' })).toBeDisabled();
    await user.clear(within(editor).getByLabelText('Rule id'));
    await user.type(within(editor).getByLabelText('Rule id'), 'no-sol');
    await user.click(within(editor).getByRole('button', { name: 'Update rule' }));
    expect(within(editor).getByRole('alert')).toHaveTextContent('Rule id: another rule is called no-sol');
    await user.clear(within(editor).getByLabelText('Rule id'));
    await user.type(within(editor).getByLabelText('Rule id'), 'shop-2');
    await user.click(within(editor).getByRole('radio', { name: 'Reject' }));
    await user.click(within(editor).getByRole('button', { name: 'Update rule' }));
    expect(order()).toEqual(['shop-2', 'no-sol', 'messages']);
    expect(screen.getByText('Reject transactions on evm when the value is at most 10 wei.')).toBeInTheDocument();
  });

  it('deletes a rule, and discards every change on request', async () => {
    renderList();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Delete no-sol' }));
    expect(order()).toEqual(['shop', 'messages']);
    expect(screen.getByRole('button', { name: 'Edit messages' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Discard changes' }));
    expect(order()).toEqual(['shop', 'no-sol', 'messages']);
  });

  it('shows why a save failed next to the Save button', async () => {
    renderList(vi.fn(async () => Promise.reject(new Error('rules.1 (no-sol).criteria.0 (evmValue): reads transaction on evm'))));
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Move no-sol up' }));
    await user.click(screen.getByRole('button', { name: 'Save policy' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('rules.1 (no-sol).criteria.0 (evmValue): reads transaction on evm');
  });
});

describe(moved.name, () => {
  it('moves an item within bounds', () => {
    expect(moved(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(moved(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moved(['a', 'b', 'c'], 1, 9)).toEqual(['a', 'c', 'b']);
  });
});

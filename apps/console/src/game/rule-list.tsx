import type { PolicyRule } from '@game-wallet/contracts/views';
import { type DragEvent, type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { ruleText } from './policy-rules';
import { RuleEditor } from './rule-editor';
import { formOfRule, newRuleForm } from './rule-form';

interface Item {
  /** stable while the list is edited, whatever the rule's id becomes */
  key: number;
  rule: PolicyRule;
}

/** Moves the item at `from` to `to`. */
export function moved<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  const [item] = next.splice(from, 1);
  if (item !== undefined) {
    next.splice(Math.max(0, Math.min(to, next.length)), 0, item);
  }
  return next;
}

/** A rule's action, as a badge. */
export function ActionBadge({ action }: { action: PolicyRule['action'] }) {
  return <span className={`badge ${action === 'accept' ? 'accept' : 'reject'}`}>{action === 'accept' ? 'Accept' : 'Reject'}</span>;
}

/** Rules read-only, in order, each in its sentence (a version's, a draft's). */
export function RuleSentences({ rules, label }: { rules: PolicyRule[]; label: string }) {
  return (
    <ol className="rule-sentences" aria-label={label}>
      {rules.map((rule) => (
        <li key={rule.id}>
          <code>{rule.id}</code> <ActionBadge action={rule.action} /> {ruleText(rule)}
        </li>
      ))}
    </ol>
  );
}

/**
 * An ordered rule list to edit: each rule in its sentence with its id and action; add, edit and delete rules, and
 * move them by their Move buttons, by Alt+↑/↓ on any of a rule's buttons, or by dragging. Changes stay here until
 * `onSave` (the whole list); `describeError` words what it threw, next to the Save button.
 */
export function RuleList({
  label,
  saved,
  saveLabel,
  onSave,
  describeError,
  children,
}: {
  /** the list's name: "Active rules", "Draft rules" */
  label: string;
  saved: PolicyRule[];
  saveLabel: string;
  onSave: (rules: PolicyRule[]) => Promise<unknown>;
  describeError: (error: unknown) => ReactNode;
  /** more actions beside Save */
  children?: ReactNode;
}) {
  const nextKey = useRef(saved.length);
  const [items, setItems] = useState<Item[]>(() => saved.map((rule, key) => ({ key, rule })));
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [dragged, setDragged] = useState<number | null>(null);
  const [dropTarget, setDropTarget] = useState<number | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  /** the control to focus once the list has rendered a change: `${key}:up` and so on */
  const [focusNext, setFocusNext] = useState<string | null>(null);
  const prefix = useId();
  const hintId = useId();
  const controlId = (key: number | 'new', control: string) => `${prefix}-${key}-${control}`;

  useEffect(() => {
    if (focusNext !== null) {
      document.getElementById(`${prefix}-${focusNext}`)?.focus();
      setFocusNext(null);
    }
  }, [focusNext, prefix]);

  const rules = items.map((item) => item.rule);
  const dirty = JSON.stringify(rules) !== JSON.stringify(saved);

  const move = (key: number, to: number, focus?: 'up' | 'down') => {
    const from = items.findIndex((item) => item.key === key);
    const target = Math.max(0, Math.min(to, items.length - 1));
    if (from < 0 || target === from) {
      return;
    }
    setItems(moved(items, from, target));
    setAnnouncement(`Rule ${items[from]?.rule.id} moved to position ${target + 1} of ${items.length}.`);
    if (focus !== undefined) {
      // At the top or bottom the button pressed is disabled: focus its other one.
      const edge = focus === 'up' ? target === 0 : target === items.length - 1;
      setFocusNext(`${key}-${edge ? (focus === 'up' ? 'down' : 'up') : focus}`);
    }
  };

  const onRowKey = (event: KeyboardEvent, key: number, index: number) => {
    if (event.altKey && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
      event.preventDefault();
      move(key, index + (event.key === 'ArrowUp' ? -1 : 1));
      // Focus stays on the control it was on, which moved with its rule.
      const focused = document.activeElement?.id;
      if (focused !== undefined && focused.startsWith(prefix)) {
        setFocusNext(focused.slice(prefix.length + 1));
      }
    }
  };

  const onDrop = (event: DragEvent, index: number) => {
    event.preventDefault();
    if (dragged !== null) {
      move(dragged, index);
    }
    setDragged(null);
    setDropTarget(null);
  };

  const remove = (key: number) => {
    const index = items.findIndex((item) => item.key === key);
    const rule = items[index]?.rule;
    const rest = items.filter((item) => item.key !== key);
    setItems(rest);
    setAnnouncement(`Rule ${rule?.id} deleted.`);
    const neighbour = rest[Math.min(index, rest.length - 1)];
    setFocusNext(neighbour === undefined ? 'new-add' : `${neighbour.key}-edit`);
  };

  const save = async () => {
    setPending(true);
    setError(null);
    try {
      await onSave(rules);
    } catch (failure) {
      setError(failure);
    } finally {
      setPending(false);
    }
  };

  const othersThan = (key: number | 'new') => items.filter((item) => item.key !== key).map((item) => item.rule.id);

  return (
    <div className="rule-list">
      {items.length === 0 ? (
        <p className="state empty">No rule: every signing request is refused.</p>
      ) : (
        <ol className="rules" aria-label={label} aria-describedby={hintId}>
          {items.map((item, index) => {
            const { key, rule } = item;
            if (editing === key) {
              return (
                <li key={key} className="rule editing">
                  <RuleEditor
                    initial={formOfRule(rule)}
                    otherIds={othersThan(key)}
                    title={`Edit rule ${rule.id}`}
                    submitLabel="Update rule"
                    onSubmit={(updated) => {
                      setItems(items.map((entry) => (entry.key === key ? { key, rule: updated } : entry)));
                      setEditing(null);
                      setFocusNext(`${key}-edit`);
                    }}
                    onCancel={() => {
                      setEditing(null);
                      setFocusNext(`${key}-edit`);
                    }}
                  />
                </li>
              );
            }
            return (
              <li
                key={key}
                className={`rule${dragged === key ? ' dragging' : ''}${dropTarget === key && dragged !== key ? ' drop-target' : ''}`}
                draggable={editing === null}
                onDragStart={(event) => {
                  setDragged(key);
                  event.dataTransfer?.setData('text/plain', rule.id);
                  if (event.dataTransfer) {
                    event.dataTransfer.effectAllowed = 'move';
                  }
                }}
                onDragOver={(event) => {
                  if (dragged !== null) {
                    event.preventDefault();
                    setDropTarget(key);
                  }
                }}
                onDrop={(event) => onDrop(event, index)}
                onDragEnd={() => {
                  setDragged(null);
                  setDropTarget(null);
                }}
                onKeyDown={(event) => onRowKey(event, key, index)}
              >
                <span className="rule-handle" aria-hidden="true" title="Drag to move">
                  ⠿
                </span>
                <div className="rule-body">
                  <div className="rule-head">
                    <span className="rule-position">{index + 1}</span>
                    <code className="rule-id">{rule.id}</code>
                    <ActionBadge action={rule.action} />
                    <div className="rule-actions">
                      <button type="button" id={controlId(key, 'up')} className="button compact" aria-label={`Move ${rule.id} up`} title="Move up (Alt+↑)" disabled={index === 0} onClick={() => move(key, index - 1, 'up')}>
                        ↑
                      </button>
                      <button
                        type="button"
                        id={controlId(key, 'down')}
                        className="button compact"
                        aria-label={`Move ${rule.id} down`}
                        title="Move down (Alt+↓)"
                        disabled={index === items.length - 1}
                        onClick={() => move(key, index + 1, 'down')}
                      >
                        ↓
                      </button>
                      <button type="button" id={controlId(key, 'edit')} className="button compact" aria-label={`Edit ${rule.id}`} disabled={editing !== null} onClick={() => setEditing(key)}>
                        Edit
                      </button>
                      <button type="button" className="button compact danger-ghost" aria-label={`Delete ${rule.id}`} disabled={editing !== null} onClick={() => remove(key)}>
                        Delete
                      </button>
                    </div>
                  </div>
                  <p className="rule-sentence">{ruleText(rule)}</p>
                  {rule.description ? <p className="muted small">{rule.description}</p> : null}
                </div>
              </li>
            );
          })}
        </ol>
      )}
      <p id={hintId} className="muted small">
        The first rule that matches decides; none: refused. Move a rule with its ↑ and ↓ buttons, with Alt+↑ and Alt+↓ on any of its buttons, or by dragging it.
      </p>
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      {editing === 'new' ? (
        <div className="rule editing">
          <RuleEditor
            initial={newRuleForm(rules.map((rule) => rule.id))}
            otherIds={othersThan('new')}
            title="New rule"
            submitLabel="Add rule"
            onSubmit={(rule) => {
              const key = nextKey.current++;
              setItems([...items, { key, rule }]);
              setEditing(null);
              setAnnouncement(`Rule ${rule.id} added at position ${items.length + 1} of ${items.length + 1}.`);
              setFocusNext(`${key}-edit`);
            }}
            onCancel={() => {
              setEditing(null);
              setFocusNext('new-add');
            }}
          />
        </div>
      ) : null}
      <div className="rule-list-actions">
        <button type="button" id={controlId('new', 'add')} className="button" disabled={editing !== null} onClick={() => setEditing('new')}>
          Add a rule
        </button>
        <span className="spacer" />
        {dirty ? <span className="muted small">Unsaved changes</span> : null}
        {dirty ? (
          <button
            type="button"
            className="button ghost"
            disabled={pending}
            onClick={() => {
              setItems(saved.map((rule) => ({ key: nextKey.current++, rule })));
              setEditing(null);
              setError(null);
            }}
          >
            Discard changes
          </button>
        ) : null}
        {children}
        <button type="button" className="button primary" disabled={!dirty || editing !== null || pending} onClick={() => void save()}>
          {pending ? 'Saving…' : saveLabel}
        </button>
      </div>
      {error === null ? null : (
        <div className="form-error" role="alert">
          {describeError(error)}
        </div>
      )}
    </div>
  );
}

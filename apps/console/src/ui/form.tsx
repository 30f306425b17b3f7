import { type ReactNode, useId } from 'react';

/** A field's own problem, under it; `id` ties it to the input's `aria-describedby`. */
export function FieldError({ id, message }: { id: string; message: string | null }) {
  return message ? (
    <p id={id} className="field-error">
      {message}
    </p>
  ) : null;
}

/** What the platform answered when a form was refused, announced at once. */
export function FormError({ message }: { message: string | null }) {
  return message ? (
    <p className="form-error" role="alert">
      {message}
    </p>
  ) : null;
}

/** Cancel and the submit button of a dialog's form. */
export function DialogActions({ onCancel, pending, disabled = false, children }: { onCancel: () => void; pending: boolean; disabled?: boolean; children: ReactNode }) {
  return (
    <div className="dialog-actions">
      <button type="button" className="button" onClick={onCancel}>
        Cancel
      </button>
      <button type="submit" className="button primary" disabled={pending || disabled}>
        {pending ? 'Saving…' : children}
      </button>
    </div>
  );
}

/**
 * A labelled text input or textarea with its hint. The label names the field and the hint describes it: the hint is
 * outside the label, so it is not read as part of the field's name.
 */
export function TextField({
  label,
  hint,
  value,
  onChange,
  multiline = false,
  numeric = false,
  rows = 3,
  placeholder,
}: {
  label: string;
  hint?: ReactNode;
  value: string;
  onChange: (value: string) => void;
  multiline?: boolean;
  /** a whole number: phones offer their digit keyboard */
  numeric?: boolean;
  rows?: number;
  placeholder?: string;
}) {
  const id = useId();
  const hintId = useId();
  const describedBy = hint === undefined ? undefined : hintId;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea id={id} rows={rows} spellCheck={false} value={value} placeholder={placeholder} aria-describedby={describedBy} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input
          id={id}
          spellCheck={false}
          inputMode={numeric ? 'numeric' : undefined}
          value={value}
          placeholder={placeholder}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      {hint === undefined ? null : (
        <span id={hintId} className="muted small">
          {hint}
        </span>
      )}
    </div>
  );
}

/** A labelled select of `options` (value and label). */
export function SelectField<T extends string>({
  label,
  hint,
  value,
  options,
  onChange,
}: {
  label: string;
  hint?: ReactNode;
  value: T;
  options: readonly Choice<T>[];
  onChange: (value: T) => void;
}) {
  const id = useId();
  const hintId = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} aria-describedby={hint === undefined ? undefined : hintId} onChange={(event) => onChange(event.target.value as T)}>
        {options.map((option) => (
          <option key={option.value} value={option.value} disabled={option.disabled}>
            {option.label}
          </option>
        ))}
      </select>
      {hint === undefined ? null : (
        <span id={hintId} className="muted small">
          {hint}
        </span>
      )}
    </div>
  );
}

/** A fieldset of choices (checkboxes or radio buttons) in a row under their legend, with an optional hint. */
function Choices({ legend, hint, children }: { legend: string; hint?: ReactNode; children: ReactNode }) {
  const hintId = useId();
  return (
    <fieldset className="choices" aria-describedby={hint === undefined ? undefined : hintId}>
      <legend>{legend}</legend>
      <div className="choice-row">{children}</div>
      {hint === undefined ? null : (
        <p id={hintId} className="muted small">
          {hint}
        </p>
      )}
    </fieldset>
  );
}

interface Choice<T> {
  value: T;
  label: string;
  disabled?: boolean;
}

/** One checkbox or radio button with its label. */
function ChoiceInput({ type, name, label, checked, disabled, onChange }: { type: 'checkbox' | 'radio'; name?: string; label: string; checked: boolean; disabled?: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="check">
      <input type={type} name={name} checked={checked} disabled={disabled} onChange={(event) => onChange(event.target.checked)} />
      <span>{label}</span>
    </label>
  );
}

/** Checkboxes in a fieldset: the values checked, in the order of `options`. */
export function CheckboxGroup<T extends string>({ legend, hint, value, options, onChange }: { legend: string; hint?: ReactNode; value: readonly T[]; options: readonly Choice<T>[]; onChange: (value: T[]) => void }) {
  const toggle = (option: T, checked: boolean) => onChange(options.map((item) => item.value).filter((item) => (item === option ? checked : value.includes(item))));
  return (
    <Choices legend={legend} hint={hint}>
      {options.map((option) => (
        <ChoiceInput key={option.value} type="checkbox" label={option.label} checked={value.includes(option.value)} disabled={option.disabled} onChange={(checked) => toggle(option.value, checked)} />
      ))}
    </Choices>
  );
}

/** Radio buttons in a fieldset. */
export function RadioGroup<T extends string>({ legend, value, options, onChange }: { legend: string; value: T; options: readonly Choice<T>[]; onChange: (value: T) => void }) {
  const name = useId();
  return (
    <Choices legend={legend}>
      {options.map((option) => (
        <ChoiceInput key={option.value} type="radio" name={name} label={option.label} checked={value === option.value} disabled={option.disabled} onChange={() => onChange(option.value)} />
      ))}
    </Choices>
  );
}

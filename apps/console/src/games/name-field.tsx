import { type ReactNode, useId } from 'react';
import { FieldError } from '../ui/form';
import { NAME_MAX } from './game-name';

/** A name input (games, API keys) with its character count and, once shown, its problem. */
export function NameField({
  label,
  value,
  onChange,
  onBlur,
  problem,
  placeholder,
}: {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  /** the problem to show now, or null */
  problem: string | null;
  placeholder?: string;
}) {
  const hintId = useId();
  const errorId = useId();
  return (
    <>
      <label className="field">
        <span>{label}</span>
        <input
          name="name"
          value={value}
          autoFocus
          placeholder={placeholder}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${hintId} ${errorId}` : hintId}
          onChange={(event) => onChange(event.target.value)}
          onBlur={onBlur}
        />
        <span id={hintId} className="hint">
          {[...value.trim()].length}/{NAME_MAX} characters
        </span>
      </label>
      <FieldError id={errorId} message={problem} />
    </>
  );
}

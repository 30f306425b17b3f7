import type { ReactNode } from 'react';

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

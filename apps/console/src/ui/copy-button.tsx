import { useState } from 'react';
import { useToast } from './toasts';

/** Copies `value` to the clipboard (with a fallback for pages served over plain http, where the Clipboard API is off). */
export async function copyText(value: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(value);
    return;
  }
  const field = document.createElement('textarea');
  field.value = value;
  field.setAttribute('readonly', '');
  field.className = 'offscreen';
  document.body.append(field);
  field.select();
  const copied = document.execCommand('copy');
  field.remove();
  if (!copied) {
    throw new Error('copy refused');
  }
}

/** A "Copy" button; `label` names what it copies for screen readers ("Copy game id"). */
export function CopyButton({ value, label, compact = false }: { value: string; label: string; compact?: boolean }) {
  const [copied, setCopied] = useState(false);
  const notify = useToast();
  const copy = async () => {
    try {
      await copyText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      notify('Copying was refused by the browser; select the text and copy it instead', 'error');
    }
  };
  return (
    <button type="button" className={compact ? 'copy-button compact' : 'copy-button'} aria-label={`Copy ${label}`} title={`Copy ${label}`} onClick={() => void copy()}>
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}

/**
 * A value shown once (a key, a secret, a link): read-only, selected on focus, with a copy button; `warningId` names
 * the warning that says it will not be shown again.
 */
export function SecretField({ label, value, copyLabel, warningId, rows = 1 }: { label: string; value: string; copyLabel: string; warningId: string; rows?: number }) {
  return (
    <label className="field">
      <span>{label}</span>
      <span className="secret-row">
        <textarea className="secret" readOnly rows={rows} spellCheck={false} value={value} aria-describedby={warningId} onFocus={(event) => event.target.select()} />
        <CopyButton value={value} label={copyLabel} />
      </span>
    </label>
  );
}

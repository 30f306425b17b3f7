import type { ReactNode } from 'react';
import { CopyButton } from './copy-button';

/** One row of a definition list of facts. */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** A fact that is a value to copy (an id, an address, a URL), with an optional note after it. */
export function CopyFact({ label, value, copyLabel, note }: { label: string; value: string; copyLabel: string; note?: string }) {
  return (
    <Fact label={label}>
      <code className="wrap">{value}</code> <CopyButton value={value} label={copyLabel} compact />
      {note ? <span className="muted small">{note}</span> : null}
    </Fact>
  );
}

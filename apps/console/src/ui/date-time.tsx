import { formatDateTime } from './format';

/** A timestamp in the reader's locale; the exact ISO time on hover. */
export function DateTime({ value, fallback = '—' }: { value: string | null; fallback?: string }) {
  if (value === null) {
    return <span className="muted">{fallback}</span>;
  }
  return (
    <time dateTime={value} title={value}>
      {formatDateTime(value)}
    </time>
  );
}

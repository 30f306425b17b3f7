/** "Previous / Page N / Next" under a paged table. */
export function Pager({
  page,
  hasPrevious,
  nextCursor,
  onPrevious,
  onNext,
  label,
}: {
  page: number;
  hasPrevious: boolean;
  nextCursor: string | null | undefined;
  onPrevious: () => void;
  onNext: (cursor: string) => void;
  label: string;
}) {
  if (!hasPrevious && !nextCursor) {
    return null;
  }
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="button" disabled={!hasPrevious} onClick={onPrevious}>
        Previous
      </button>
      <span className="muted">Page {page}</span>
      <button type="button" className="button" disabled={!nextCursor} onClick={() => nextCursor && onNext(nextCursor)}>
        Next
      </button>
    </nav>
  );
}

import { useState } from 'react';

/**
 * Back-and-forth paging over a cursor API that only goes forward: the cursors of the pages seen so far are kept, so
 * "Previous" returns to them. `reset` goes back to the first page (a new search).
 */
export function useCursorPages() {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const page = cursors.length;
  return {
    cursor: cursors[cursors.length - 1],
    page,
    hasPrevious: page > 1,
    next: (cursor: string) => setCursors((current) => [...current, cursor]),
    previous: () => setCursors((current) => (current.length > 1 ? current.slice(0, -1) : current)),
    reset: () => setCursors([undefined]),
  };
}

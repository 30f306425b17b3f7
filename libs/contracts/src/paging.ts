import { AppError } from './app-error';
import { isUuid } from './ids';
import { Page } from './identity';

/** List sizes of the console API (SPEC §5): 1–100, default 50. */
export const PAGE_LIMIT = { min: 1, max: 100, default: 50 } as const;

/** Cursors are opaque to clients: the id of the last item returned, base64url-encoded. */
export function encodeCursor(id: string): string {
  return Buffer.from(id, 'utf8').toString('base64url');
}

/** The id inside a cursor; a cursor that was not made by {@link encodeCursor} is a 400 `INVALID_QUERY`. */
export function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined || cursor === '') {
    return undefined;
  }
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!isUuid(id)) {
    throw new AppError('INVALID_QUERY', 'cursor is not valid');
  }
  return id;
}

/**
 * A page from rows fetched with `limit + 1` (newest first): the first `limit`, mapped, and a cursor after the last one
 * when the extra row shows there is more.
 */
export function pageOf<R, T extends { id: string }>(rows: R[], limit: number, map: (row: R) => T): Page<T> {
  const items = rows.slice(0, limit).map(map);
  return { items, nextCursor: rows.length > limit ? encodeCursor(items[items.length - 1].id) : null };
}

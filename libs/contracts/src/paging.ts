import { AppError } from './app-error';

/** List sizes of the console API (SPEC §5): 1–100, default 50. */
export const PAGE_LIMIT = { min: 1, max: 100, default: 50 } as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

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
  if (!UUID.test(id)) {
    throw new AppError('INVALID_QUERY', 'cursor is not valid');
  }
  return id;
}

/**
 * What TypeORM's `query` answers, as rows: an UPDATE or DELETE … RETURNING comes as `[rows, count]`, an INSERT or
 * SELECT as the rows themselves.
 */
export function rowsOf<T = unknown>(result: unknown): T[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') {
    return result[0] as T[];
  }
  return (Array.isArray(result) ? result : []) as T[];
}

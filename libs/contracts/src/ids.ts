const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** True for a lowercase UUID. A malformed id is "not found", never a database error (SPEC §2). */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

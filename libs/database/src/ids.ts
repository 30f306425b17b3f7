import { v7 } from 'uuid';

/** A new id: UUIDv7 (time-ordered, so indexes stay append-mostly), lowercase. */
export function newId(): string {
  return v7();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** True for a lowercase UUID. A malformed id is "not found", never a database error (SPEC §2). */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

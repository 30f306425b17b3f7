import { v7 } from 'uuid';

/** A new id: UUIDv7 (time-ordered, so indexes stay append-mostly), lowercase. */
export function newId(): string {
  return v7();
}

/** Ids are checked with the contract's rule (a malformed id is "not found"). */
export { isUuid } from '@game-wallet/contracts';

import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `fn` with `requestId` attached to every log line written inside it (including its async continuations). */
export function runWithRequestId<T>(requestId: string, fn: () => T): T {
  return storage.run({ requestId }, fn);
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

const PRINTABLE = /^[\x21-\x7e]{1,128}$/;

/** SPEC §2: a client's `x-request-id` is kept when it is 1–128 printable characters; otherwise one is generated. */
export function acceptOrGenerateRequestId(header: unknown): string {
  return typeof header === 'string' && PRINTABLE.test(header) ? header : randomUUID();
}

import { ErrorPayload } from '@game-wallet/contracts';

/**
 * One request as stored in a service's stream (a single field `m` holding this JSON).
 * `t` is the absolute deadline in epoch milliseconds: a consumer that takes the entry later drops it unprocessed.
 */
export interface WireRequest {
  /** correlation id, unique per client */
  i: string;
  /** message pattern */
  p: string;
  /** reply channel of the asking client instance */
  r: string;
  /** deadline, epoch ms */
  t: number;
  /** request id (x-request-id) for logs */
  q: string;
  /** data */
  d: unknown;
}

/** A reply, published on the asking client's channel: `d` on success, `e` on error. */
export interface WireReply {
  i: string;
  d?: unknown;
  e?: ErrorPayload;
}

export const REQUEST_FIELD = 'm';

export function parseWireRequest(fields: string[]): WireRequest | undefined {
  for (let index = 0; index + 1 < fields.length; index += 2) {
    if (fields[index] === REQUEST_FIELD) {
      try {
        const value = JSON.parse(fields[index + 1]) as Partial<WireRequest>;
        if (typeof value.i === 'string' && typeof value.p === 'string' && typeof value.r === 'string' && typeof value.t === 'number') {
          return { i: value.i, p: value.p, r: value.r, t: value.t, q: typeof value.q === 'string' ? value.q : '', d: value.d };
        }
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

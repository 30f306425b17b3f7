import { ErrorPayload } from '@game-wallet/contracts';

/**
 * One request. A stream entry holds a batch of them: a single field `m` with a JSON array (the requests one gateway
 * made for one service in one turn of its event loop); a batch is taken, and each request in it handled, by one replica.
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

/** A reply: `d` on success, `e` on error. Replies are published on the asking client's channel as a JSON array. */
export interface WireReply {
  i: string;
  d?: unknown;
  e?: ErrorPayload;
}

/** A stream entry as XREADGROUP/XCLAIM return it. */
export type StreamEntry = [id: string, fields: string[]];

export const REQUEST_FIELD = 'm';

/** Most requests in one stream entry: large enough to save commands under load, small enough to spread it over replicas. */
export const MAX_REQUESTS_PER_ENTRY = 16;

function toWireRequest(value: unknown): WireRequest | undefined {
  if (typeof value !== 'object' || value === null) {
    return undefined;
  }
  const request = value as Partial<WireRequest>;
  if (typeof request.i === 'string' && typeof request.p === 'string' && typeof request.r === 'string' && typeof request.t === 'number') {
    return { i: request.i, p: request.p, r: request.r, t: request.t, q: typeof request.q === 'string' ? request.q : '', d: request.d };
  }
  return undefined;
}

/** The requests of one stream entry; malformed ones are left out (and counted by the caller as dropped). */
export function parseWireRequests(fields: string[]): { requests: WireRequest[]; malformed: number } {
  for (let index = 0; index + 1 < fields.length; index += 2) {
    if (fields[index] === REQUEST_FIELD) {
      let value: unknown;
      try {
        value = JSON.parse(fields[index + 1]);
      } catch {
        return { requests: [], malformed: 1 };
      }
      const items = Array.isArray(value) ? value : [value];
      const requests = items.map(toWireRequest).filter((request): request is WireRequest => request !== undefined);
      return { requests, malformed: items.length - requests.length };
    }
  }
  return { requests: [], malformed: 1 };
}

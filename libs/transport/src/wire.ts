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
  /**
   * The Redis server the request was written to (the start of its run id, `ServerIdentity`): a server replica runs a
   * request only when read from that same server, so one that a previous primary took in (and may have run, or
   * answered) is never run again after a failover. Absent: the client could not tell (the request is run as before).
   */
  g?: string;
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
/** The entry's signature over REQUEST_FIELD (see TransportKeyring). */
export const SIGNATURE_FIELD = 's';

/** Signing contexts: a request is bound to its service's stream, a reply to the asking client's channel. */
export const requestContext = (stream: string): string => `request ${stream}`;
export const replyContext = (channel: string): string => `reply ${channel}`;

/** The request text and signature of a stream entry (either may be missing). */
export function entryParts(fields: string[]): { text?: string; signature?: string } {
  const parts: { text?: string; signature?: string } = {};
  for (let index = 0; index + 1 < fields.length; index += 2) {
    if (fields[index] === REQUEST_FIELD) {
      parts.text = fields[index + 1];
    } else if (fields[index] === SIGNATURE_FIELD) {
      parts.signature = fields[index + 1];
    }
  }
  return parts;
}

/** A published reply message: the signature, a space, then the JSON array of replies. */
export function replyMessage(signature: string, text: string): string {
  return `${signature} ${text}`;
}

export function replyParts(message: string): { text: string; signature?: string } {
  const space = message.indexOf(' ');
  return space < 0 ? { text: message } : { signature: message.slice(0, space), text: message.slice(space + 1) };
}

/** Most requests in one stream entry: large enough to save commands under load, small enough to spread it over replicas. */
export const MAX_REQUESTS_PER_ENTRY = 16;

function toWireRequest(value: unknown): WireRequest | undefined {
  if (typeof value !== 'object' || value === null) {
    return undefined;
  }
  const request = value as Partial<WireRequest>;
  if (typeof request.i === 'string' && typeof request.p === 'string' && typeof request.r === 'string' && typeof request.t === 'number') {
    const parsed: WireRequest = { i: request.i, p: request.p, r: request.r, t: request.t, q: typeof request.q === 'string' ? request.q : '', d: request.d };
    if (typeof request.g === 'string') {
      parsed.g = request.g;
    }
    return parsed;
  }
  return undefined;
}

/** The requests of one stream entry's text; malformed ones are left out (and counted by the caller as dropped). */
export function parseWireRequests(text: string): { requests: WireRequest[]; malformed: number } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { requests: [], malformed: 1 };
  }
  const items = Array.isArray(value) ? value : [value];
  const requests = items.map(toWireRequest).filter((request): request is WireRequest => request !== undefined);
  return { requests, malformed: items.length - requests.length };
}

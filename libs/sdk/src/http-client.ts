import type { PolicyDeniedDetails } from './contract-types';
import { GameWalletError } from './errors';
import { checkedIdempotencyKey, idempotencyKeyHeader, newIdempotencyKey } from './idempotency-key';
import { DEFAULT_RETRY_SETTINGS, RetrySettings, isRetryable, parseRetryAfter, retryDelayMs } from './retry-policy';

/** The part of a `fetch` Response the SDK reads. */
export interface FetchResponse {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export interface FetchRequestInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

/** A `fetch` function: the global one by default; any WHATWG-compatible one (or a test double) may be given. */
export type FetchFunction = (url: string, init: FetchRequestInit) => Promise<FetchResponse>;

/** Options every method takes as its last argument. */
export interface RequestOptions {
  /** Cancels the call, its retries and the waits between them: the call rejects with `ABORTED`. */
  signal?: AbortSignal;
  /** The longest the whole call may take, retries and waits included (default: the client's); then `TIMEOUT`. */
  timeoutMs?: number;
  /**
   * Retries for this call (default: the client's). Every call may be retried: a read is safe to repeat, and a write
   * carries an Idempotency-Key, so the platform answers its retry with the first attempt's answer.
   */
  retries?: number;
  /**
   * The `Idempotency-Key` of a write (`POST`, `PUT`, `PATCH`, `DELETE`): 1–255 printable ASCII characters (0x20–0x7E)
   * without `"` and `\`, else the call throws a `TypeError` before sending. Default: a random UUID, new for each call
   * and the same for each of its retries. Give your own, saved before the first call, to repeat a write safely after
   * a restart of your process: the platform answers it with the first one's answer. Reads send none.
   */
  idempotencyKey?: string;
  /** Sent as `x-request-id` (1–128 printable characters) so the platform's log lines carry it. */
  requestId?: string;
}

/** Settings shared by both kinds of client. */
export interface ClientOptions {
  /** Default limit of one call, retries and waits included, in milliseconds (default 10000). */
  timeoutMs?: number;
  /**
   * How many times a call is retried after 429, 503, 504, 409 `IDEMPOTENCY_IN_PROGRESS` or a network error (default 2;
   * 0 disables). Writes are retried too: each carries an Idempotency-Key, so a retry of a write the platform already
   * did is answered with that write's answer instead of being done again.
   */
  retries?: number;
  /** The first backoff between retries, doubled each time, with jitter (default 250 ms). */
  retryDelayMs?: number;
  /** The longest wait between retries; a `Retry-After` beyond it is not waited for (default 10000 ms). */
  maxRetryDelayMs?: number;
  /** The `fetch` to use (default: `globalThis.fetch`). */
  fetch?: FetchFunction;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

export interface HttpCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  body?: unknown;
  /** headers of this call (e.g. `if-match`), beside the credential's */
  headers?: Record<string, string>;
  /** An error answer whose body is the result the caller wants (a health report's 503). */
  accepts?: (status: number, body: unknown) => boolean;
  /** The media type of an answer that is not JSON (`application/x-ndjson`): a 2xx answer's body is its text. */
  text?: string;
}

export interface HttpAnswer<T> {
  status: number;
  body: T;
}

export type CredentialHeaders = () => Record<string, string> | Promise<Record<string, string>>;

/** What one attempt sends. */
export interface OutgoingRequest {
  readonly method: HttpCall['method'];
  /** The URL given to fetch, as the WHATWG URL parser serializes it (what goes on the wire). */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The body as sent, a string fetch encodes as UTF-8. */
  readonly body?: string;
}

/** What a client adds to the pipeline. */
export interface HttpClientHooks {
  /** The source of retry jitter (default `Math.random`). */
  random?: () => number;
  /**
   * Headers made anew for each attempt from what it sends, retries included: a request signature, whose `created`
   * and `nonce` must not repeat. A rejection ends the call with its error.
   */
  attemptHeaders?: (request: OutgoingRequest) => Promise<Record<string, string>>;
}

/**
 * One HTTP pipeline: credentials, an Idempotency-Key on every write, a deadline for the whole call, the caller's abort
 * signal, retries, and every failure as a {@link GameWalletError}.
 */
export class HttpClient {
  private readonly timeoutMs: number;
  private readonly retry: RetrySettings;
  private readonly fetch: FetchFunction;
  private readonly random: () => number;
  private readonly attemptHeaders?: HttpClientHooks['attemptHeaders'];

  constructor(
    options: ClientOptions,
    private readonly credentials: CredentialHeaders = () => ({}),
    hooks: HttpClientHooks = {},
  ) {
    this.random = hooks.random ?? Math.random;
    this.attemptHeaders = hooks.attemptHeaders;
    this.timeoutMs = positive('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    this.retry = {
      retries: wholeNumber('retries', options.retries ?? DEFAULT_RETRY_SETTINGS.retries),
      retryDelayMs: positive('retryDelayMs', options.retryDelayMs ?? DEFAULT_RETRY_SETTINGS.retryDelayMs),
      maxRetryDelayMs: positive('maxRetryDelayMs', options.maxRetryDelayMs ?? DEFAULT_RETRY_SETTINGS.maxRetryDelayMs),
    };
    const given = options.fetch;
    if (given === undefined && typeof globalThis.fetch !== 'function') {
      throw new TypeError('No fetch in this environment: pass one as the `fetch` option');
    }
    // Looked up at each call (not bound once) so that a fetch installed later, or stubbed by a test, is used.
    this.fetch = given ?? ((url, init) => globalThis.fetch(url, init));
  }

  /** The parsed body of the answer (undefined for 204). */
  async request<T>(call: HttpCall, options: RequestOptions = {}): Promise<T> {
    return (await this.send<T>(call, options)).body;
  }

  /** The status and parsed body of the answer. */
  async send<T>(call: HttpCall, options: RequestOptions = {}): Promise<HttpAnswer<T>> {
    const timeoutMs = positive('timeoutMs', options.timeoutMs ?? this.timeoutMs);
    const retries = wholeNumber('retries', options.retries ?? this.retry.retries);
    const givenKey = options.idempotencyKey === undefined ? undefined : checkedIdempotencyKey(options.idempotencyKey);
    const scope = new CallScope(timeoutMs, options.signal, options.requestId);
    try {
      scope.throwIfEnded();
      // One key for the call, made before the first attempt: every retry sends the same one.
      const idempotencyKey = call.method === 'GET' ? undefined : (givenKey ?? (await newIdempotencyKey()));
      const headers: Record<string, string> = { accept: call.text === undefined ? 'application/json' : `${call.text}, application/json`, ...call.headers, ...(await this.credentials()) };
      scope.throwIfEnded();
      if (options.requestId !== undefined) {
        headers['x-request-id'] = options.requestId;
      }
      if (call.body !== undefined) {
        headers['content-type'] = 'application/json';
      }
      if (idempotencyKey !== undefined) {
        headers['idempotency-key'] = idempotencyKeyHeader(idempotencyKey);
      }
      const body = call.body === undefined ? undefined : JSON.stringify(call.body);
      const url = serializedUrl(call.url);
      for (let attempt = 0; ; attempt += 1) {
        const sent = this.attemptHeaders === undefined ? headers : { ...headers, ...(await scope.within(this.attemptHeaders({ method: call.method, url, headers, body }))) };
        const outcome = await this.attempt<T>(url, call, { method: call.method, headers: sent, body, signal: scope.signal }, scope);
        if (outcome.ok) {
          return outcome.value;
        }
        const delay = isRetryable(outcome.error) && attempt < retries ? retryDelayMs(attempt, outcome.error.retryAfter, this.retry, this.random) : undefined;
        if (delay === undefined || !scope.leaves(delay)) {
          throw outcome.error;
        }
        await scope.sleep(delay);
      }
    } finally {
      scope.dispose();
    }
  }

  private async attempt<T>(url: string, call: HttpCall, init: FetchRequestInit, scope: CallScope): Promise<{ ok: true; value: HttpAnswer<T> } | { ok: false; error: GameWalletError }> {
    let status: number;
    let headers: FetchResponse['headers'];
    let text: string;
    try {
      const response = await this.fetch(url, init);
      status = response.status;
      headers = response.headers;
      text = await response.text();
    } catch (cause) {
      // A timeout or an abort surfaces from fetch as an AbortError: report what ended the call, not how.
      scope.throwIfEnded();
      return { ok: false, error: new GameWalletError({ status: 0, code: 'NETWORK_ERROR', message: `Could not reach ${originOf(url)}: ${reasonOf(cause)}`, requestId: scope.requestId, cause }) };
    }
    const requestId = headers.get('x-request-id') ?? scope.requestId;
    if (call.text !== undefined && status >= 200 && status < 300) {
      return { ok: true, value: { status, body: text as T } };
    }
    const body = parseJson(text);
    if (status >= 200 && status < 300) {
      return body.ok
        ? { ok: true, value: { status, body: body.value as T } }
        : { ok: false, error: new GameWalletError({ status, code: 'UNEXPECTED_RESPONSE', message: `The answer (HTTP ${status}) is not JSON`, requestId }) };
    }
    if (body.ok && call.accepts?.(status, body.value)) {
      return { ok: true, value: { status, body: body.value as T } };
    }
    return { ok: false, error: errorFromAnswer(status, body.ok ? body.value : undefined, requestId, parseRetryAfter(headers.get('retry-after'))) };
  }
}

/** An empty body (204) is undefined. */
function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text === '') {
    return { ok: true, value: undefined };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/**
 * An error answer as the platform sends it (`{message, code}`, with `details` for 403 `POLICY_DENIED`), or
 * `UNEXPECTED_RESPONSE` with the status otherwise.
 */
function errorFromAnswer(status: number, body: unknown, requestId: string | undefined, retryAfter: number | undefined): GameWalletError {
  if (isErrorBody(body)) {
    const details = isPolicyDeniedDetails(body.details) ? body.details : undefined;
    return new GameWalletError({ status, code: body.code, message: body.message, requestId, retryAfter, details });
  }
  return new GameWalletError({ status, code: 'UNEXPECTED_RESPONSE', message: `HTTP ${status} without the platform's error body`, requestId, retryAfter });
}

function isErrorBody(body: unknown): body is { message: string; code: string; details?: unknown } {
  return typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string' && typeof (body as { code?: unknown }).code === 'string';
}

function isPolicyDeniedDetails(details: unknown): details is PolicyDeniedDetails {
  if (typeof details !== 'object' || details === null || Array.isArray(details)) {
    return false;
  }
  const { ruleId, reason, observed } = details as Record<string, unknown>;
  return (ruleId === null || typeof ruleId === 'string') && typeof reason === 'string' && (observed === undefined || typeof observed === 'string');
}

/** The life of one call: its deadline, the caller's signal, and what ended it. */
class CallScope {
  private readonly controller = new AbortController();
  private readonly endsAt: number;
  private readonly timer: ReturnType<typeof setTimeout>;
  private ended?: GameWalletError;

  constructor(
    private readonly timeoutMs: number,
    private readonly callerSignal: AbortSignal | undefined,
    readonly requestId: string | undefined,
  ) {
    this.endsAt = Date.now() + timeoutMs;
    this.timer = setTimeout(() => this.end('TIMEOUT', `The call did not finish within ${this.timeoutMs} ms`), timeoutMs);
    if (callerSignal?.aborted) {
      this.onAbort();
    } else {
      callerSignal?.addEventListener('abort', this.onAbort);
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  throwIfEnded(): void {
    if (this.ended) {
      throw this.ended;
    }
  }

  /** Whether a wait of `ms` still ends before the deadline. */
  leaves(ms: number): boolean {
    return Date.now() + ms < this.endsAt;
  }

  /** What `promise` gives, unless the call ends first (a signer that hangs must not outlast the deadline). */
  within<T>(promise: Promise<T>): Promise<T> {
    return new Promise((resolve, reject) => {
      if (this.ended) {
        reject(this.ended);
        return;
      }
      const onEnd = () => reject(this.ended);
      this.signal.addEventListener('abort', onEnd, { once: true });
      promise.then(
        (value) => {
          this.signal.removeEventListener('abort', onEnd);
          resolve(value);
        },
        (reason: unknown) => {
          this.signal.removeEventListener('abort', onEnd);
          reject(reason);
        },
      );
    });
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.ended) {
        reject(this.ended);
        return;
      }
      const onEnd = () => {
        clearTimeout(wait);
        reject(this.ended);
      };
      const wait = setTimeout(() => {
        this.signal.removeEventListener('abort', onEnd);
        resolve();
      }, ms);
      this.signal.addEventListener('abort', onEnd, { once: true });
    });
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.callerSignal?.removeEventListener('abort', this.onAbort);
  }

  private readonly onAbort = (): void => {
    this.end('ABORTED', 'The call was aborted');
  };

  private end(code: 'TIMEOUT' | 'ABORTED', message: string): void {
    if (this.ended) {
      return;
    }
    this.ended = new GameWalletError({ status: 0, code, message, requestId: this.requestId, cause: code === 'ABORTED' ? this.callerSignal?.reason : undefined });
    this.controller.abort(this.ended);
  }
}

/**
 * The URL as the WHATWG URL parser writes it (lower-case scheme and host, no default port, the path percent-encoded),
 * which is what fetch sends: a signature then covers the URL as it goes on the wire. Unparsable, it is left for fetch
 * to refuse.
 */
function serializedUrl(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

function reasonOf(cause: unknown): string {
  if (cause instanceof Error) {
    const inner = (cause as { cause?: unknown }).cause;
    // Node's fetch says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND…) is its cause.
    return inner instanceof Error ? `${cause.message} (${inner.message})` : cause.message;
  }
  return String(cause);
}

function positive(name: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new TypeError(`${name} must be a positive number of milliseconds`);
  }
  return value;
}

function wholeNumber(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) {
    throw new TypeError(`${name} must be a whole number, 0 or more`);
  }
  return value;
}

import { GameWalletError } from './errors';
import { HttpCall, HttpClient, OutgoingRequest } from './http-client';
import { fakeFetch, hangingFetch, response } from './testing/fake-fetch';

const read: HttpCall = { method: 'GET', url: 'https://api.test/v1/thing' };
const write: HttpCall = { method: 'POST', url: 'https://api.test/v1/thing', body: { a: 1 } };
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const unavailable = { status: 503, body: { message: 'Redis is unavailable', code: 'SERVICE_UNAVAILABLE' }, headers: { 'retry-after': '1', 'x-request-id': 'req-1' } };
const ok = { status: 200, body: { id: 'x' } };

/** A client that retries quickly and without randomness (jitter 0). */
const client = (fetch: ReturnType<typeof fakeFetch>, options: ConstructorParameters<typeof HttpClient>[0] = {}) =>
  new HttpClient({ retryDelayMs: 1, fetch, ...options }, () => ({ 'x-api-key': 'gk_test' }), { random: () => 0 });

async function failure(promise: Promise<unknown>): Promise<GameWalletError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(GameWalletError);
  return error as GameWalletError;
}

describe(HttpClient.name, () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  describe('retries', () => {
    it('retries a read after 503, 504 and 429 and returns the answer that succeeds', async () => {
      const fetch = fakeFetch(
        { ...unavailable, headers: {} },
        { status: 504, body: { message: 'deadline', code: 'GATEWAY_TIMEOUT' } },
        ok,
      );
      await expect(client(fetch).request(read)).resolves.toEqual({ id: 'x' });
      expect(fetch.requests).toHaveLength(3);
      const limited = fakeFetch({ status: 429, body: { message: 'slow down', code: 'RATE_LIMITED' }, headers: { 'retry-after': '0' } }, ok);
      await expect(client(limited).request(read)).resolves.toEqual({ id: 'x' });
      expect(limited.requests).toHaveLength(2);
    });

    it('sends the same request again: method, headers (the Idempotency-Key too) and body', async () => {
      const fetch = fakeFetch({ ...unavailable, headers: {} }, ok);
      await client(fetch).request(write, { requestId: 'mine' });
      const [first, second] = fetch.requests;
      expect(second.url).toBe(first.url);
      expect(second.init.method).toBe('POST');
      expect(second.init.headers).toEqual(first.init.headers);
      expect(second.init.body).toBe('{"a":1}');
    });

    it.each([['POST'], ['PUT'], ['PATCH'], ['DELETE']] as const)('retries a %s (it carries an Idempotency-Key) after 429, 503, 504 and a network error', async (method) => {
      const fetch = fakeFetch(
        { status: 429, body: { message: 'slow down', code: 'RATE_LIMITED' }, headers: { 'retry-after': '0' } },
        { ...unavailable, headers: {} },
        { status: 504, body: { message: 'deadline', code: 'GATEWAY_TIMEOUT' } },
        new TypeError('fetch failed'),
        ok,
      );
      await expect(client(fetch, { retries: 4 }).request({ ...write, method })).resolves.toEqual({ id: 'x' });
      expect(fetch.requests).toHaveLength(5);
      expect(new Set(fetch.requests.map((request) => request.init.headers['idempotency-key'])).size).toBe(1);
    });

    it('retries 409 IDEMPOTENCY_IN_PROGRESS (the first attempt still runs) after its Retry-After', async () => {
      jest.useFakeTimers();
      const inProgress = { status: 409, body: { message: 'A request with this Idempotency-Key is in progress', code: 'IDEMPOTENCY_IN_PROGRESS' }, headers: { 'retry-after': '1' } };
      const fetch = fakeFetch(inProgress, { status: 201, body: { id: 'x' }, headers: { 'idempotent-replayed': 'true' } });
      const result = client(fetch, { retryDelayMs: 200 }).request(write);
      await jest.advanceTimersByTimeAsync(999);
      expect(fetch.requests).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(1);
      await expect(result).resolves.toEqual({ id: 'x' });
      expect(fetch.requests[1].init.headers['idempotency-key']).toBe(fetch.requests[0].init.headers['idempotency-key']);
    });

    it('does not retry 422 IDEMPOTENCY_KEY_REUSED, nor another 409', async () => {
      const reused = fakeFetch({ status: 422, body: { message: 'This Idempotency-Key came with another request', code: 'IDEMPOTENCY_KEY_REUSED' } }, ok);
      expect(await failure(client(reused).request(write))).toMatchObject({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
      expect(reused.requests).toHaveLength(1);
      const conflict = fakeFetch({ status: 409, body: { message: 'Taken', code: 'CONFLICT' }, headers: { 'retry-after': '0' } }, ok);
      expect(await failure(client(conflict).request(write))).toMatchObject({ status: 409, code: 'CONFLICT' });
      expect(conflict.requests).toHaveLength(1);
    });

    it.each([[400], [401], [403], [404], [500]])('does not retry %i', async (status) => {
      const fetch = fakeFetch({ status, body: { message: 'no', code: 'X' } }, ok);
      expect((await failure(client(fetch).request(read))).status).toBe(status);
      expect(fetch.requests).toHaveLength(1);
    });

    it('stops after `retries` retries (2 by default) and throws the last answer', async () => {
      const fetch = fakeFetch({ ...unavailable, headers: { 'x-request-id': 'req-9' } });
      const error = await failure(client(fetch).request(read));
      expect(fetch.requests).toHaveLength(3);
      expect(error).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', requestId: 'req-9' });
      const once = fakeFetch({ ...unavailable, headers: {} });
      await failure(client(once, { retries: 1 }).request(read));
      expect(once.requests).toHaveLength(2);
    });

    it('does not retry at all with retries: 0, on the client or on the call', async () => {
      const fetch = fakeFetch({ ...unavailable, headers: {} }, ok);
      await failure(client(fetch, { retries: 0 }).request(read));
      expect(fetch.requests).toHaveLength(1);
      const perCall = fakeFetch({ ...unavailable, headers: {} }, ok);
      await failure(client(perCall).request(read, { retries: 0 }));
      expect(perCall.requests).toHaveLength(1);
    });

    it('retries a network error of a read', async () => {
      const fetch = fakeFetch(new TypeError('fetch failed'), ok);
      await expect(client(fetch).request(read)).resolves.toEqual({ id: 'x' });
      expect(fetch.requests).toHaveLength(2);
    });

    it('waits Retry-After before the retry, never less', async () => {
      jest.useFakeTimers();
      const fetch = fakeFetch(unavailable, ok);
      const result = client(fetch, { retryDelayMs: 200 }).request(read);
      await jest.advanceTimersByTimeAsync(999);
      expect(fetch.requests).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(1);
      expect(fetch.requests).toHaveLength(2);
      await expect(result).resolves.toEqual({ id: 'x' });
    });

    it('backs off exponentially without Retry-After', async () => {
      jest.useFakeTimers();
      const fetch = fakeFetch({ ...unavailable, headers: {} }, { ...unavailable, headers: {} }, ok);
      // jitter 0: half of 100 ms, then half of 200 ms
      const result = client(fetch, { retryDelayMs: 100 }).request(read);
      await jest.advanceTimersByTimeAsync(49);
      expect(fetch.requests).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(1);
      expect(fetch.requests).toHaveLength(2);
      await jest.advanceTimersByTimeAsync(99);
      expect(fetch.requests).toHaveLength(2);
      await jest.advanceTimersByTimeAsync(1);
      await expect(result).resolves.toEqual({ id: 'x' });
    });

    it('does not wait for a Retry-After longer than maxRetryDelayMs: it throws with retryAfter', async () => {
      const fetch = fakeFetch({ ...unavailable, headers: { 'retry-after': '30' } }, ok);
      const error = await failure(client(fetch, { maxRetryDelayMs: 5000 }).request(read));
      expect(error.retryAfter).toBe(30);
      expect(fetch.requests).toHaveLength(1);
    });

    it('does not start a wait that would end after the call timeout: it throws the answer instead', async () => {
      const fetch = fakeFetch({ ...unavailable, headers: { 'retry-after': '2' } }, ok);
      const started = Date.now();
      const error = await failure(client(fetch).request(read, { timeoutMs: 1000 }));
      expect(Date.now() - started).toBeLessThan(500);
      expect([error.code, error.retryAfter]).toEqual(['SERVICE_UNAVAILABLE', 2]);
      expect(fetch.requests).toHaveLength(1);
    });
  });

  describe('errors', () => {
    it('carries the platform body, status, x-request-id and Retry-After (seconds or a date)', async () => {
      const error = await failure(client(fakeFetch(unavailable), { retries: 0 }).request(read));
      expect(error).toMatchObject({ name: 'GameWalletError', status: 503, code: 'SERVICE_UNAVAILABLE', message: 'Redis is unavailable', requestId: 'req-1', retryAfter: 1 });
      expect(error).toBeInstanceOf(Error);
      const date = new Date(Date.now() + 60_000).toUTCString();
      const limited = await failure(client(fakeFetch({ status: 429, body: { message: 'm', code: 'RATE_LIMITED' }, headers: { 'retry-after': date } }), { retries: 0 }).request(read));
      expect(limited.retryAfter).toBeGreaterThanOrEqual(59);
      expect(limited.retryAfter).toBeLessThanOrEqual(60);
    });

    it('reports an error without the platform body as UNEXPECTED_RESPONSE with its status', async () => {
      const error = await failure(client(fakeFetch({ status: 502, body: '<html>Bad Gateway</html>' })).request(read));
      expect(error).toMatchObject({ status: 502, code: 'UNEXPECTED_RESPONSE' });
    });

    it('reports a success that is not JSON as UNEXPECTED_RESPONSE', async () => {
      const error = await failure(client(fakeFetch({ status: 200, body: 'hello' })).request(read));
      expect(error).toMatchObject({ status: 200, code: 'UNEXPECTED_RESPONSE' });
    });

    it('reports a failed connection as NETWORK_ERROR with its reason and keeps the cause', async () => {
      const cause = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') });
      const error = await failure(client(fakeFetch(cause), { retries: 0 }).request(read, { requestId: 'r-7' }));
      expect(error).toMatchObject({ status: 0, code: 'NETWORK_ERROR', requestId: 'r-7' });
      expect(error.message).toBe('Could not reach https://api.test: fetch failed (connect ECONNREFUSED 127.0.0.1:9)');
      expect(error.cause).toBe(cause);
    });

    it('answers 204 with undefined', async () => {
      await expect(client(fakeFetch({ status: 204 })).request(write)).resolves.toBeUndefined();
    });

    it('returns an error answer the call accepts (a health report) instead of throwing', async () => {
      const report = { status: 'error', details: {} };
      const fetch = fakeFetch({ status: 503, body: report });
      await expect(client(fetch).request({ ...read, accepts: (status) => status === 503 })).resolves.toEqual(report);
      expect(fetch.requests).toHaveLength(1);
    });
  });

  describe('timeouts and aborts', () => {
    it('ends a call that takes longer than timeoutMs with TIMEOUT, aborting the request', async () => {
      const fetch = hangingFetch();
      const started = Date.now();
      const error = await failure(client(fetch).request(read, { timeoutMs: 50 }));
      expect([error.status, error.code]).toEqual([0, 'TIMEOUT']);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(fetch.requests[0].init.signal.aborted).toBe(true);
      expect(fetch.requests).toHaveLength(1);
    });

    it('uses the client timeout (10 s by default) when the call gives none', async () => {
      jest.useFakeTimers();
      const fetch = hangingFetch();
      const result = failure(new HttpClient({ fetch }).request(read));
      await jest.advanceTimersByTimeAsync(9_999);
      expect(fetch.requests[0].init.signal.aborted).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      expect((await result).code).toBe('TIMEOUT');
      const short = hangingFetch();
      const shortResult = failure(new HttpClient({ fetch: short, timeoutMs: 100 }).request(read));
      await jest.advanceTimersByTimeAsync(100);
      expect((await shortResult).code).toBe('TIMEOUT');
    });

    it('sends nothing when the signal is already aborted', async () => {
      const fetch = fakeFetch(ok);
      const error = await failure(client(fetch).request(read, { signal: AbortSignal.abort() }));
      expect(error.code).toBe('ABORTED');
      expect(fetch.requests).toHaveLength(0);
    });

    it('aborts a request in flight when the signal fires', async () => {
      const fetch = hangingFetch();
      const controller = new AbortController();
      const result = failure(client(fetch).request(read, { signal: controller.signal }));
      await new Promise((resolve) => setTimeout(resolve, 10));
      controller.abort();
      const error = await result;
      expect([error.status, error.code]).toEqual([0, 'ABORTED']);
      expect(fetch.requests[0].init.signal.aborted).toBe(true);
    });

    it('aborts the wait between retries, and sends no retry', async () => {
      jest.useFakeTimers();
      const fetch = fakeFetch(unavailable, ok);
      const controller = new AbortController();
      const result = failure(client(fetch).request(read, { signal: controller.signal }));
      await jest.advanceTimersByTimeAsync(500);
      controller.abort();
      expect((await result).code).toBe('ABORTED');
      await jest.advanceTimersByTimeAsync(2000);
      expect(fetch.requests).toHaveLength(1);
    });
  });

  describe('attempt headers (a request signature)', () => {
    const withHook = (fetch: ReturnType<typeof fakeFetch>, attemptHeaders: (request: OutgoingRequest) => Promise<Record<string, string>>) =>
      new HttpClient({ retryDelayMs: 1, fetch }, () => ({ 'x-api-key': 'gk_test' }), { random: () => 0, attemptHeaders });

    it('adds headers made for each attempt from what it sends, the URL as fetch sends it', async () => {
      const seen: OutgoingRequest[] = [];
      const fetch = fakeFetch({ ...unavailable, headers: {} }, ok);
      await withHook(fetch, async (request) => (seen.push(request), { signature: `attempt-${seen.length}` })).request({ ...write, url: 'HTTPS://API.test:443/v1/thing?a=1' });
      expect(seen).toHaveLength(2);
      const headers = { accept: 'application/json', 'x-api-key': 'gk_test', 'content-type': 'application/json', 'idempotency-key': fetch.requests[0].init.headers['idempotency-key'] };
      expect(seen).toEqual([
        { method: 'POST', url: 'https://api.test/v1/thing?a=1', headers, body: '{"a":1}' },
        { method: 'POST', url: 'https://api.test/v1/thing?a=1', headers, body: '{"a":1}' },
      ]);
      expect(fetch.requests.map(({ url, init }) => [url, init.headers.signature])).toEqual([
        ['https://api.test/v1/thing?a=1', 'attempt-1'],
        ['https://api.test/v1/thing?a=1', 'attempt-2'],
      ]);
    });

    it('ends with TIMEOUT when making them outlasts the call, sending nothing', async () => {
      const fetch = fakeFetch(ok);
      const error = await failure(withHook(fetch, () => new Promise(() => undefined)).request(read, { timeoutMs: 50 }));
      expect(error.code).toBe('TIMEOUT');
      expect(fetch.requests).toHaveLength(0);
    });
  });

  describe('Idempotency-Key', () => {
    it.each([['POST'], ['PUT'], ['PATCH'], ['DELETE']] as const)('sends a %s with a random UUID as a quoted Structured Field String', async (method) => {
      const fetch = fakeFetch(ok);
      await client(fetch).request({ method, url: 'https://api.test/v1/thing' });
      const header = fetch.requests[0].init.headers['idempotency-key'];
      expect(header).toMatch(/^"[^"]+"$/);
      expect(header.slice(1, -1)).toMatch(UUID_V4);
    });

    it('sends none with a read, even when the caller gives one', async () => {
      const fetch = fakeFetch(ok);
      await client(fetch).request(read, { idempotencyKey: 'mine' });
      expect(fetch.requests[0].init.headers).not.toHaveProperty('idempotency-key');
    });

    it('makes a new key for each call and keeps it for each retry of that call', async () => {
      const fetch = fakeFetch({ ...unavailable, headers: {} }, ok, { ...unavailable, headers: {} }, { ...unavailable, headers: {} }, ok);
      const http = client(fetch);
      await http.request(write);
      await http.request(write);
      const keys = fetch.requests.map((request) => request.init.headers['idempotency-key']);
      expect(keys).toHaveLength(5);
      expect(keys[1]).toBe(keys[0]);
      expect(keys[3]).toBe(keys[2]);
      expect(keys[4]).toBe(keys[2]);
      expect(keys[2]).not.toBe(keys[0]);
    });

    it("sends the caller's key, on every retry, so that a write can be repeated after a restart", async () => {
      const fetch = fakeFetch({ ...unavailable, headers: {} }, ok, ok);
      const key = 'order-42 / attempt: #1 ~ {ok}';
      await client(fetch).request(write, { idempotencyKey: key });
      await client(fetch).request(write, { idempotencyKey: key });
      expect(fetch.requests.map((request) => request.init.headers['idempotency-key'])).toEqual([`"${key}"`, `"${key}"`, `"${key}"`]);
    });

    it.each([
      ['an empty key', ''],
      ['a key of 256 characters', 'k'.repeat(256)],
      ['a double quote', 'a"b'],
      ['a backslash', 'a\\b'],
      ['a newline', 'a\nb'],
      ['a tab', 'a\tb'],
      ['a character beyond ASCII', 'clé'],
      ['DEL', 'a\u007fb'],
    ])('refuses %s with a TypeError, before sending anything', async (_, key) => {
      const fetch = fakeFetch(ok);
      await expect(client(fetch).request(write, { idempotencyKey: key })).rejects.toThrow(new TypeError('idempotencyKey must be 1 to 255 printable ASCII characters (0x20-0x7E), without " and \\'));
      expect(fetch.requests).toHaveLength(0);
    });

    it('takes a key of 1 and of 255 printable characters', async () => {
      const fetch = fakeFetch(ok);
      await client(fetch).request(write, { idempotencyKey: 'k' });
      await client(fetch).request(write, { idempotencyKey: ' '.repeat(255) });
      expect(fetch.requests.map((request) => request.init.headers['idempotency-key'].length)).toEqual([3, 257]);
    });
  });

  describe('requests', () => {
    it('sends the credential, accept, and content-type and x-request-id only when there is a body or an id', async () => {
      const fetch = fakeFetch(ok);
      await client(fetch).request(read);
      await client(fetch).request(write, { requestId: 'abc', idempotencyKey: 'k-1' });
      expect(fetch.requests[0].init.headers).toEqual({ accept: 'application/json', 'x-api-key': 'gk_test' });
      expect(fetch.requests[1].init.headers).toEqual({ accept: 'application/json', 'x-api-key': 'gk_test', 'content-type': 'application/json', 'x-request-id': 'abc', 'idempotency-key': '"k-1"' });
    });

    it('uses the global fetch when none is given, looked up at each call', async () => {
      const fetch = fakeFetch(ok);
      const original = globalThis.fetch;
      globalThis.fetch = fetch as unknown as typeof globalThis.fetch;
      try {
        await expect(new HttpClient({}).request(read)).resolves.toEqual({ id: 'x' });
        expect(fetch.requests).toHaveLength(1);
      } finally {
        globalThis.fetch = original;
      }
    });

    it.each([[{ timeoutMs: 0 }], [{ timeoutMs: Number.NaN }], [{ retries: -1 }], [{ retries: 1.5 }], [{ retryDelayMs: -5 }]])('refuses the option %p', (options) => {
      expect(() => new HttpClient(options)).toThrow(TypeError);
    });
  });
});

// Keep the helper honest: a response body is read as text.
describe(response.name, () => {
  it('serializes objects and keeps strings', async () => {
    await expect(response(200, { a: 1 }).text()).resolves.toBe('{"a":1}');
    await expect(response(200, 'x').text()).resolves.toBe('x');
  });
});

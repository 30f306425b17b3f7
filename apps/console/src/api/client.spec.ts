import { describe, expect, it, vi } from 'vitest';
import { ApiError, STEP_UP_CANCELLED, apiRequest, isUnauthenticated, newIdempotencyKey, queryString, setStepUpHandler, stepUpCancelled } from './client';

/** A random (version 4) UUID as a Structured Field String, as the IETF draft writes an `Idempotency-Key`. */
const QUOTED_UUID = /^"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"$/;

describe('apiRequest', () => {
  it('sends JSON to the console API on this origin with the session cookie', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ id: 'g1' }), { status: 201 }));
    vi.stubGlobal('fetch', fetch);
    await expect(apiRequest('POST', '/games', { name: 'Space' })).resolves.toEqual({ id: 'g1' });
    expect(fetch).toHaveBeenCalledWith('/v1/console/games', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { accept: 'application/json', 'content-type': 'application/json', 'idempotency-key': expect.stringMatching(QUOTED_UUID) },
      body: '{"name":"Space"}',
    });
  });

  it('adds the headers given, such as If-Match', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ version: 4 }), { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    await apiRequest('PUT', '/games/g1/signing-policy', { rules: [] }, { 'if-match': '"3"' });
    expect(fetch).toHaveBeenCalledWith('/v1/console/games/g1/signing-policy', {
      method: 'PUT',
      credentials: 'same-origin',
      headers: { accept: 'application/json', 'content-type': 'application/json', 'idempotency-key': expect.stringMatching(QUOTED_UUID), 'if-match': '"3"' },
      body: '{"rules":[]}',
    });
  });

  it("turns an error answer into an ApiError with the platform's message, code and Retry-After", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ message: 'Too many sign-in attempts', code: 'RATE_LIMITED' }), { status: 429, headers: { 'retry-after': '42' } })),
    );
    const error = await apiRequest('POST', '/session', {}).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', message: 'Too many sign-in attempts', retryAfter: 42 });
  });

  it('answers undefined for 204 and a clear NETWORK_ERROR when the platform cannot be reached', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(null, { status: 204 })));
    await expect(apiRequest('DELETE', '/session')).resolves.toBeUndefined();
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(apiRequest('GET', '/games')).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });

  it('keeps an error answer that is not JSON readable', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('<html>bad gateway</html>', { status: 502 })));
    await expect(apiRequest('GET', '/games')).rejects.toMatchObject({ status: 502, code: 'UNKNOWN_ERROR', message: 'The request failed (HTTP 502)' });
  });
});

describe('Idempotency-Key', () => {
  const keysSent = (fetch: ReturnType<typeof vi.fn<(url: string, init: RequestInit) => Promise<Response>>>) =>
    fetch.mock.calls.map(([, init]) => (init.headers as Record<string, string>)['idempotency-key']);

  it('sends a fresh quoted UUID with every write, and none with a read', async () => {
    const fetch = vi.fn<(url: string, init: RequestInit) => Promise<Response>>(async () => new Response(JSON.stringify({}), { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    await apiRequest('POST', '/games', { name: 'Space' });
    await apiRequest('POST', '/games', { name: 'Space' });
    await apiRequest('PUT', '/games/g1/signing-policy', { rules: [] });
    await apiRequest('PATCH', '/games/g1/api-keys/k1', { active: false });
    await apiRequest('DELETE', '/games/g1/api-keys/k1');
    await apiRequest('GET', '/games');
    const keys = keysSent(fetch);
    expect(keys.slice(0, 5)).toEqual(Array(5).fill(expect.stringMatching(QUOTED_UUID)));
    expect(new Set(keys.slice(0, 5)).size).toBe(5);
    expect(keys[5]).toBeUndefined();
  });

  it('makes a UUID from random bytes where crypto.randomUUID is missing (a page served over plain http)', () => {
    const real = globalThis.crypto;
    const getRandomValues = vi.fn(<T extends Uint8Array>(array: T) => real.getRandomValues(array));
    vi.stubGlobal('crypto', { getRandomValues });
    const first = newIdempotencyKey();
    expect(first).toMatch(QUOTED_UUID);
    expect(newIdempotencyKey()).not.toBe(first);
    expect(getRandomValues).toHaveBeenCalledTimes(2);
  });
});

describe('queryString', () => {
  it('leaves out empty values and encodes the rest', () => {
    expect(queryString({ uniqueId: 'a b&c', cursor: undefined, limit: 20, empty: '' })).toBe('?uniqueId=a+b%26c&limit=20');
    expect(queryString({ cursor: undefined })).toBe('');
  });
});

describe('step-up', () => {
  const stepUpRequired = () => new Response(JSON.stringify({ message: 'Confirm with a second factor', code: 'STEP_UP_REQUIRED' }), { status: 401 });
  const created = () => new Response(JSON.stringify({ id: 'k1' }), { status: 201 });

  it('asks for a second factor once for calls refused together, then sends each call again once and answers as if nothing happened', async () => {
    const fetch = vi.fn<(url: string, init: RequestInit) => Promise<Response>>().mockResolvedValueOnce(stepUpRequired()).mockResolvedValueOnce(stepUpRequired()).mockImplementation(async () => created());
    vi.stubGlobal('fetch', fetch);
    let confirm: () => void = () => undefined;
    const handler = vi.fn(() => new Promise<void>((resolve) => (confirm = resolve)));
    const remove = setStepUpHandler(handler);
    try {
      const first = apiRequest('POST', '/games/g1/api-keys', { name: 'a' });
      const second = apiRequest('DELETE', '/games/g1/api-keys/k0');
      await vi.waitFor(() => expect(handler).toHaveBeenCalledTimes(1));
      expect(fetch).toHaveBeenCalledTimes(2);
      confirm();
      await expect(first).resolves.toEqual({ id: 'k1' });
      await expect(second).resolves.toEqual({ id: 'k1' });
      expect(handler).toHaveBeenCalledTimes(1);
      expect(fetch.mock.calls.map(([url, init]) => `${init.method} ${url}`)).toEqual([
        'POST /v1/console/games/g1/api-keys',
        'DELETE /v1/console/games/g1/api-keys/k0',
        'POST /v1/console/games/g1/api-keys',
        'DELETE /v1/console/games/g1/api-keys/k0',
      ]);
      expect(fetch.mock.calls[2][1].body).toBe('{"name":"a"}');
      // The platform keeps the refusal under the first key: the call sent again has a key of its own.
      const keys = fetch.mock.calls.map(([, init]) => (init.headers as Record<string, string>)['idempotency-key']);
      expect(keys).toEqual(Array(4).fill(expect.stringMatching(QUOTED_UUID)));
      expect(new Set(keys).size).toBe(4);
    } finally {
      remove();
    }
  });

  it('rejects the call with a clear message when the operator cancels, and sends nothing more', async () => {
    const fetch = vi.fn(async () => stepUpRequired());
    vi.stubGlobal('fetch', fetch);
    const remove = setStepUpHandler(() => Promise.reject(stepUpCancelled()));
    try {
      const error = await apiRequest('DELETE', '/games/g1/api-keys/k1').catch((failure: unknown) => failure);
      expect(error).toMatchObject({ code: STEP_UP_CANCELLED, message: expect.stringMatching(/^Not done: .*cancelled/) });
      expect(fetch).toHaveBeenCalledTimes(1);
      expect(isUnauthenticated(error)).toBe(false);
    } finally {
      remove();
    }
  });

  it('sends a call again only once: a second refusal is the answer', async () => {
    const fetch = vi.fn(async () => stepUpRequired());
    vi.stubGlobal('fetch', fetch);
    const handler = vi.fn(async () => undefined);
    const remove = setStepUpHandler(handler);
    try {
      await expect(apiRequest('POST', '/games/g1/api-keys', {})).rejects.toMatchObject({ code: 'STEP_UP_REQUIRED' });
      expect([handler.mock.calls.length, fetch.mock.calls.length]).toEqual([1, 2]);
    } finally {
      remove();
    }
  });

  it('passes STEP_UP_REQUIRED through when no handler is installed (public pages)', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => stepUpRequired()));
    await expect(apiRequest('POST', '/games/g1/api-keys', {})).rejects.toMatchObject({ status: 401, code: 'STEP_UP_REQUIRED' });
  });

  it('counts as a lost session only the 401s that mean one: not a wrong password or second factor, nor a step-up', () => {
    expect(isUnauthenticated(new ApiError(401, 'UNAUTHENTICATED', 'x'))).toBe(true);
    expect(isUnauthenticated(new ApiError(401, 'TOKEN_REVOKED', 'x'))).toBe(true);
    expect(isUnauthenticated(new ApiError(401, 'INVALID_CREDENTIALS', 'x'))).toBe(false);
    expect(isUnauthenticated(new ApiError(401, 'STEP_UP_REQUIRED', 'x'))).toBe(false);
    expect(isUnauthenticated(new ApiError(403, 'FORBIDDEN', 'x'))).toBe(false);
  });
});

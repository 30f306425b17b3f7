import { describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest, queryString } from './client';

describe('apiRequest', () => {
  it('sends JSON to the console API on this origin with the session cookie', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ id: 'g1' }), { status: 201 }));
    vi.stubGlobal('fetch', fetch);
    await expect(apiRequest('POST', '/games', { name: 'Space' })).resolves.toEqual({ id: 'g1' });
    expect(fetch).toHaveBeenCalledWith('/v1/console/games', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
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
      headers: { accept: 'application/json', 'content-type': 'application/json', 'if-match': '"3"' },
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

describe('queryString', () => {
  it('leaves out empty values and encodes the rest', () => {
    expect(queryString({ uniqueId: 'a b&c', cursor: undefined, limit: 20, empty: '' })).toBe('?uniqueId=a+b%26c&limit=20');
    expect(queryString({ cursor: undefined })).toBe('');
  });
});

import { request as httpRequest } from 'node:http';
import { TestPlatform, waitFor } from '@game-wallet/testing';

describe('gateway error conventions (SPEC §2)', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await TestPlatform.start('gwerrors', { apps: ['gateway'] });
  });

  afterAll(async () => {
    await platform.stop();
  });

  const post = (url: string, body: string | Buffer, contentType?: string): Promise<Response> =>
    fetch(url, { method: 'POST', body, headers: contentType ? { 'content-type': contentType } : {} });

  it.each([
    ['base_url', () => platform.baseUrl],
    ['core_url', () => platform.coreUrl],
  ])('answers an unknown route on %s with 404 NOT_FOUND in the SPEC body', async (_, url) => {
    const response = await fetch(`${url()}/v1/nothing-here?x=1`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ message: 'Route GET /v1/nothing-here not found', code: 'NOT_FOUND' });
  });

  it('answers malformed JSON with 400 MALFORMED_JSON', async () => {
    const response = await post(`${platform.baseUrl}/v1/profile/x/authenticate`, '{"duration": ', 'application/json');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: 'Request body is not valid JSON', code: 'MALFORMED_JSON' });
  });

  it('refuses prototype-poisoning JSON as malformed', async () => {
    const response = await post(`${platform.baseUrl}/v1/profile/x/authenticate`, '{"__proto__": {"admin": true}}', 'application/json');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'MALFORMED_JSON' });
  });

  it.each([['text/plain'], ['application/x-www-form-urlencoded'], [undefined]])(
    'answers a body sent as %s with 415 UNSUPPORTED_MEDIA_TYPE',
    async (contentType) => {
      const response = await post(`${platform.coreUrl}/v1/player/create`, 'uniqueId=a', contentType);
      expect(response.status).toBe(415);
      expect(await response.json()).toEqual({ message: 'Content-Type must be application/json', code: 'UNSUPPORTED_MEDIA_TYPE' });
    },
  );

  it('accepts application/json with a charset parameter', async () => {
    const response = await post(`${platform.baseUrl}/v1/nothing-here`, '{}', 'application/json; charset=utf-8');
    expect(response.status).toBe(404);
  });

  it('answers a body over 64 KiB with 413 PAYLOAD_TOO_LARGE', async () => {
    const big = JSON.stringify({ userData: { blob: 'x'.repeat(65 * 1024) } });
    const response = await post(`${platform.coreUrl}/v1/player/create`, big, 'application/json');
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: 'Request body is larger than 64 KiB', code: 'PAYLOAD_TOO_LARGE' });
  });

  it('accepts a body of exactly 64 KiB past the size check', async () => {
    const filler = 64 * 1024 - JSON.stringify({ a: '' }).length;
    const response = await post(`${platform.baseUrl}/v1/nothing-here`, JSON.stringify({ a: 'x'.repeat(filler) }), 'application/json');
    expect(response.status).toBe(404);
  });

  it('answers a chunked body over 64 KiB with 413 as well', async () => {
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(`${platform.baseUrl}/v1/nothing-here`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      });
      request.on('response', (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      });
      // The server may close the connection once it has answered; a write after that is not an error here.
      request.on('error', (error) => (error.message.includes('EPIPE') || error.message.includes('ECONNRESET') ? undefined : reject(error)));
      for (let i = 0; i < 70; i += 1) {
        request.write('x'.repeat(1024));
      }
      request.end();
    });
    expect(status).toBe(413);
    expect(JSON.parse(body)).toEqual({ message: 'Request body is larger than 64 KiB', code: 'PAYLOAD_TOO_LARGE' });
  });

  it('echoes a valid x-request-id and generates one otherwise', async () => {
    const echoed = await fetch(`${platform.baseUrl}/v1/health/live`, { headers: { 'x-request-id': 'client-id-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('client-id-123');
    const generated = await fetch(`${platform.baseUrl}/v1/health/live`);
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const tooLong = await fetch(`${platform.baseUrl}/v1/health/live`, { headers: { 'x-request-id': 'a'.repeat(129) } });
    expect(tooLong.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const errorResponse = await fetch(`${platform.baseUrl}/v1/nothing-here`, { headers: { 'x-request-id': 'on-errors-too' } });
    expect(errorResponse.headers.get('x-request-id')).toBe('on-errors-too');
  });

  it('logs one JSON line per request with its request id, route, status and duration', async () => {
    await fetch(`${platform.baseUrl}/v1/nothing-here`, { headers: { 'x-request-id': 'log-line-check' } });
    const line = await waitFor(
      () =>
        platform
          .process('gateway')
          .jsonLines()
          .find((entry) => entry.requestId === 'log-line-check' && entry.msg === 'request completed'),
      5000,
      'the request log line',
    );
    expect(line).toMatchObject({ service: 'gateway', method: 'GET', status: 404, durationMs: expect.any(Number) });
  });
});

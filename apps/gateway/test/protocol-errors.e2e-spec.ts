import { RawRequest, RawResponse, TestPlatform, rawHttp, waitFor } from '@game-wallet/testing';

/**
 * Requests that Node's HTTP parser or Fastify's router refuse before any route sees them still answer in the SPEC
 * shape, exactly `{message, code}` with `x-request-id`, on every HTTP port of every app. Sent over raw sockets: `fetch`
 * refuses to send most of them.
 */
describe('errors raised before routing, on every HTTP port (SPEC §2)', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await TestPlatform.start('protoerr');
  });

  afterAll(async () => {
    await platform?.stop();
  });

  /** Each port with a path it serves and, for the public ones, a route with an id in its path. */
  const PORTS: { name: string; port: () => number; served: string; withId?: string }[] = [
    { name: 'gateway base_url', port: () => platform.ports.base, served: '/v1/health/live', withId: '/v1/wallet/' },
    { name: 'gateway core_url', port: () => platform.ports.core, served: '/v1/openapi.json', withId: '/v1/player/' },
    { name: 'gateway metrics', port: () => platform.ports.internal, served: '/metrics' },
    { name: 'identity', port: () => platform.ports.identity, served: '/v1/health/live' },
    { name: 'wallet', port: () => platform.ports.wallet, served: '/v1/health/live' },
    { name: 'core service', port: () => platform.ports.coreService, served: '/v1/health/live' },
  ];

  /** The answer in the SPEC shape: exactly `{message, code}` as JSON, an `x-request-id`, and the connection closed. */
  const refused = (response: RawResponse, status: number, code: string, requestId?: string): void => {
    expect({ status: response.status, body: response.json }).toEqual({ status, body: { message: expect.any(String), code } });
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Object.keys(response.json as object)).toEqual(['message', 'code']);
    expect(response.headers['x-request-id']).toEqual(requestId ?? expect.stringMatching(/^[0-9a-f-]{36}$/));
  };

  const send = (port: number, request: RawRequest): Promise<RawResponse> => rawHttp(port, request);

  describe.each(PORTS)('$name', ({ port, served, withId }) => {
    it('answers a control character in x-request-id with 400 BAD_REQUEST and a generated id', async () => {
      refused(await send(port(), { method: 'GET', target: served, headers: [['x-request-id', 'a\u0001b']] }), 400, 'BAD_REQUEST');
    });

    it('answers a control character in x-api-key with 400 BAD_REQUEST, echoing the request id', async () => {
      const response = await send(port(), { method: 'GET', target: served, headers: [['x-request-id', 'ctl-key'], ['x-api-key', 'gk_\u007f']] });
      refused(response, 400, 'BAD_REQUEST', 'ctl-key');
    });

    it('answers a NUL in the console cookie with 400 BAD_REQUEST', async () => {
      refused(await send(port(), { method: 'GET', target: served, headers: [['cookie', 'console_session=a\u0000b']] }), 400, 'BAD_REQUEST');
    });

    it('answers raw non-ASCII in the path with 400 BAD_REQUEST', async () => {
      refused(await send(port(), { method: 'GET', target: `${withId ?? '/v1/'}été`, headers: [['x-request-id', 'raw-path']] }), 400, 'BAD_REQUEST', 'raw-path');
    });

    it.each([['%ZZ'], ['%C0%AF'], ['%ED%B0%80'], ['%']])('answers the bad percent-encoding %s in the path with 400 BAD_REQUEST', async (encoded) => {
      const response = await send(port(), { method: 'GET', target: `${withId ?? '/v1/health/'}${encoded}`, headers: [['x-request-id', 'bad-url']] });
      refused(response, 400, 'BAD_REQUEST', 'bad-url');
    });

    it('answers headers of 60 KB with 431 HEADERS_TOO_LARGE', async () => {
      const response = await send(port(), { method: 'GET', target: served, headers: [['x-request-id', 'big-head'], ['x-filler', 'a'.repeat(60_000)]] });
      refused(response, 431, 'HEADERS_TOO_LARGE', 'big-head');
    });

    it('answers an HTTP/1.1 request without Host with 400 BAD_REQUEST and closes the connection', async () => {
      const response = await send(port(), { method: 'GET', target: served, host: null, headers: [['x-request-id', 'no-host']] });
      refused(response, 400, 'BAD_REQUEST', 'no-host');
      expect(response.headers.connection).toBe('close');
    });

    it('still answers an HTTP/1.0 request without Host', async () => {
      expect((await send(port(), { method: 'GET', target: served, host: null, version: 'HTTP/1.0' })).status).toBe(200);
    });

    it('answers an Expect other than 100-continue with 417 EXPECTATION_FAILED', async () => {
      const response = await send(port(), { method: 'GET', target: served, headers: [['x-request-id', 'expecting'], ['expect', 'teapot']] });
      refused(response, 417, 'EXPECTATION_FAILED', 'expecting');
    });

    it('answers a body framed by both Content-Length and Transfer-Encoding with 400 BAD_REQUEST', async () => {
      const response = await send(port(), {
        method: 'POST',
        target: served,
        headers: [['content-type', 'application/json'], ['content-length', '2'], ['transfer-encoding', 'chunked']],
        body: '2\r\n{}\r\n0\r\n\r\n',
      });
      refused(response, 400, 'BAD_REQUEST');
    });

    it('answers bytes that are not HTTP with 400 BAD_REQUEST', async () => {
      refused(await rawHttp(port(), Buffer.from('HELLO\r\n\r\n')), 400, 'BAD_REQUEST');
    });

    it('carries the request id on the answers of the body checks too (413, 415)', async () => {
      const tooLarge = await send(port(), { method: 'POST', target: served, headers: [['x-request-id', 'too-large'], ['content-type', 'application/json'], ['content-length', '70000']], body: '' });
      refused(tooLarge, 413, 'PAYLOAD_TOO_LARGE', 'too-large');
      const notJson = await send(port(), { method: 'POST', target: served, headers: [['x-request-id', 'not-json'], ['content-type', 'text/plain']], body: 'x' });
      refused(notJson, 415, 'UNSUPPORTED_MEDIA_TYPE', 'not-json');
    });

    if (withId !== undefined) {
      it('answers an id of 101 characters in the path with 414 URI_TOO_LONG', async () => {
        const response = await send(port(), { method: 'GET', target: `${withId}${'a'.repeat(101)}`, headers: [['x-request-id', 'long-id']] });
        refused(response, 414, 'URI_TOO_LONG', 'long-id');
      });
    }

    it('serves the next request as before', async () => {
      expect((await send(port(), { method: 'GET', target: served })).status).toBe(200);
    });
  });

  it('logs and counts each refused request with its status', async () => {
    await send(platform.ports.base, { method: 'GET', target: '/v1/health/live', headers: [['x-request-id', 'logged-refusal'], ['x-api-key', '\u0001']] });
    await send(platform.ports.base, { method: 'GET', target: '/v1/health/live', headers: [['x-filler', 'a'.repeat(60_000)]] });
    const line = await waitFor(
      () =>
        platform
          .process('gateway')
          .jsonLines()
          .find((entry) => entry.requestId === 'logged-refusal'),
      5000,
      'the log line of the refused request',
    );
    expect(line).toMatchObject({ status: 400, method: 'UNPARSED', route: 'unparsed', refused: 'HPE_INVALID_HEADER_TOKEN', msg: 'request completed' });
    const metrics = await fetch(`${platform.internalUrl('gateway')}/metrics`).then((response) => response.text());
    expect(metrics).toMatch(/http_requests_total\{method="UNPARSED",route="unparsed",status="431",service="gateway"\} [1-9]/);
  });
});

import { AppMetrics } from '@game-wallet/observability';
import type { FastifyError } from 'fastify';
import type { Duplex } from 'node:stream';
import pino from 'pino';
import { ClientError, clientErrorOf, frameworkErrorOf, protocolErrorOptions, rawErrorResponse, rawRequestId } from './protocol-errors';

const parserError = (code: string, rawPacket?: string): ClientError => Object.assign(new Error(code), { code, rawPacket: rawPacket === undefined ? undefined : Buffer.from(rawPacket, 'latin1') });

describe(clientErrorOf.name, () => {
  it.each([
    ['HPE_HEADER_OVERFLOW', 'HEADERS_TOO_LARGE'],
    ['ERR_HTTP_REQUEST_TIMEOUT', 'REQUEST_TIMEOUT'],
    ['HPE_CHUNK_EXTENSIONS_OVERFLOW', 'PAYLOAD_TOO_LARGE'],
    ['HPE_INVALID_HEADER_TOKEN', 'BAD_REQUEST'],
    ['HPE_INVALID_URL', 'BAD_REQUEST'],
    ['HPE_INVALID_TRANSFER_ENCODING', 'BAD_REQUEST'],
    ['HPE_SOMETHING_NEW', 'BAD_REQUEST'],
    ['toString', 'BAD_REQUEST'],
  ])('answers the parser error %s with %s', (code, expected) => {
    expect(clientErrorOf(parserError(code)).code).toBe(expected);
  });
});

describe(frameworkErrorOf.name, () => {
  const fastifyError = (code: string): FastifyError => Object.assign(new Error(code), { code, name: 'FastifyError' });

  it('answers a path segment past the router limit with 414 URI_TOO_LONG and a bad percent-encoding with 400 BAD_REQUEST', () => {
    expect(frameworkErrorOf(fastifyError('FST_ERR_MAX_PARAM_LENGTH')).code).toBe('URI_TOO_LONG');
    expect(frameworkErrorOf(fastifyError('FST_ERR_BAD_URL')).code).toBe('BAD_REQUEST');
  });

  it('treats any other router failure as a fault of ours', () => {
    expect(frameworkErrorOf(fastifyError('FST_ERR_ASYNC_CONSTRAINT'))).toEqual({ code: 'INTERNAL_ERROR', message: 'Internal server error' });
  });
});

describe(rawRequestId.name, () => {
  it('reads the x-request-id line of the refused request, whatever its case', () => {
    expect(rawRequestId(Buffer.from('GET /v1/x HTTP/1.1\r\nHost: a\r\nX-Request-ID:  client-1 \r\nx-api-key: \x01\r\n\r\n'))).toBe('client-1');
  });

  it('reads only the head of the first request', () => {
    expect(rawRequestId(Buffer.from('POST /v1/x HTTP/1.1\r\nHost: a\r\n\r\nx-request-id: from-the-body\r\n'))).toBeUndefined();
  });

  it('reads nothing from bytes that do not start with a request line', () => {
    expect(rawRequestId(Buffer.from('x-request-id: a\r\n\r\n'))).toBeUndefined();
    expect(rawRequestId(undefined)).toBeUndefined();
    expect(rawRequestId({ type: 'Buffer', data: [] })).toBeUndefined();
  });

  it('reads a head cut short by the parser (headers past the limit) up to where it stops', () => {
    expect(rawRequestId(Buffer.from(`GET / HTTP/1.1\r\nx-request-id: big-one\r\nx-big: ${'a'.repeat(1000)}`))).toBe('big-one');
  });
});

describe(rawErrorResponse.name, () => {
  it('writes a complete HTTP/1.1 response that closes the connection, its length in bytes', () => {
    const response = rawErrorResponse(431, { message: 'too large…', code: 'HEADERS_TOO_LARGE' }, 'rid-1');
    expect(response).toBe(
      'HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: 53\r\nx-request-id: rid-1\r\nconnection: close\r\n\r\n{"message":"too large…","code":"HEADERS_TOO_LARGE"}',
    );
  });
});

describe('clientErrorHandler of protocolErrorOptions', () => {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  const observeHttp = jest.fn();
  const handler = protocolErrorOptions(logger, { observeHttp } as unknown as AppMetrics).clientErrorHandler as (error: ClientError, socket: Duplex) => void;
  const socket = (extra: Record<string, unknown> = {}): Duplex & { write: jest.Mock; destroy: jest.Mock } =>
    ({ writable: true, destroyed: false, write: jest.fn(), destroy: jest.fn(), ...extra }) as unknown as Duplex & { write: jest.Mock; destroy: jest.Mock };

  beforeEach(() => {
    lines.length = 0;
    observeHttp.mockClear();
  });

  it('answers in the SPEC shape with the request id it could read, closes the socket, and logs and counts the request', () => {
    const target = socket();
    handler(parserError('HPE_INVALID_HEADER_TOKEN', 'GET / HTTP/1.1\r\nx-request-id: abc\r\nx-api-key: \x7f\r\n\r\n'), target);
    const written = String(target.write.mock.calls[0][0]);
    expect(written).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(written).toContain('\r\nx-request-id: abc\r\n');
    expect(JSON.parse(written.slice(written.indexOf('\r\n\r\n') + 4))).toEqual({ message: expect.any(String), code: 'BAD_REQUEST' });
    expect(target.destroy).toHaveBeenCalled();
    expect(observeHttp).toHaveBeenCalledWith('UNPARSED', 'unparsed', '400', 0);
    expect(lines).toEqual([expect.objectContaining({ requestId: 'abc', status: 400, refused: 'HPE_INVALID_HEADER_TOKEN', msg: 'request completed' })]);
  });

  it('generates a request id when the one sent is not valid', () => {
    const target = socket();
    handler(parserError('HPE_INVALID_HEADER_TOKEN', 'GET / HTTP/1.1\r\nx-request-id: a\x01b\r\n\r\n'), target);
    expect(String(target.write.mock.calls[0][0])).toMatch(/\r\nx-request-id: [0-9a-f-]{36}\r\n/);
  });

  it('only closes the socket when the response to that request has begun', () => {
    const target = socket({ _httpMessage: { headersSent: true } });
    handler(parserError('HPE_INVALID_CHUNK_SIZE'), target);
    expect(target.write).not.toHaveBeenCalled();
    expect(target.destroy).toHaveBeenCalled();
  });

  it('leaves a connection reset alone', () => {
    const target = socket();
    handler(parserError('ECONNRESET'), target);
    expect(target.write).not.toHaveBeenCalled();
    expect(observeHttp).not.toHaveBeenCalled();
  });
});

import { AppError, ERROR_STATUS, ErrorCode } from '@game-wallet/contracts';
import { AppMetrics, acceptOrGenerateRequestId } from '@game-wallet/observability';
import type { FastifyError, FastifyHttpOptions, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { IncomingMessage, STATUS_CODES, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import type { ErrorBody } from './http-error.filter';
import { recordRequest } from './http-observability';

/** A request refused before any route saw it, as its caller gets it. */
export interface ProtocolError {
  code: ErrorCode;
  message: string;
}

/** What Node's HTTP parser reports when it refuses the bytes of a request (`clientError`). */
export interface ClientError extends Error {
  code?: string;
  /** the bytes being parsed when the error was found (a Buffer) */
  rawPacket?: unknown;
}

const FRAMING = "The request body's framing (Content-Length, Transfer-Encoding or chunk sizes) is not valid HTTP/1.1";

const PARSER_ERRORS: Record<string, ProtocolError> = {
  HPE_HEADER_OVERFLOW: { code: 'HEADERS_TOO_LARGE', message: 'The request line and headers are larger than 16 KiB' },
  ERR_HTTP_REQUEST_TIMEOUT: { code: 'REQUEST_TIMEOUT', message: 'The request did not arrive in time' },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { code: 'PAYLOAD_TOO_LARGE', message: 'Chunk extensions are larger than 16 KiB' },
  HPE_INVALID_HEADER_TOKEN: { code: 'BAD_REQUEST', message: 'A header name or value holds a character HTTP does not allow (a control character, say)' },
  HPE_INVALID_URL: { code: 'BAD_REQUEST', message: 'The request path holds a character HTTP does not allow; percent-encode it' },
  HPE_INVALID_METHOD: { code: 'BAD_REQUEST', message: 'The request line is not valid HTTP/1.1' },
  HPE_INVALID_CONTENT_LENGTH: { code: 'BAD_REQUEST', message: FRAMING },
  HPE_UNEXPECTED_CONTENT_LENGTH: { code: 'BAD_REQUEST', message: FRAMING },
  HPE_INVALID_TRANSFER_ENCODING: { code: 'BAD_REQUEST', message: FRAMING },
  HPE_INVALID_CHUNK_SIZE: { code: 'BAD_REQUEST', message: FRAMING },
};

const NOT_HTTP: ProtocolError = { code: 'BAD_REQUEST', message: 'The request is not valid HTTP/1.1' };

/** The answer to bytes Node's HTTP parser refused. */
export function clientErrorOf(error: ClientError): ProtocolError {
  return (error.code !== undefined && Object.hasOwn(PARSER_ERRORS, error.code) ? PARSER_ERRORS[error.code] : undefined) ?? NOT_HTTP;
}

/** The answer to a request Fastify's router refused before matching a route. */
export function frameworkErrorOf(error: FastifyError): ProtocolError {
  switch (error.code) {
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return { code: 'URI_TOO_LONG', message: 'A path segment is longer than 100 characters' };
    case 'FST_ERR_BAD_URL':
      return { code: 'BAD_REQUEST', message: 'The request path holds a percent-encoding that is not valid UTF-8' };
    default:
      // FST_ERR_ASYNC_CONSTRAINT: no route uses asynchronous constraints, so this is a fault of ours.
      return { code: 'INTERNAL_ERROR', message: 'Internal server error' };
  }
}

const REQUEST_LINE = /^[A-Z]+ [^ \r\n]+ HTTP\/\d\.\d\r\n/;

/**
 * The `x-request-id` sent with a request the parser refused, read from the bytes it was reading (undefined when they
 * do not start with a request line). Only the first request of those bytes is read: a refused request pipelined
 * behind another in one packet may be answered with the other's id. Linear in the packet's length.
 */
export function rawRequestId(packet: unknown): string | undefined {
  const text = Buffer.isBuffer(packet) ? packet.toString('latin1') : '';
  if (!REQUEST_LINE.test(text)) {
    return undefined;
  }
  const end = text.indexOf('\r\n\r\n');
  for (const line of (end < 0 ? text : text.slice(0, end)).split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0 && line.slice(0, colon).toLowerCase() === 'x-request-id') {
      return line.slice(colon + 1).trim();
    }
  }
  return undefined;
}

/** A complete HTTP/1.1 error response in the SPEC shape, for a socket that has no response object. */
export function rawErrorResponse(status: number, body: ErrorBody, requestId: string): string {
  const json = JSON.stringify(body);
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(json)}`,
    `x-request-id: ${requestId}`,
    'connection: close',
    '',
    json,
  ].join('\r\n');
}

/**
 * Fastify options that answer what Node's parser and Fastify's router refuse in the SPEC shape (`{message, code}`,
 * with `x-request-id`) instead of theirs: bytes that are not HTTP/1.1 (control characters in a header, raw non-ASCII
 * in the path, broken framing), headers past 16 KiB, a bad percent-encoding, a path segment past 100 characters. Node
 * no longer answers a request without `Host` itself (an empty 400): {@link installProtocolChecks} does.
 */
export function protocolErrorOptions(logger: Logger, metrics: AppMetrics): FastifyHttpOptions<Server> {
  return {
    http: { requireHostHeader: false },
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const answer = frameworkErrorOf(error);
      const status = ERROR_STATUS[answer.code];
      if (status >= 500) {
        logger.error({ requestId: request.id, err: error }, 'router failed');
      }
      // No hook runs for these requests: the response carries its request id, and is logged, here.
      const body: ErrorBody = { message: answer.message, code: answer.code };
      void reply.code(status).headers({ 'content-type': 'application/json; charset=utf-8', 'x-request-id': request.id }).send(JSON.stringify(body));
      recordRequest(logger, metrics, { requestId: request.id, method: request.method, route: 'unmatched', status, durationMs: reply.elapsedTime, refused: error.code });
    },
    clientErrorHandler: (error: ClientError, socket: Duplex) => {
      if (error.code === 'ECONNRESET' || socket.destroyed) {
        return;
      }
      const answer = clientErrorOf(error);
      const status = ERROR_STATUS[answer.code];
      const requestId = acceptOrGenerateRequestId(rawRequestId(error.rawPacket));
      // As Node does: answer unless a response to this request has begun (its bytes cannot be taken back), then close.
      const started = (socket as { _httpMessage?: ServerResponse | null })._httpMessage?.headersSent === true;
      if (socket.writable && !started) {
        socket.write(rawErrorResponse(status, { message: answer.message, code: answer.code }, requestId));
      }
      socket.destroy();
      recordRequest(logger, metrics, { requestId, method: 'UNPARSED', route: 'unparsed', status, durationMs: 0, refused: error.code ?? 'unknown' });
    },
  };
}

/**
 * Request checks Node and Fastify would otherwise answer themselves outside the SPEC shape: an HTTP/1.1 request without
 * `Host` (RFC 9112 §3.2: 400), an `Expect` other than `100-continue` (417), and a request that arrives on an open
 * connection while the app closes (503, with `Retry-After`; Fastify's own answer has neither the shape nor the request
 * id). Install after the hook that sets `x-request-id`, so these answers carry it.
 */
export function installProtocolChecks(fastify: FastifyInstance, logger: Logger, metrics: AppMetrics): void {
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      void reply.header('connection', 'close');
      done(new AppError('BAD_REQUEST', 'An HTTP/1.1 request must carry a Host header'));
    } else if (closing) {
      void reply.header('connection', 'close');
      done(new AppError('SERVICE_UNAVAILABLE', 'This instance is shutting down; send the request again', 1));
    } else {
      done();
    }
  });
  fastify.server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const requestId = acceptOrGenerateRequestId(request.headers['x-request-id']);
    const body = JSON.stringify({ message: 'Only Expect: 100-continue is supported', code: 'EXPECTATION_FAILED' } satisfies ErrorBody);
    const status = ERROR_STATUS.EXPECTATION_FAILED;
    response.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'x-request-id': requestId,
      connection: 'close',
    });
    response.end(body);
    recordRequest(logger, metrics, { requestId, method: request.method ?? 'UNPARSED', route: 'unmatched', status, durationMs: 0, refused: 'expectation' });
  });
}

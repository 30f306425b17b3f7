import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { AppError, ERROR_STATUS, ErrorCode, ErrorPayload, isErrorPayload, toErrorPayload } from '@game-wallet/contracts';
import { Observable, throwError } from 'rxjs';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The SPEC error body (§2): exactly these two fields, from every route. */
export interface ErrorBody {
  message: string;
  code: string;
  details?: Record<string, unknown>;
}

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  408: 'REQUEST_TIMEOUT',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  417: 'EXPECTATION_FAILED',
  429: 'RATE_LIMITED',
  431: 'HEADERS_TOO_LARGE',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

/** Fixed messages for statuses Fastify itself may raise (e.g. a chunked body over the limit). */
const MESSAGE_BY_STATUS: Record<number, string> = {
  413: 'Request body is larger than 64 KiB',
  415: 'Content-Type must be application/json',
};

export interface HttpError {
  status: number;
  body: ErrorBody;
  /** seconds, sent as `Retry-After` */
  retryAfter?: number;
}

/**
 * Maps anything thrown while serving a request to the SPEC status and body. Unexpected errors become a generic 500
 * and are logged with the request id; nothing internal (stack, SQL) reaches the response.
 */
export function toHttpError(exception: unknown, request: FastifyRequest, logger: Logger): HttpError {
  if (exception instanceof AppError || isErrorPayload(exception)) {
    const status = ERROR_STATUS[exception.code];
    if (status >= 500 && exception.code === 'INTERNAL_ERROR') {
      logger.error(`Request ${request.id} failed in a service: ${exception.message}`);
    }
    // 503 always says when to come back (1 s unless the service knows better); 429 says it when the limiter knows.
    const retryAfter = typeof exception.retryAfter === 'number' ? exception.retryAfter : status === 503 ? 1 : undefined;
    const details = exception instanceof AppError ? exception.details : AppError.fromPayload(exception).details;
    return { status, body: { message: exception.message, code: exception.code, ...(details === undefined ? {} : { details }) }, retryAfter };
  }
  if (exception instanceof HttpException) {
    // Nest's own exceptions, and errors Fastify raised outside a route (Nest wraps those in HttpException).
    const status = exception.getStatus();
    if (status >= 500) {
      logger.error(`Request ${request.id} failed: ${exception.stack ?? exception.message}`);
      return internal();
    }
    const code = CODE_BY_STATUS[status] ?? 'VALIDATION_FAILED';
    const message =
      status === 404 ? `Route ${request.method} ${request.url.split('?')[0]} not found` : (MESSAGE_BY_STATUS[status] ?? messageOf(exception));
    return { status, body: { message, code } };
  }
  logger.error(`Request ${request.id} failed: ${exception instanceof Error ? (exception.stack ?? exception.message) : String(exception)}`);
  return internal();
}

const internal = (): HttpError => ({ status: 500, body: { message: 'Internal server error', code: 'INTERNAL_ERROR' } });

function messageOf(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') {
    return response;
  }
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) {
    return message.map(String).join('; ');
  }
  return typeof message === 'string' ? message : exception.message;
}

/**
 * An answer given before (a write replayed by its `Idempotency-Key`), thrown to end the request with it as it was:
 * its status, headers and body, and `Idempotent-Replayed: true`.
 */
export class KeptAnswer {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly body: string,
  ) {}
}

/** Turns a failure the app knows into the error its caller gets (a database outage into a 503, say). */
export type ErrorTranslator = (error: unknown) => AppError | undefined;

/**
 * The one exception filter of every app. Over HTTP every error leaves as `{message, code}`; in a transport handler
 * (the service side of a hybrid app) it leaves as `{code, message, status}` data for the caller. `translateError`
 * sees each failure first; what it leaves alone is mapped as {@link toHttpError} and `toErrorPayload` say. Being a
 * filter, it runs on failures only: a request that succeeds pays nothing for it (an interceptor would run on every
 * message).
 */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger(HttpErrorFilter.name);

  constructor(private readonly translateError?: ErrorTranslator) {}

  catch(thrown: unknown, host: ArgumentsHost): Observable<ErrorPayload> | undefined {
    if (thrown instanceof KeptAnswer && host.getType() === 'http') {
      const reply = host.switchToHttp().getResponse<FastifyReply>();
      void reply.status(thrown.status).headers({ ...thrown.headers, 'idempotent-replayed': 'true' }).send(thrown.body === '' ? undefined : thrown.body);
      return undefined;
    }
    const exception = this.translateError?.(thrown) ?? thrown;
    if (host.getType() === 'rpc') {
      return throwError(() => toErrorPayload(exception, (line) => this.logger.error(line)));
    }
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const { status, body, retryAfter } = toHttpError(exception, request, this.logger);
    if (retryAfter !== undefined) {
      void reply.header('retry-after', String(retryAfter));
    }
    void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
    return undefined;
  }
}

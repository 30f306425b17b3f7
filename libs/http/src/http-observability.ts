import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Logger } from 'pino';
import { AppMetrics, acceptOrGenerateRequestId } from '@game-wallet/observability';
import { BODY_LIMIT_BYTES } from './json-body';


/**
 * Which proxies to believe: none, the nearest `n` hops (each hop's `X-Forwarded-For` entry trusted whoever sent it,
 * so only where clients cannot reach the app but through those proxies), or the proxies at these addresses/CIDRs.
 */
export type TrustedProxies = false | number | string[];

function trustProxyOption(trusted: TrustedProxies): FastifyServerOptions['trustProxy'] {
  // Fastify refuses a bare hop count (it cannot check the immediate peer); this is the same rule, chosen knowingly.
  return typeof trusted === 'number' ? (_address: string, hop: number) => hop < trusted : trusted;
}

/** Fastify options shared by every HTTP port: body limit, request ids from `x-request-id`, no built-in logger. */
export function fastifyOptions(options: { trustProxy?: TrustedProxies } = {}): FastifyServerOptions {
  return {
    trustProxy: trustProxyOption(options.trustProxy ?? false),
    bodyLimit: BODY_LIMIT_BYTES,
    logger: false,
    genReqId: (req) => acceptOrGenerateRequestId(req.headers['x-request-id']),
    // A request arriving while the app closes is answered 503 by installProtocolChecks, in the SPEC shape.
    return503OnClosing: false,
  };
}

const QUIET_ROUTES = new Set(['/v1/health', '/v1/health/live', '/v1/health/services', '/metrics']);

/** One answered request, as the request log and the HTTP metrics see it. */
export interface AnsweredRequest {
  requestId: string;
  /** `UNPARSED` when the request line could not be read */
  method: string;
  /** the route's pattern; `unmatched` when no route took it, `unparsed` when HTTP refused it before routing */
  route: string;
  status: number;
  durationMs: number;
  /** why the request was refused before routing (the parser's or the router's error code) */
  refused?: string;
}

/** Writes the one log line and the one metrics sample of a request. */
export function recordRequest(logger: Logger, metrics: AppMetrics, answered: AnsweredRequest): void {
  metrics.observeHttp(answered.method, answered.route, String(answered.status), answered.durationMs / 1000);
  const level = QUIET_ROUTES.has(answered.route) ? 'debug' : answered.status >= 500 ? 'error' : 'info';
  if (logger.isLevelEnabled(level)) {
    logger[level]({ ...answered, durationMs: Math.round(answered.durationMs * 100) / 100 }, 'request completed');
  }
}

/**
 * Echoes `x-request-id` on every response and writes one log line and one metrics sample per request.
 * Probes and scrapes log at debug so they do not drown the request log.
 */
export function installHttpObservability(fastify: FastifyInstance, logger: Logger, metrics: AppMetrics): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    recordRequest(logger, metrics, {
      requestId: request.id,
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status: reply.statusCode,
      durationMs: reply.elapsedTime,
    });
    done();
  });
}

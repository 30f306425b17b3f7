import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppMetrics, PinoNestLogger } from '@game-wallet/observability';
import type { Logger } from 'pino';
import { ErrorTranslator, HttpErrorFilter } from './http-error.filter';
import { TrustedProxies, fastifyOptions, installHttpObservability } from './http-observability';
import { installJsonBodyPolicy } from './json-body';
import { installProtocolChecks, protocolErrorOptions } from './protocol-errors';

/**
 * A Nest app on Fastify with the HTTP conventions of every port: JSON bodies only (anything else is 415), 64 KiB body
 * limit, `x-request-id`, one log line and metrics sample per request, and errors as `{message, code}` — those that
 * Node's HTTP parser and Fastify's router raise before any route included.
 */
export async function createHttpApp(
  module: unknown,
  logger: Logger,
  metrics: AppMetrics,
  options: { trustProxy?: TrustedProxies; translateError?: ErrorTranslator } = {},
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({ ...fastifyOptions(options), ...protocolErrorOptions(logger, metrics) });
  const fastify = adapter.getInstance();
  // In this order: the request id first, so that every answer of the checks after it carries it.
  installHttpObservability(fastify, logger, metrics);
  installProtocolChecks(fastify, logger, metrics);
  installJsonBodyPolicy(fastify);
  const app = await NestFactory.create<NestFastifyApplication>(module as never, adapter, {
    logger: new PinoNestLogger(logger),
    bodyParser: false,
    abortOnError: false,
  });
  app.useGlobalFilters(new HttpErrorFilter(options.translateError));
  return app;
}

import { LoggerService } from '@nestjs/common';
import pino, { Logger, LevelWithSilent } from 'pino';
import { currentRequestId } from './request-context';

/**
 * Paths redacted from every log line. Secrets may reach a logger through a request object or an error's context;
 * they are censored wherever they appear at these paths, whatever logged them.
 */
export const REDACTED_PATHS = [
  'password',
  'token',
  'jwt',
  'key',
  'apiKey',
  'secret',
  'mnemonic',
  'seed',
  'privateKey',
  'authorization',
  'cookie',
  '*.password',
  '*.token',
  '*.jwt',
  '*.key',
  '*.apiKey',
  '*.secret',
  '*.mnemonic',
  '*.seed',
  '*.privateKey',
  '*.authorization',
  '*.cookie',
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers["x-api-key"]',
  'headers.authorization',
  'headers.cookie',
];

export interface LoggerOptions {
  service: string;
  level: LevelWithSilent;
  /** Where lines go: standard output unless given (tests read them). */
  destination?: pino.DestinationStream;
}

/** The process's root logger: JSON lines, the service name and the current request id on each. */
export function createRootLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      base: { service: options.service },
      timestamp: pino.stdTimeFunctions.isoTime,
      messageKey: 'msg',
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
      mixin() {
        const requestId = currentRequestId();
        return requestId === undefined ? {} : { requestId };
      },
    },
    options.destination ?? pino.destination({ sync: false }),
  );
}

/** Nest's start-up chatter (one line per module and route) is kept for debug level. */
const FRAMEWORK_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/** Adapts the root logger to Nest's `LoggerService`, so framework and feature logs share one format. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly root: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    const context = params[params.length - 1];
    this.write(typeof context === 'string' && FRAMEWORK_CONTEXTS.has(context) ? 'debug' : 'info', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: 'info' | 'error' | 'warn' | 'debug' | 'trace' | 'fatal', message: unknown, params: unknown[]): void {
    if (!this.root.isLevelEnabled(level)) {
      return;
    }
    // Nest passes the context (class name) as the last string parameter, and a stack before it for errors.
    const context = typeof params[params.length - 1] === 'string' ? (params.pop() as string) : undefined;
    const bindings: Record<string, unknown> = context === undefined ? {} : { context };
    if (message instanceof Error) {
      bindings.err = message;
      this.root[level](bindings, message.message);
      return;
    }
    if (level === 'error' && typeof params[0] === 'string') {
      bindings.stack = params[0];
    }
    if (typeof message === 'object' && message !== null) {
      this.root[level]({ ...bindings, ...(message as Record<string, unknown>) });
      return;
    }
    this.root[level](bindings, String(message));
  }
}

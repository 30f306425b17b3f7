import { Logger } from '@nestjs/common';
import { AppError } from '@game-wallet/contracts';

/**
 * SQLSTATEs that mean "the database cannot serve now, try again", not "this request is wrong": connection exceptions
 * (class 08), insufficient resources (class 53: too many connections, out of memory, disk full), the server shutting
 * down or starting (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now), a statement cancelled by
 * statement_timeout (57014), and a read-only server — a standby, or a primary in recovery (25006).
 */
const UNAVAILABLE_STATES = [/^08/, /^53/, /^57P0[1-3]$/, /^57014$/, /^25006$/];
/** Socket errors on the way to the database. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/** What `pg` and TypeORM say, without a code, when a connection died, none could be had in time or a server hung. */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'is not queryable',
  'Cannot use a pool after calling end',
  'Query runner already released',
  'Query read timeout',
];

/** True when `error` (or what it wraps: TypeORM's `driverError`, a `cause`) says the database is unavailable. */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) {
    return false;
  }
  const { code, message, driverError, cause } = error as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.some((state) => state.test(code)))) {
    return true;
  }
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((known) => message.includes(known))) {
    return true;
  }
  if (error instanceof AggregateError && error.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) {
    return true;
  }
  return isDatabaseUnavailable(driverError, depth + 1) || isDatabaseUnavailable(cause, depth + 1);
}

/** Seconds a client is told to wait (`Retry-After`) when the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 1;

/**
 * What a failed handler of a service with a database answers when the database is down, restarting, read-only or too
 * slow: 503 `SERVICE_UNAVAILABLE` with `Retry-After`, which callers retry, instead of a 500, which they alert on.
 * Logged as a warning at most every 5 s, without the driver's text (it may name hosts and users). The apps'
 * exception filter calls it for each failure (`translateError`), so a request that succeeds pays nothing for it.
 */
export class DatabaseOutage {
  private readonly logger = new Logger('Database');
  private lastWarning = 0;

  /** The 503 for a database outage, or undefined when `error` is anything else. */
  readonly translate = (error: unknown): AppError | undefined => {
    if (error instanceof AppError || !isDatabaseUnavailable(error)) {
      return undefined;
    }
    this.warn(error);
    return new AppError('SERVICE_UNAVAILABLE', 'The database is unavailable; try again shortly', DATABASE_RETRY_AFTER_SECONDS);
  };

  private warn(error: unknown): void {
    const now = Date.now();
    if (now - this.lastWarning >= 5000) {
      this.lastWarning = now;
      const code = (error as { code?: unknown; driverError?: { code?: unknown } }).code ?? (error as { driverError?: { code?: unknown } }).driverError?.code;
      this.logger.warn(`The database is unavailable (${typeof code === 'string' ? code : (error as Error).name}): answering 503`);
    }
  }
}

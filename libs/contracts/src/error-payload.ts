import { AppError, ErrorPayload, internalError, isErrorPayload } from './app-error';

/**
 * What a handler's failure becomes on the wire: an {@link AppError} (or a payload already in that shape) passes as is;
 * anything else goes to `logError`, with its stack, and leaves as a generic 500 so no detail (SQL, paths) reaches a
 * caller.
 */
export function toErrorPayload(error: unknown, logError: (line: string) => void): ErrorPayload {
  if (error instanceof AppError) {
    return error.toPayload();
  }
  if (isErrorPayload(error)) {
    return AppError.fromPayload(error).toPayload();
  }
  logError(error instanceof Error ? (error.stack ?? error.message) : `Non-error thrown: ${String(error)}`);
  return internalError().toPayload();
}

import type { ErrorCode, PolicyDeniedDetails } from './contract-types';

/**
 * Codes the SDK itself gives when there is no platform answer to report:
 * - `NETWORK_ERROR`: the request could not be sent or its answer not read (DNS, refused or reset connection, CORS);
 * - `TIMEOUT`: the call did not finish within its `timeoutMs` (retries and their waits included);
 * - `ABORTED`: the caller's `AbortSignal` fired before or while the call ran;
 * - `UNEXPECTED_RESPONSE`: an answer outside the platform's contract (a success that is not JSON, or an error without
 *   the `{message, code}` body, e.g. from a proxy in front of the platform).
 * Offline token verification also uses the platform's own `INVALID_TOKEN` and `TOKEN_EXPIRED`.
 */
export type SdkErrorCode = 'NETWORK_ERROR' | 'TIMEOUT' | 'ABORTED' | 'UNEXPECTED_RESPONSE';

/** A platform error code (SPEC §2), one of the SDK's own, or a code added by a later platform version. */
// The intersection keeps editor completion for the known codes while accepting any other string.
export type GameWalletErrorCode = ErrorCode | SdkErrorCode | (string & Record<never, never>);

export interface GameWalletErrorInit {
  status: number;
  code: GameWalletErrorCode;
  message: string;
  requestId?: string;
  retryAfter?: number;
  details?: PolicyDeniedDetails;
  cause?: unknown;
}

/** Every failure of the SDK: a platform error answer, a network failure, a timeout, an abort or a rejected token. */
export class GameWalletError extends Error {
  /** The HTTP status of the platform's answer; 0 when there was none (network error, timeout, abort, offline check). */
  readonly status: number;
  /** Machine-readable: the platform's `code` (e.g. `PLAYER_NOT_FOUND`) or one of {@link SdkErrorCode}. */
  readonly code: GameWalletErrorCode;
  /** The `x-request-id` of the answer (or the one the call sent): quote it when reporting a problem. */
  readonly requestId?: string;
  /** Seconds to wait before trying again, from the answer's `Retry-After` (429, 503, 409 `IDEMPOTENCY_IN_PROGRESS`). */
  readonly retryAfter?: number;
  /**
   * With 403 `POLICY_DENIED`: the signing policy's rule that decided (`null` when no rule accepted the request), why,
   * and the value it observed (e.g. `value 11 wei`), from the answer's `details`.
   */
  readonly details?: PolicyDeniedDetails;

  constructor(init: GameWalletErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'GameWalletError';
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
    if (init.details !== undefined) {
      this.details = init.details;
    }
  }
}

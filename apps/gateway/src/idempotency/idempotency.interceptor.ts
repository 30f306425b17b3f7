import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import { AuthenticatedRequest } from '@game-wallet/auth';
import { AppError, Principal } from '@game-wallet/contracts';
import { KeptAnswer } from '@game-wallet/http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Observable } from 'rxjs';
import { parseIdempotencyKey } from './idempotency-key';
import { IdempotencyClaim, IdempotencyStore } from './idempotency-store';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Headers of a kept answer that describe its body; nothing else (no cookie, no rate-limit state) is kept. */
const KEPT_HEADERS = ['content-type', 'location', 'etag', 'content-location'];
/**
 * Answers that say the request did not run for a reason the client fixes and then retries: a credential or a second
 * factor (401 `STEP_UP_REQUIRED` before a step-up), or a rate (429). Like a 5xx they are not kept: the key is freed.
 */
const NOT_KEPT = new Set([401, 429]);

declare module 'fastify' {
  interface FastifyRequest {
    /** The claimed `Idempotency-Key` of this write, whose answer is kept (or the key released) as it is sent. */
    idempotency?: IdempotencyClaim;
  }
}

/** Whose keys these are: an API key, a profile, or an operator (each has its own keys). */
export function idempotencyCredential(principal: Principal): string | undefined {
  switch (principal.kind) {
    case 'apiKey':
      return `key:${principal.keyId}`;
    case 'profile':
      return `profile:${principal.profileId}`;
    case 'operator':
      return `operator:${principal.operatorId}`;
    case 'system':
      return undefined;
  }
}

/**
 * `Idempotency-Key` on every write of the public and console APIs: after authentication (a key belongs to its
 * credential) and before the route's own validation. The first request of a key runs; the same key and body again
 * get its answer, another body 422 `IDEMPOTENCY_KEY_REUSED`, and while the first still runs 409
 * `IDEMPOTENCY_IN_PROGRESS`. Routes taken before sign-in (a sign-in, accepting an invitation) have no credential to
 * hold a key for and hand out sessions, which are never kept: a well-formed key there is accepted and not used.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger(IdempotencyInterceptor.name);

  constructor(private readonly store: IdempotencyStore) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (!WRITES.has(request.method)) {
      return next.handle();
    }
    const key = parseIdempotencyKey(request.headers['idempotency-key']);
    const credential = key === undefined || !request.principal ? undefined : idempotencyCredential(request.principal);
    if (key === undefined || credential === undefined) {
      return next.handle();
    }
    const outcome = await this.store.begin({ credential, route: `${request.method} ${request.url}`, key, body: request.rawBody ?? Buffer.alloc(0) }).catch((error: unknown) => {
      this.logger.warn(`Request ${request.id}: its Idempotency-Key could not be checked: ${String(error)}`);
      throw new AppError('SERVICE_UNAVAILABLE', 'The Idempotency-Key could not be checked; the request did not run, ask again');
    });
    switch (outcome.kind) {
      case 'run':
        request.idempotency = outcome.claim;
        return next.handle();
      case 'replay':
        throw new KeptAnswer(outcome.answer.status, outcome.answer.headers, outcome.answer.body);
      case 'reused':
        throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with another request body; use a new key for a new request');
      case 'running':
        throw new AppError('IDEMPOTENCY_IN_PROGRESS', 'A request with this Idempotency-Key is still running; ask again shortly', 1);
    }
  }
}

/**
 * Keeps the answer of each claimed write as it is sent (after the error filter, so refusals are kept too), or frees its
 * key when the answer is a 5xx, a 401 or a 429, or a stream: the client may send it again. Failing to keep an answer is
 * logged and leaves the key claimed until its lease ends; the answer itself still goes out.
 */
export function installIdempotencyRecorder(fastify: FastifyInstance, store: IdempotencyStore, logger: Logger): void {
  fastify.addHook('onSend', async (request, reply: FastifyReply, payload: unknown) => {
    const claim = request.idempotency;
    if (claim === undefined) {
      return payload;
    }
    request.idempotency = undefined;
    const body = payload === undefined || payload === null ? '' : typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
    try {
      if (reply.statusCode >= 500 || NOT_KEPT.has(reply.statusCode) || body === undefined) {
        await store.release(claim);
      } else {
        const headers: Record<string, string> = {};
        for (const name of KEPT_HEADERS) {
          const value = reply.getHeader(name);
          if (value !== undefined) {
            headers[name] = String(value);
          }
        }
        await store.complete(claim, { status: reply.statusCode, headers, body });
      }
    } catch (error) {
      // The write ran: freeing the key would let a retry run it again. The claim stays until its lease ends, and
      // retries are told 409 meanwhile.
      logger.warn(`Request ${request.id}: could not keep its Idempotency-Key answer (${String(error)}); the key stays claimed until its lease ends`);
    }
    return payload;
  });
}

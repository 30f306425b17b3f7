import { AppError, FREE_FORM_JSON_LIMITS, freeFormJsonProblem } from '@game-wallet/contracts';
import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';

/** 64 KiB: the request body limit of every HTTP port (SPEC §2). */
export const BODY_LIMIT_BYTES = 64 * 1024;

/**
 * What every field of every body is held to, whatever the route: no deeper than free-form JSON may nest (32 levels),
 * at most 64 Ki entries, and every string and key well-formed Unicode (a lone surrogate would be stored or signed as
 * something else). Free-form fields have tighter bounds of their own, checked where each is read; this one holds for
 * every route, so no handler is ever given a value too deep to serialize. Named by field.
 */
const BODY_FIELD_LIMITS = { maxDepth: FREE_FORM_JSON_LIMITS.maxDepth, maxEntries: BODY_LIMIT_BYTES, maxValues: BODY_LIMIT_BYTES };

export function bodyProblem(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return freeFormJsonProblem(body, 'body', { ...BODY_FIELD_LIMITS, maxDepth: BODY_FIELD_LIMITS.maxDepth + 1 });
  }
  for (const [field, value] of Object.entries(body)) {
    const problem = freeFormJsonProblem(field, 'body', BODY_FIELD_LIMITS) ?? freeFormJsonProblem(value, field, BODY_FIELD_LIMITS);
    if (problem !== undefined) {
      return problem;
    }
  }
  return undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The body's bytes as received (its `Content-Digest` and its `Idempotency-Key` record hash them); absent without a body. */
    rawBody?: Buffer;
  }
}

const JSON_TYPE = /^application\/json\s*(;|$)/i;

/**
 * Bodies are JSON only, at most 64 KiB, checked before routing so every route (and an unknown one) answers alike:
 * too large → 413, a body of another type → 415, JSON that does not parse → 400 `MALFORMED_JSON`.
 * Prototype-poisoning keys (`__proto__`, `constructor.prototype`) are refused as malformed; a body nested too deep, or
 * with a string that is not well-formed Unicode, is 400 `VALIDATION_FAILED` naming the field ({@link bodyProblem}).
 */
export function installJsonBodyPolicy(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addHook('onRequest', (request, _reply, done) => {
    const length = request.headers['content-length'];
    const hasBody = (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
    if (!hasBody) {
      done();
    } else if (length !== undefined && Number(length) > BODY_LIMIT_BYTES) {
      done(new AppError('PAYLOAD_TOO_LARGE', `Request body is larger than ${BODY_LIMIT_BYTES / 1024} KiB`));
    } else if (!JSON_TYPE.test(request.headers['content-type'] ?? '')) {
      done(new AppError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json'));
    } else {
      done();
    }
  });
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: BODY_LIMIT_BYTES }, (request, body, done) => {
    const raw = typeof body === 'string' ? Buffer.from(body) : body;
    request.rawBody = raw;
    const text = raw.toString('utf8');
    if (text.trim() === '') {
      done(new AppError('MALFORMED_JSON', 'Request body is empty; send a JSON value'), undefined);
      return;
    }
    let parsed: unknown;
    try {
      parsed = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
    } catch {
      done(new AppError('MALFORMED_JSON', 'Request body is not valid JSON'), undefined);
      return;
    }
    const problem = bodyProblem(parsed);
    done(problem === undefined ? null : new AppError('VALIDATION_FAILED', problem), problem === undefined ? parsed : undefined);
  });
}

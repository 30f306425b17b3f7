import { AppError } from '@game-wallet/contracts';
import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';

/** 64 KiB: the request body limit of every HTTP port (SPEC §2). */
export const BODY_LIMIT_BYTES = 64 * 1024;

const JSON_TYPE = /^application\/json\s*(;|$)/i;

/**
 * Bodies are JSON only, at most 64 KiB, checked before routing so every route (and an unknown one) answers alike:
 * too large → 413, a body of another type → 415, JSON that does not parse → 400 `MALFORMED_JSON`.
 * Prototype-poisoning keys (`__proto__`, `constructor.prototype`) are refused as malformed.
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
  fastify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(new AppError('MALFORMED_JSON', 'Request body is empty; send a JSON value'), undefined);
      return;
    }
    try {
      done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch {
      done(new AppError('MALFORMED_JSON', 'Request body is not valid JSON'), undefined);
    }
  });
}

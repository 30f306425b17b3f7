import { AppError } from '@game-wallet/contracts';

/** A Structured Field String (RFC 9651 §3.3.3): printable ASCII, `"` and `\` escaped. */
const SF_STRING = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/;
const PRINTABLE = /^[\x20-\x7e]+$/;
export const IDEMPOTENCY_KEY_MAX = 255;

/**
 * The `Idempotency-Key` of a request (IETF httpapi draft "The Idempotency-Key HTTP Header Field"), or undefined when
 * none is sent. The draft's form is a Structured Field String (`"8e03978e-…"`); a bare value is taken too, as most
 * clients send it. Either way the key is 1–255 printable ASCII characters; anything else (sent twice, a control
 * character, too long, empty) is a 400, never a request run without the protection its client asked for.
 */
export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) {
    return undefined;
  }
  if (Array.isArray(header)) {
    throw malformed('must be sent once');
  }
  const value = header.trim();
  const quoted = SF_STRING.exec(value);
  const key = quoted ? quoted[1].replace(/\\(["\\])/g, '$1') : value;
  if (!quoted && value.startsWith('"')) {
    throw malformed('is not a well-formed quoted string');
  }
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX || !PRINTABLE.test(key)) {
    throw malformed(`must be 1–${IDEMPOTENCY_KEY_MAX} printable ASCII characters`);
  }
  return key;
}

function malformed(problem: string): AppError {
  return new AppError('VALIDATION_FAILED', `Idempotency-Key ${problem}`);
}

import { AppError, ResolvedApiKey, SigningPublicJwk } from '@game-wallet/contracts';
import { httpbis } from 'http-message-signatures';
import { InnerList, isInnerList, parseDictionary, serializeInnerList, serializeItem } from 'structured-headers';
import { KeyObject, createHash, createPublicKey, timingSafeEqual, verify } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/** A signature older than this is refused (RFC 9421 `created`); its nonce is remembered as long. */
export const SIGNATURE_MAX_AGE_SECONDS = 300;
/** A `created` this far ahead of the gateway's clock is still taken (clocks drift); further ahead it is refused. */
export const SIGNATURE_CLOCK_SKEW_SECONDS = 30;
/** Components every signed request covers; `content-digest` too when the request has a body. */
const REQUIRED_COMPONENTS = ['@method', '@target-uri', 'x-api-key'];
const NONCE = /^[\x21-\x7e]{8,128}$/;
const MAX_LABELS = 4;
const MAX_COMPONENTS = 24;
const DIGESTS: Record<string, 'sha256' | 'sha512'> = { 'sha-256': 'sha256', 'sha-512': 'sha512' };

/** The parts of a request a signature covers. */
export interface SignedMessage {
  method: string;
  /** scheme://authority/path?query, as the client addressed it (after trusted proxies) */
  targetUri: string;
  /** lower-case names, as Node gives them */
  headers: Record<string, string | string[] | undefined>;
  /** the body's bytes; undefined without a body */
  body?: Buffer;
}

/** Remembers nonces across gateways: true when the nonce is new (and is now taken), false when seen before. */
export type NonceStore = (keyId: string, nonce: string, ttlSeconds: number) => Promise<boolean>;

/**
 * Checks an RFC 9421 HTTP Message Signature of a request made with an API key that requires them, with RFC 9530
 * `Content-Digest` for its body. The signature base is built by `http-message-signatures`; the signature itself is
 * verified with `node:crypto` (Ed25519, or ECDSA P-256 with SHA-256 in its fixed 64-byte form). Fails closed: anything
 * that cannot be parsed or matched is 401 `INVALID_SIGNATURE` saying which part failed (never a value it was given).
 */
export class RequestSignatureVerifier {
  private readonly publicKeys = new LRUCache<string, KeyObject>({ max: 10_000 });

  constructor(
    private readonly nonces: NonceStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** The id of the signing key whose signature holds; throws 401 otherwise. */
  async verify(message: SignedMessage, key: ResolvedApiKey): Promise<string> {
    const inputHeader = single(message.headers['signature-input']);
    const signatureHeader = single(message.headers.signature);
    if (inputHeader === undefined && signatureHeader === undefined) {
      throw new AppError('SIGNATURE_REQUIRED', 'This API key requires signed requests: send Signature-Input and Signature (RFC 9421)');
    }
    if (inputHeader === undefined || signatureHeader === undefined) {
      throw invalid(`${inputHeader === undefined ? 'Signature-Input' : 'Signature'} is missing`);
    }
    const inputs = dictionary(inputHeader, 'Signature-Input');
    const signatures = dictionary(signatureHeader, 'Signature');
    if (inputs.size > MAX_LABELS) {
      throw invalid(`Signature-Input has more than ${MAX_LABELS} signatures`);
    }
    const registered = key.signingKeys ?? [];
    // The signature of a registered key is the one checked; others (a proxy's, say) are ignored.
    const label = [...inputs.keys()].find((name) => {
      const keyid = paramsOf(inputs.get(name)).get('keyid');
      return typeof keyid === 'string' && registered.some((signing) => signing.id === keyid);
    });
    if (label === undefined) {
      throw invalid("keyid names none of this API key's signing keys");
    }
    const member = inputs.get(label);
    if (member === undefined || !isInnerList(member) || member[0].length > MAX_COMPONENTS || member[0].some(([name]) => typeof name !== 'string')) {
      throw invalid('Signature-Input is not a list of components');
    }
    const input: InnerList = member;
    const params = input[1];
    const signingKey = registered.find((signing) => signing.id === params.get('keyid')) as NonNullable<ResolvedApiKey['signingKeys']>[number];
    const components = input[0].map(([name]) => name as string);
    const hasBody = message.body !== undefined && message.body.length > 0;
    for (const required of hasBody ? [...REQUIRED_COMPONENTS, 'content-digest'] : REQUIRED_COMPONENTS) {
      // As the whole field: a parameter (`;key=`, `;sf`, `;req`) would sign a part of it or another message's.
      if (!input[0].some(([name, parameters]) => name === required && parameters.size === 0)) {
        throw invalid(`the signature does not cover ${required}`);
      }
    }
    const alg = params.get('alg');
    if (alg !== undefined && alg !== signingKey.algorithm) {
      throw invalid(`alg is not the signing key's algorithm (${signingKey.algorithm})`);
    }
    const created = params.get('created');
    const now = Math.floor(this.now() / 1000);
    if (typeof created !== 'number' || !Number.isInteger(created)) {
      throw invalid('created is missing');
    }
    if (now - created > SIGNATURE_MAX_AGE_SECONDS || created - now > SIGNATURE_CLOCK_SKEW_SECONDS) {
      throw invalid(`created is not within the last ${SIGNATURE_MAX_AGE_SECONDS / 60} minutes`);
    }
    const expires = params.get('expires');
    if (expires !== undefined && (typeof expires !== 'number' || expires < now)) {
      throw invalid('the signature has expired');
    }
    const nonce = params.get('nonce');
    if (typeof nonce !== 'string' || !NONCE.test(nonce)) {
      throw invalid('nonce is missing (8–128 printable characters)');
    }
    if (components.includes('content-digest')) {
      checkDigest(single(message.headers['content-digest']), message.body ?? Buffer.alloc(0));
    }
    const signature = signatures.get(label);
    if (signature === undefined || !(signature[0] instanceof ArrayBuffer)) {
      throw invalid(`Signature has no byte sequence for ${label}`);
    }
    const base = signatureBase(message, input);
    if (!this.holds(signingKey, base, Buffer.from(signature[0]))) {
      throw invalid('the signature does not verify (method, target URI, covered headers or body differ from what was signed, or another key signed)');
    }
    // Kept past the last moment any gateway could still take the signature: a created up to the skew ahead, clocks of
    // gateways apart by as much again, and a margin.
    if (!(await this.nonces(key.keyId, nonce, SIGNATURE_MAX_AGE_SECONDS + 2 * SIGNATURE_CLOCK_SKEW_SECONDS + 10))) {
      throw invalid('nonce was used before: a request is signed once');
    }
    return signingKey.id;
  }

  private holds(signingKey: { id: string; algorithm: string; publicKey: SigningPublicJwk }, base: Buffer, signature: Buffer): boolean {
    if (signature.length !== 64) {
      return false;
    }
    let publicKey = this.publicKeys.get(signingKey.id);
    if (publicKey === undefined) {
      publicKey = createPublicKey({ key: signingKey.publicKey as never, format: 'jwk' });
      this.publicKeys.set(signingKey.id, publicKey);
    }
    return signingKey.algorithm === 'ed25519'
      ? verify(null, base, publicKey, signature)
      : verify('sha256', base, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature);
  }
}

/** RFC 9421 §2.5: the lines of the covered components, then `@signature-params` (by `http-message-signatures`). */
function signatureBase(message: SignedMessage, input: InnerList): Buffer {
  // Only the covered fields are handed over (the library looks each one up among all it is given).
  const headers: Record<string, string | string[]> = {};
  for (const [name] of input[0]) {
    const value = typeof name === 'string' && !name.startsWith('@') ? message.headers[name] : undefined;
    if (value !== undefined) {
      headers[name as string] = value;
    }
  }
  const fields = input[0].map((item) => serializeItem(item));
  let lines: [string, string[]][];
  try {
    lines = httpbis.createSignatureBase({ fields }, { method: message.method, url: message.targetUri, headers });
  } catch {
    throw invalid('a covered component is missing from the request or not supported');
  }
  lines.push(['"@signature-params"', [serializeInnerList(input)]]);
  return Buffer.from(httpbis.formatSignatureBase(lines));
}

function checkDigest(header: string | undefined, body: Buffer): void {
  if (header === undefined) {
    throw invalid('Content-Digest is missing');
  }
  const digests = dictionary(header, 'Content-Digest');
  let checked = 0;
  for (const [algorithm, value] of digests) {
    const hash = Object.hasOwn(DIGESTS, algorithm) ? DIGESTS[algorithm] : undefined;
    if (hash === undefined) {
      continue;
    }
    const given = Array.isArray(value) && value[0] instanceof ArrayBuffer ? Buffer.from(value[0]) : undefined;
    const actual = createHash(hash).update(body).digest();
    if (given === undefined || given.length !== actual.length || !timingSafeEqual(given, actual)) {
      throw invalid('Content-Digest does not match the body');
    }
    checked += 1;
  }
  if (checked === 0) {
    throw invalid('Content-Digest has no sha-256 or sha-512 digest');
  }
}

function dictionary(header: string, name: string): ReturnType<typeof parseDictionary> {
  try {
    return parseDictionary(header);
  } catch {
    throw invalid(`${name} is not a structured field dictionary (RFC 9651)`);
  }
}

function paramsOf(member: unknown): Map<string, unknown> {
  return Array.isArray(member) && member[1] instanceof Map ? (member[1] as Map<string, unknown>) : new Map();
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

function invalid(problem: string): AppError {
  return new AppError('INVALID_SIGNATURE', `Invalid request signature: ${problem}`);
}

import { base64Encode, base64UrlEncode } from '../crypto/base64';
import { randomBytes, webCrypto } from '../crypto/web-crypto';
import type { OutgoingRequest } from '../http-client';
import { isPlainString, sfBinary, sfString } from '../structured-fields';
import { RequestSigner, SIGNATURE_LENGTH } from './request-signer';

/** The signature's label in `Signature-Input` and `Signature`. */
const LABEL = 'sig';

/**
 * The header fields a signature covers, in this order, each when the request has it: the credential, the body's
 * digest (so the body is covered) and the Idempotency-Key (so a replayed answer is the one for this request).
 */
const COVERED_FIELDS = ['x-api-key', 'content-digest', 'idempotency-key'] as const;

/**
 * The headers that sign one attempt (RFC 9421 HTTP Message Signatures, RFC 9530 Digest Fields), each attempt with a
 * fresh `created` and `nonce`:
 * - `Content-Digest: sha-256=:<base64 SHA-256 of the body's UTF-8 bytes>:`, when there is a body;
 * - `Signature-Input: sig=("@method" "@target-uri" "x-api-key" "content-digest" "idempotency-key");created=…;nonce="…";keyid="…";alg="…"`,
 *   covering only the fields the request has;
 * - `Signature: sig=:<base64 signature>:` over the signature base of §2.5: a line `"<name>": <value>` per component
 *   (`@method` upper case, `@target-uri` the URL as given to fetch, a field its value trimmed), then
 *   `"@signature-params": ` and the inner list exactly as sent after `sig=`, lines joined by `\n` without a last one.
 */
export async function signatureHeaders(request: OutgoingRequest, signer: RequestSigner, now: number = Date.now()): Promise<Record<string, string>> {
  const subtle = await webCrypto();
  const added: Record<string, string> = {};
  if (request.body !== undefined) {
    // The bytes fetch sends for a string body: its UTF-8 encoding.
    const digest = await subtle.digest('SHA-256', new TextEncoder().encode(request.body));
    added['content-digest'] = `sha-256=${sfBinary(base64Encode(new Uint8Array(digest)))}`;
  }
  const fields = lowerCaseNames({ ...request.headers, ...added });
  const components: [name: string, value: string][] = [
    ['@method', request.method.toUpperCase()],
    ['@target-uri', request.url],
  ];
  for (const name of COVERED_FIELDS) {
    const value = fields[name];
    if (value !== undefined) {
      components.push([name, value.trim()]);
    }
  }
  const nonce = base64UrlEncode(await randomBytes(16));
  const parameters = `;created=${Math.floor(now / 1000)};nonce=${sfString(nonce)};keyid=${sfString(signer.keyId)};alg=${sfString(signer.algorithm)}`;
  const signatureParams = `(${components.map(([name]) => sfString(name)).join(' ')})${parameters}`;
  const base = [...components.map(([name, value]) => `${sfString(name)}: ${value}`), `${sfString('@signature-params')}: ${signatureParams}`].join('\n');
  const signature = await signer.sign(new TextEncoder().encode(base));
  if (!(signature instanceof Uint8Array) || signature.length !== SIGNATURE_LENGTH[signer.algorithm]) {
    throw new TypeError(`requestSigner.sign must give ${SIGNATURE_LENGTH[signer.algorithm]} bytes for ${signer.algorithm} (ECDSA as r‖s, IEEE P1363, not DER)`);
  }
  return { ...added, 'signature-input': `${LABEL}=${signatureParams}`, signature: `${LABEL}=${sfBinary(base64Encode(signature))}` };
}

/** The signer of a client's options, checked when the client is made: a `TypeError` says what is wrong. */
export function checkedRequestSigner(signer: RequestSigner): RequestSigner {
  if (typeof signer !== 'object' || signer === null || typeof signer.sign !== 'function') {
    throw new TypeError('requestSigner must be a RequestSigner: { keyId, algorithm, sign(data) }');
  }
  if (!Object.prototype.hasOwnProperty.call(SIGNATURE_LENGTH, signer.algorithm)) {
    throw new TypeError("requestSigner.algorithm must be 'ed25519' or 'ecdsa-p256-sha256'");
  }
  if (!isPlainString(signer.keyId, 255)) {
    throw new TypeError('requestSigner.keyId must be 1 to 255 printable ASCII characters, without " and \\ (the key\'s RFC 7638 thumbprint)');
  }
  return signer;
}

function lowerCaseNames(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

/** What "Add signing key" sends for the text pasted as a public key, or why it sends nothing. */
export type PublicKeyInput = { publicKey: string | Record<string, unknown>; problem?: undefined } | { problem: string };

const PRIVATE_KEY =
  'This is a private key: it must never leave the server that signs. Paste its public key instead, and make a new key pair, since this one was shared.';

/**
 * The public key as the API takes it: text that starts with `{` is a JWK, sent as the object it parses to; anything
 * else is sent as text (a PEM), and the platform says what is wrong with it. A private key is refused here already,
 * so that it is not sent anywhere.
 */
export function publicKeyInput(text: string): PublicKeyInput {
  const value = text.trim();
  if (value === '') {
    return { problem: 'Paste a public key: a PEM (-----BEGIN PUBLIC KEY-----) or a JWK.' };
  }
  if (!value.startsWith('{')) {
    return /PRIVATE KEY/.test(value) ? { problem: PRIVATE_KEY } : { publicKey: value };
  }
  let jwk: Record<string, unknown>;
  try {
    // Text that starts with `{` parses to an object, or not at all.
    jwk = JSON.parse(value) as Record<string, unknown>;
  } catch {
    return { problem: 'This starts like a JWK but is not valid JSON.' };
  }
  return Object.hasOwn(jwk, 'd') ? { problem: PRIVATE_KEY } : { publicKey: jwk };
}

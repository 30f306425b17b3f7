import type { RequestSignatureAlgorithm, SIGNING_KEYS_PER_API_KEY, SignedRequests } from '@game-wallet/contracts/views';

/** The request-signing settings and keys of an API key in words, for its tab, its drawer and the audit trail. */

/** The most signing keys an API key may have: the contract's limit (its type is the number, so a change fails here). */
export const SIGNING_KEY_LIMIT: typeof SIGNING_KEYS_PER_API_KEY = 3;

interface SettingWords {
  label: string;
  /** what the setting asks of the game server, in one line */
  hint: string;
  /** the key's badge in the list; none when nothing is required */
  badge: string | null;
}

const SETTINGS: Record<SignedRequests, SettingWords> = {
  off: { label: 'Off', hint: 'No request with this key needs a signature.', badge: null },
  signing: {
    label: 'Signing routes only',
    hint: "Requests that sign (sign, sign-transaction, sign-typed-data) or get a player's token (authenticate) must be signed.",
    badge: 'Signed requests: signing routes',
  },
  all: { label: 'Every request', hint: 'Every request with this key must be signed, reads and player creation included.', badge: 'Signed requests: every request' },
};

/** The settings in the order offered, each with its label and line of explanation. */
export const SIGNED_REQUESTS_CHOICES = (Object.keys(SETTINGS) as SignedRequests[]).map((value) => ({ value, ...SETTINGS[value] }));

export const signedRequestsBadge = (setting: SignedRequests): string | null => SETTINGS[setting].badge;

export const signedRequestsLabel = (setting: SignedRequests): string => SETTINGS[setting].label;

const ALGORITHMS: Record<RequestSignatureAlgorithm, string> = { ed25519: 'Ed25519', 'ecdsa-p256-sha256': 'P-256' };

/** `ed25519` → "Ed25519", `ecdsa-p256-sha256` → "P-256"; an unknown one as it is. */
export const algorithmLabel = (algorithm: string): string => (Object.hasOwn(ALGORITHMS, algorithm) ? ALGORITHMS[algorithm as RequestSignatureAlgorithm] : algorithm);

/** The details an `api_key.updated` entry records about request signing. */
export const SIGNING_CHANGE_FIELDS = ['signedRequests', 'signingKeyAdded', 'signingKeyRemoved', 'algorithm'];

/**
 * What an `api_key.updated` entry changed of the key's request signing, in words ("every request", "Ed25519 key,
 * fingerprint …"); null for another change (its `active`).
 */
export function describeSigningChange(details: Record<string, unknown>): string | null {
  const { signedRequests, signingKeyAdded, signingKeyRemoved, algorithm } = details;
  if (typeof signedRequests === 'string') {
    return Object.hasOwn(SETTINGS, signedRequests) ? SETTINGS[signedRequests as SignedRequests].label.toLowerCase() : signedRequests;
  }
  if (typeof signingKeyAdded === 'string') {
    return `${typeof algorithm === 'string' ? `${algorithmLabel(algorithm)} key, ` : ''}fingerprint ${signingKeyAdded}`;
  }
  if (typeof signingKeyRemoved === 'string') {
    return `fingerprint ${signingKeyRemoved}`;
  }
  return null;
}

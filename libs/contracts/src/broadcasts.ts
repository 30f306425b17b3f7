/**
 * Redis pub/sub channels on which identity tells every gateway (and every identity replica) about changes that must
 * take effect everywhere within a second. Each is prefixed with the transport key prefix.
 */
export const BROADCAST = {
  /** message: the SHA-256 (hex) of a key whose state changed (activated, deactivated, deleted) */
  apiKeys: 'events:api-keys',
  /** message: JSON `{ profiles: ProfileRevocation[], sessions: SessionRevocation[] }` */
  revocations: 'events:revocations',
  /** message: the new current kid, after a signing-key rotation */
  signingKeys: 'events:signing-keys',
} as const;

export const broadcastChannel = (prefix: string, channel: (typeof BROADCAST)[keyof typeof BROADCAST]): string =>
  `${prefix}:${channel}`;

/**
 * Redis key of the shared API-key cache entry for a key hash (written by identity only, signed with the transport key).
 * `signed:` keeps these entries apart from the unsigned ones of earlier releases while both run during an upgrade:
 * each release reads only its own kind, and a miss asks identity.
 */
export const apiKeyCacheKey = (prefix: string, hash: string): string => `${prefix}:api-key:signed:${hash}`;

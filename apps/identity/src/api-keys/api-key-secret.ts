import { createHash, randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_LENGTH = 40;
export const API_KEY_FORMAT = /^gk_[0-9A-Za-z]{40}$/;

/** A new secret: `gk_` + 40 base62 characters, each drawn uniformly from a CSPRNG (about 238 bits). */
export function generateApiKeySecret(): string {
  let secret = 'gk_';
  for (let index = 0; index < SECRET_LENGTH; index += 1) {
    secret += BASE62[randomInt(62)];
  }
  return secret;
}

/** What is stored and looked up: SHA-256 of the secret, hex. */
export function hashApiKey(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** `gk_`, the next 4 characters, `…` (U+2026), the last 4: `gk_AbCd…wXyZ`. */
export function previewApiKey(secret: string): string {
  return `${secret.slice(0, 7)}\u2026${secret.slice(-4)}`;
}

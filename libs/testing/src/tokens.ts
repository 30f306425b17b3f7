import { open, signEs256 } from '@game-wallet/crypto';
import { createPrivateKey, generateKeyPairSync, randomUUID } from 'node:crypto';
import { queryOnce } from './database';
import { TestPlatform } from './platform';

/**
 * Signs `claims` with the platform's current signing key, read from the database and decrypted with the key the
 * suite configured: how a test makes a genuine token that the API would never issue (an expired one, say).
 */
export async function signWithPlatformKey(platform: TestPlatform, claims: object): Promise<string> {
  const [row] = await queryOnce<{ kid: string; private_key_ciphertext: Buffer; private_key_iv: Buffer; private_key_tag: Buffer }>(
    platform.databaseUrl,
    "SELECT kid, private_key_ciphertext, private_key_iv, private_key_tag FROM identity.signing_keys WHERE status = 'current'",
  );
  const der = open(
    Buffer.from(platform.env.IDENTITY_KEY_ENCRYPTION_KEY, 'base64'),
    { ciphertext: row.private_key_ciphertext, iv: row.private_key_iv, tag: row.private_key_tag },
    Buffer.from(row.kid),
  );
  return signEs256({ alg: 'ES256', kid: row.kid, typ: 'JWT' }, claims, createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }));
}

/** Signs with a key the platform has never seen (its own random kid). */
export function signWithUnknownKey(claims: object): string {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return signEs256({ alg: 'ES256', kid: randomUUID(), typ: 'JWT' }, claims, privateKey);
}

/** The same token with one claim changed and the original signature kept. */
export function tamper(token: string, change: Record<string, unknown>): string {
  const [header, payload, signature] = token.split('.');
  const claims = { ...(JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>), ...change };
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
}

export function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
}

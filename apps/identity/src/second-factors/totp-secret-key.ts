import { Provider } from '@nestjs/common';
import { IntegrityError, open, seal } from '@game-wallet/crypto';
import { hkdfSync } from 'node:crypto';
import { KEY_ENCRYPTION_KEY } from '../tokens/key-encryption-key';

/** The AES-256 key operators' TOTP secrets are sealed under at rest. */
export const TOTP_SECRET_KEY = Symbol('TOTP_SECRET_KEY');

/** Derived from identity's key-encryption key (HKDF-SHA256, its own label), as the password box is. */
export const totpSecretKeyProvider: Provider = {
  provide: TOTP_SECRET_KEY,
  inject: [KEY_ENCRYPTION_KEY],
  useFactory: (keyEncryptionKey: Buffer): Buffer => Buffer.from(hkdfSync('sha256', keyEncryptionKey, Buffer.alloc(0), 'game-wallet console totp secret key', 32)),
};

const VERSION = 'v1';

/**
 * A TOTP secret as stored: `v1.<iv>.<ciphertext>.<tag>` (base64url), AES-256-GCM with the operator's id as associated
 * data, so a sealed secret copied onto another operator's row does not open.
 */
export function sealTotpSecret(key: Buffer, operatorId: string, secretBase32: string): string {
  const sealed = seal(key, Buffer.from(secretBase32), aadOf(operatorId));
  return [VERSION, ...[sealed.iv, sealed.ciphertext, sealed.tag].map((part) => part.toString('base64url'))].join('.');
}

/** Opens what {@link sealTotpSecret} made; throws {@link IntegrityError} on any mismatch. */
export function openTotpSecret(key: Buffer, operatorId: string, stored: string): string {
  const parts = stored.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION) {
    throw new IntegrityError();
  }
  const [iv, ciphertext, tag] = parts.slice(1).map((part) => Buffer.from(part, 'base64url'));
  const plaintext = open(key, { iv, ciphertext, tag }, aadOf(operatorId));
  try {
    return plaintext.toString('utf8');
  } finally {
    plaintext.fill(0);
  }
}

function aadOf(operatorId: string): Buffer {
  return Buffer.from(`game-wallet operator totp\0${operatorId}`);
}

import { Provider } from '@nestjs/common';
import { AppError } from '@game-wallet/contracts';
import { BoxKeyPair, IntegrityError, boxKeyPairFromSeed, openSealed } from '@game-wallet/crypto';
import { hkdfSync } from 'node:crypto';
import { KEY_ENCRYPTION_KEY } from '../tokens/key-encryption-key';

/** The X25519 key pair console passwords are sealed to on their way from the gateway. */
export const PASSWORD_BOX = Symbol('PASSWORD_BOX');

/**
 * Derived from identity's key-encryption key (HKDF-SHA256, its own label), so every identity replica opens what the
 * gateway sealed to any of them, with no further secret to configure.
 */
export const passwordBoxProvider: Provider = {
  provide: PASSWORD_BOX,
  inject: [KEY_ENCRYPTION_KEY],
  useFactory: (keyEncryptionKey: Buffer): BoxKeyPair => {
    const seed = Buffer.from(hkdfSync('sha256', keyEncryptionKey, Buffer.alloc(0), 'game-wallet console password key', 32));
    try {
      return boxKeyPairFromSeed(seed);
    } finally {
      seed.fill(0);
    }
  },
};

/**
 * The password digest the gateway sealed to {@link PASSWORD_BOX} with the operator's e-mail as associated data. Sealed
 * to another key (identity's key-encryption key changed meanwhile): 503, and the gateway fetches the key again.
 */
export function openPassword(box: BoxKeyPair, sealed: string, email: string): string {
  try {
    return openSealed(box, sealed, Buffer.from(email)).toString('utf8');
  } catch (error) {
    if (error instanceof IntegrityError) {
      throw new AppError('SERVICE_UNAVAILABLE', 'The password could not be read; try again');
    }
    throw error;
  }
}

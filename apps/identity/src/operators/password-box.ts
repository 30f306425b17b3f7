import { Provider } from '@nestjs/common';
import { BoxKeyPair, boxKeyPairFromSeed } from '@game-wallet/crypto';
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

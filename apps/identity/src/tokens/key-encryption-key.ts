import { Logger, Provider } from '@nestjs/common';
import { loadOrCreateDevSecret } from '@game-wallet/crypto';
import { IdentityConfig } from '../config';
import { IDENTITY_CONFIG } from '../identity-config.token';

/** The 32-byte key that encrypts signing keys at rest. */
export const KEY_ENCRYPTION_KEY = Symbol('KEY_ENCRYPTION_KEY');

/** From `IDENTITY_KEY_ENCRYPTION_KEY`; in development, generated into the data folder with a warning. */
export const keyEncryptionKeyProvider: Provider = {
  provide: KEY_ENCRYPTION_KEY,
  inject: [IDENTITY_CONFIG],
  useFactory: (config: IdentityConfig): Buffer => {
    if (config.keyEncryptionKey) {
      return config.keyEncryptionKey;
    }
    const secret = loadOrCreateDevSecret(config.dataDir, 'identity-key-encryption');
    if (secret.created) {
      new Logger('KeyEncryptionKey').warn(
        `IDENTITY_KEY_ENCRYPTION_KEY is not set: generated a development key at ${secret.path}. Production refuses to start without it.`,
      );
    }
    return secret.key;
  },
};

import { Env, ServiceConfig, key32Var, loadServiceConfig, optionalStringVar, z } from '@game-wallet/config';

export interface IdentityConfig extends ServiceConfig {
  /** `iss` of every token identity signs. */
  jwtIssuer: string;
  /** Encrypts the JWT signing keys at rest (AES-256-GCM); generated into the data folder in development. */
  keyEncryptionKey?: Buffer;
  consoleAdminEmail?: string;
  consoleAdminPassword?: string;
}

/** The identity service's configuration, validated once at start. */
export function loadIdentityConfig(env: Env): IdentityConfig {
  const config = loadServiceConfig(env, {
    service: 'identity',
    portVariable: 'IDENTITY_PORT',
    defaultPort: 3101,
    databaseVariable: 'IDENTITY_DATABASE_URL',
    extra: {
      JWT_ISSUER: z.preprocess((value) => (value === '' ? undefined : value), z.string().max(200).default('game-wallet')),
      IDENTITY_KEY_ENCRYPTION_KEY: key32Var(),
      CONSOLE_ADMIN_EMAIL: z.preprocess((value) => (value === '' ? undefined : value), z.email('must be an e-mail address').optional()),
      CONSOLE_ADMIN_PASSWORD: optionalStringVar().refine(
        (value) => value === undefined || value.length >= 12,
        'must be at least 12 characters',
      ),
    },
    requiredInProduction: ['IDENTITY_KEY_ENCRYPTION_KEY', 'CONSOLE_ADMIN_EMAIL', 'CONSOLE_ADMIN_PASSWORD'],
  });
  const { extra, ...common } = config;
  return {
    ...common,
    jwtIssuer: extra.JWT_ISSUER,
    keyEncryptionKey: extra.IDENTITY_KEY_ENCRYPTION_KEY ? Buffer.from(extra.IDENTITY_KEY_ENCRYPTION_KEY, 'base64') : undefined,
    consoleAdminEmail: extra.CONSOLE_ADMIN_EMAIL?.toLowerCase(),
    consoleAdminPassword: extra.CONSOLE_ADMIN_PASSWORD,
  };
}

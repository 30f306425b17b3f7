import {
  Env,
  ServiceConfig,
  ServiceConfigSpec,
  envDocs,
  jwtIssuerEnvShape,
  key32Var,
  loadServiceConfig,
  optionalStringVar,
  serviceEnvShape,
  z,
} from '@game-wallet/config';

export interface IdentityConfig extends ServiceConfig {
  /** `iss` of every token identity signs. */
  jwtIssuer: string;
  /** Encrypts the JWT signing keys at rest (AES-256-GCM); generated into the data folder in development. */
  keyEncryptionKey?: Buffer;
  consoleAdminEmail?: string;
  consoleAdminPassword?: string;
}

/** The identity service's own variables. */
const identityVariables = {
  ...jwtIssuerEnvShape,
  IDENTITY_KEY_ENCRYPTION_KEY: key32Var().register(envDocs, {
    description:
      "Encrypts identity's JWT signing keys at rest (AES-256-GCM); identity's X25519 key pair, which opens the console " +
      'passwords the gateway seals, is derived from it. 32 bytes, base64; every identity replica has the same.',
    required: { production: true },
    default: 'generated into `DATA_DIR`',
    secret: true,
  }),
  CONSOLE_ADMIN_EMAIL: z
    .preprocess((value) => (value === '' ? undefined : value), z.email('must be an e-mail address').optional())
    .register(envDocs, {
      description: 'E-mail address of the first console operator, created when the platform starts with no operator (stored in lower case).',
      required: { production: true },
      default: '`admin@localhost`',
    }),
  CONSOLE_ADMIN_PASSWORD: optionalStringVar()
    .refine((value) => value === undefined || value.length >= 12, 'must be at least 12 characters')
    .register(envDocs, {
      description: 'Password of the first console operator: at least 12 characters. Used once, when the operator is created.',
      required: { production: true },
      default: 'a random password, printed once at the first start (and kept in `DATA_DIR/console-admin.txt`)',
      secret: true,
    }),
};

const spec: ServiceConfigSpec<typeof identityVariables> = {
  service: 'identity',
  portVariable: 'IDENTITY_PORT',
  defaultPort: 3101,
  databaseVariable: 'IDENTITY_DATABASE_URL',
  extra: identityVariables,
  requiredInProduction: ['IDENTITY_KEY_ENCRYPTION_KEY', 'CONSOLE_ADMIN_EMAIL', 'CONSOLE_ADMIN_PASSWORD'],
};

/** Every variable the identity service reads; `docs/configuration.md` is generated from it. */
export const identityEnvShape = serviceEnvShape(spec);

/** The identity service's configuration, validated once at start. */
export function loadIdentityConfig(env: Env): IdentityConfig {
  const { extra, ...common } = loadServiceConfig(env, spec);
  return {
    ...common,
    jwtIssuer: extra.JWT_ISSUER,
    keyEncryptionKey: extra.IDENTITY_KEY_ENCRYPTION_KEY ? Buffer.from(extra.IDENTITY_KEY_ENCRYPTION_KEY, 'base64') : undefined,
    consoleAdminEmail: extra.CONSOLE_ADMIN_EMAIL?.toLowerCase(),
    consoleAdminPassword: extra.CONSOLE_ADMIN_PASSWORD,
  };
}

import {
  Env,
  ServiceConfig,
  positiveIntVar,
  ServiceConfigSpec,
  envDocs,
  jwtIssuerEnvShape,
  key32Var,
  loadServiceConfig,
  optionalStringVar,
  serviceEnvShape,
  urlVar,
  z,
} from '@game-wallet/config';

export interface IdentityConfig extends ServiceConfig {
  /** `iss` of every token identity signs. */
  jwtIssuer: string;
  /** Encrypts the JWT signing keys at rest (AES-256-GCM); generated into the data folder in development. */
  keyEncryptionKey?: Buffer;
  consoleAdminEmail?: string;
  consoleAdminPassword?: string;
  /** Where invitation links are mailed from, when both are set; otherwise links are only shown to the inviter. */
  smtp?: { url: string; from: string };
  /** false: the first operator is not made at start (the `create-operator` command invites them instead). */
  firstOperatorAtStart?: boolean;
  webhooks: WebhookSettings;
}

/** How webhooks are delivered (README "Webhooks"). */
export interface WebhookSettings {
  /** The waits before each retry, in seconds (the first attempt is at once); the last one failing ends the delivery. */
  retryScheduleSeconds: number[];
  /** An endpoint whose every attempt failed for this long is disabled. */
  disableAfterSeconds: number;
  /** One attempt, connection to the end of the answer. */
  timeoutMs: number;
  /** Development only: `http` endpoints and loopback, private and link-local addresses allowed. */
  allowPrivateUrls: boolean;
}

/** Standard Webhooks' recommended spacing: 8 attempts over about 27.6 hours. */
export const DEFAULT_RETRY_SCHEDULE_SECONDS = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000];

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
      description:
        'E-mail address of the first console operator (an owner of every game), created with `CONSOLE_ADMIN_PASSWORD` when ' +
        'the platform starts with no operator (stored in lower case). Not needed once an operator exists. In production, ' +
        'instead of both, `node cli/create-operator.js --email <address>` prints a one-time invitation link for the first owner.',
      required: { when: 'with `CONSOLE_ADMIN_PASSWORD`' },
      default: '`admin@localhost` (development only; alone, it is not used)',
    }),
  CONSOLE_ADMIN_PASSWORD: optionalStringVar()
    .refine((value) => value === undefined || value.length >= 12, 'must be at least 12 characters')
    .register(envDocs, {
      description:
        'Password of the first console operator: at least 12 characters. Used once, when the operator is created; once ' +
        'an operator exists identity warns at every start until it is removed from the environment.',
      default: 'a random password, printed once at the first start (and kept in `DATA_DIR/console-admin.txt`; development only)',
      secret: true,
    }),
  SMTP_URL: urlVar(['smtp:', 'smtps:']).register(envDocs, {
    description:
      'Mail server that sends console invitation links, as `smtp://user:password@host:587` (STARTTLS when the server offers it) ' +
      'or `smtps://…:465` (TLS). Unset, no mail is sent: the console shows each link once, to copy. A mail that cannot be ' +
      'sent does not fail the invitation.',
    required: { when: 'with `SMTP_FROM`' },
    secret: true,
  }),
  WEBHOOK_RETRY_SCHEDULE: z
    .preprocess((value) => (typeof value === 'string' && value.trim() !== '' ? value : undefined), z.string().default(DEFAULT_RETRY_SCHEDULE_SECONDS.join(',')))
    .refine((value) => {
      const waits = value.split(',').map((wait) => wait.trim());
      return waits.length >= 1 && waits.length <= 20 && waits.every((wait) => /^\d{1,6}$/.test(wait) && Number(wait) >= 1);
    }, 'must be 1 to 20 waits in whole seconds (1–999999), comma-separated')
    .transform((value) => value.split(',').map((wait) => Number(wait.trim())))
    .register(envDocs, {
      description:
        'The waits before each retry of a webhook delivery, in seconds, after a first attempt made at once; each is varied by ' +
        'up to ±10% (jitter). When the last retry fails the delivery is `failed` (it can be redelivered from the console). ' +
        'The default makes 8 attempts over about 27.6 hours.',
    }),
  WEBHOOK_DISABLE_AFTER_SECONDS: positiveIntVar(86_400).register(envDocs, {
    description: 'A webhook endpoint whose every attempt has failed for this long (the default: 24 hours) is disabled; the console shows why.',
  }),
  WEBHOOK_TIMEOUT_MS: positiveIntVar(10_000)
    .refine((value) => value <= 10_000, 'must be at most 10000')
    .register(envDocs, { description: 'How long one webhook attempt may take, from connecting to the end of the answer (at most 10 s).' }),
  WEBHOOK_ALLOW_PRIVATE_URLS: z
    .preprocess((value) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined), z.enum(['true', 'false'], { error: 'must be true or false' }).optional())
    .register(envDocs, {
      description:
        'Development and tests only: `true` lets webhook endpoints be `http` and resolve to loopback, private or link-local ' +
        'addresses (a receiver on this machine). Refused when NODE_ENV=production, where endpoints must be `https` and every ' +
        'address a name resolves to must be public (checked at each delivery, after DNS, so a name cannot rebind to one).',
      default: '`true` in development and tests, `false` in production',
    }),
  SMTP_FROM: optionalStringVar()
    .refine((value) => value === undefined || (value.length <= 320 && !/[\r\n]/.test(value)), 'must be one line, an address or `Name <address>`')
    .register(envDocs, {
      description: 'Sender of the invitation mails, `console@example.com` or `Game Wallet <console@example.com>`.',
      required: { when: 'with `SMTP_URL`' },
    }),
};

/** `[a, b]`: `a` is of no use without `b` (the other way round, `b` alone is simply not used), or both ways. */
const PAIRS: { variable: string; needs: string; both: boolean }[] = [
  // The e-mail alone stays harmless (a Kubernetes ConfigMap may keep it once the password's Secret key is removed).
  { variable: 'CONSOLE_ADMIN_PASSWORD', needs: 'CONSOLE_ADMIN_EMAIL', both: false },
  { variable: 'SMTP_URL', needs: 'SMTP_FROM', both: true },
];

const spec: ServiceConfigSpec<typeof identityVariables> = {
  service: 'identity',
  portVariable: 'IDENTITY_PORT',
  defaultPort: 3101,
  databaseVariable: 'IDENTITY_DATABASE_URL',
  extra: identityVariables,
  requiredInProduction: ['IDENTITY_KEY_ENCRYPTION_KEY'],
  refine: (env, context) => {
    if (env.NODE_ENV === 'production' && env.WEBHOOK_ALLOW_PRIVATE_URLS?.trim() === 'true') {
      context.addIssue({ code: 'custom', path: ['WEBHOOK_ALLOW_PRIVATE_URLS'], message: 'must not be true when NODE_ENV=production' });
    }
    for (const { variable, needs, both } of PAIRS) {
      const [has, hasNeeded] = [Boolean(env[variable]?.trim()), Boolean(env[needs]?.trim())];
      if (has && !hasNeeded) {
        context.addIssue({ code: 'custom', path: [needs], message: `must be set with ${variable}` });
      } else if (both && hasNeeded && !has) {
        context.addIssue({ code: 'custom', path: [variable], message: `must be set with ${needs}` });
      }
    }
  },
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
    smtp: extra.SMTP_URL !== undefined && extra.SMTP_FROM !== undefined ? { url: extra.SMTP_URL, from: extra.SMTP_FROM } : undefined,
    webhooks: {
      retryScheduleSeconds: extra.WEBHOOK_RETRY_SCHEDULE,
      disableAfterSeconds: extra.WEBHOOK_DISABLE_AFTER_SECONDS,
      timeoutMs: extra.WEBHOOK_TIMEOUT_MS,
      allowPrivateUrls: extra.WEBHOOK_ALLOW_PRIVATE_URLS === undefined ? common.nodeEnv !== 'production' : extra.WEBHOOK_ALLOW_PRIVATE_URLS === 'true',
    },
  };
}

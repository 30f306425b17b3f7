import { transportKeysOf } from '@game-wallet/config';
import { APP_NAMES } from '@game-wallet/contracts';
import { RedisStreamsClient, TransportKeys, newTransportEnvironment } from '@game-wallet/transport';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropDatabase, namedDatabaseUrl, uniqueDatabaseUrl } from './database';
import { freePort } from './ports';
import { AppName, RunningProcess, spawnApp, waitForHttp } from './processes';
import { TEST_REDIS_URL, deleteKeys, uniquePrefix } from './redis';
import { SoftHsmToken, testsUseHsm } from './softhsm';

/** The console operator every test platform starts with. */
export const TEST_OPERATOR = { email: 'operator@example.com', password: 'test-operator-password-1' };

export interface PlatformOptions {
  /** Which apps to start (default: all four). */
  apps?: AppName[];
  /** Extra environment for every app (`TRANSPORT_HMAC_KEYS` here replaces each app's own keys, made by default). */
  env?: Record<string, string>;
  /** Extra environment of one app only, on top of `env` (e.g. its own credentials). */
  appEnv?: Partial<Record<AppName, Record<string, string>>>;
  redisUrl?: string;
  /** The transport key prefix (default: a new unique one). */
  keyPrefix?: string;
  /** Name of the suite's database when the suite made it beforehand (default: a new unique one, made by the apps). */
  databaseName?: string;
  /** Admin URL of the Postgres server the suite's database is created on. */
  postgresAdminUrl?: string;
}

/**
 * The platform started for one suite: its own database, its own transport key prefix and free ports, so suites run in
 * parallel against the one Postgres and Redis of the machine and leave nothing behind.
 */
export class TestPlatform {
  readonly processes = new Map<string, RunningProcess>();

  private constructor(
    readonly env: Record<string, string>,
    readonly ports: { base: number; core: number; internal: number; identity: number; wallet: number; coreService: number },
    private readonly database: { name: string; adminUrl: string },
    private readonly prefix: string,
    private readonly redisUrl: string,
    private readonly appEnv: Partial<Record<AppName, Record<string, string>>>,
    /** The suite's SoftHSM2 token, when the wallet keeps its master keys in one (see `testsUseHsm`). */
    readonly hsm?: SoftHsmToken,
  ) {}

  static async start(label: string, options: PlatformOptions = {}): Promise<TestPlatform> {
    const adminUrl = options.postgresAdminUrl ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const database = options.databaseName ? namedDatabaseUrl(options.databaseName, adminUrl) : uniqueDatabaseUrl(label, adminUrl);
    const prefix = options.keyPrefix ?? uniquePrefix(label);
    const redisUrl = options.redisUrl ?? TEST_REDIS_URL;
    const ports = {
      base: await freePort(),
      core: await freePort(),
      internal: await freePort(),
      identity: await freePort(),
      wallet: await freePort(),
      coreService: await freePort(),
    };
    const dataDir = mkdtempSync(join(tmpdir(), 'gwt-data-'));
    const env = {
      DATA_DIR: dataDir,
      CONSOLE_ADMIN_EMAIL: TEST_OPERATOR.email,
      CONSOLE_ADMIN_PASSWORD: TEST_OPERATOR.password,
      IDENTITY_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      TRANSPORT_KEY_PREFIX: prefix,
      BASE_PORT: String(ports.base),
      CORE_PORT: String(ports.core),
      GATEWAY_INTERNAL_PORT: String(ports.internal),
      IDENTITY_PORT: String(ports.identity),
      WALLET_PORT: String(ports.wallet),
      CORE_SERVICE_PORT: String(ports.coreService),
      ...options.env,
    };
    // Each app its own transport keys, a key per link, as `npm run transport:keys` makes them for production.
    const transportEnv = options.env?.TRANSPORT_HMAC_KEYS === undefined ? newTransportEnvironment('test') : undefined;
    const appEnv: Partial<Record<AppName, Record<string, string>>> = Object.fromEntries(
      APP_NAMES.map((app) => [app, { ...transportEnv?.[app], ...options.appEnv?.[app] }]),
    );
    let hsm: SoftHsmToken | undefined;
    if (testsUseHsm() && !appEnv.wallet?.WALLET_MASTER_KEY_PROVIDER) {
      hsm = SoftHsmToken.create();
      hsm.createKey('master-1');
      appEnv.wallet = { ...hsm.walletEnv('master-1'), ...appEnv.wallet };
    }
    const platform = new TestPlatform(env, ports, { name: database.name, adminUrl }, prefix, redisUrl, appEnv, hsm);
    // Services first (each creates the database if needed and migrates its schema), then the gateway.
    const apps = options.apps ?? ['gateway', 'identity', 'wallet', 'core'];
    await Promise.all(apps.filter((app) => app !== 'gateway').map((app) => platform.startApp(app)));
    if (apps.includes('gateway')) {
      await platform.startApp('gateway');
    }
    return platform;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.ports.base}`;
  }

  get coreUrl(): string {
    return `http://127.0.0.1:${this.ports.core}`;
  }

  get databaseUrl(): string {
    return this.env.DATABASE_URL;
  }

  get keyPrefix(): string {
    return this.prefix;
  }

  /** The environment `app` starts with: the platform's, and the app's own (its transport keys, …). */
  envOf(app: AppName): Record<string, string> {
    return { ...this.env, ...this.appEnv[app] };
  }

  /** The transport keys `app` uses, for a test that acts as that app. */
  transportKeys(app: AppName): TransportKeys {
    return TransportKeys.fromConfig(app, transportKeysOf(app, this.envOf(app)), this.env.DATA_DIR);
  }

  /**
   * A transport client of the suite's platform that signs as `app` (connected; close it when done). Services run only
   * the patterns that app may ask for: the gateway's, or core's to make a profile or a wallet.
   */
  async transportClient(app: AppName = 'gateway'): Promise<RedisStreamsClient> {
    const client = new RedisStreamsClient({ redisUrl: this.env.REDIS_URL, keyPrefix: this.prefix, keys: this.transportKeys(app) });
    await client.connect();
    return client;
  }

  /** Internal HTTP URL of an app (the gateway's is its metrics port). */
  internalUrl(app: AppName): string {
    const port = { gateway: this.ports.internal, identity: this.ports.identity, wallet: this.ports.wallet, core: this.ports.coreService }[app];
    return `http://127.0.0.1:${port}`;
  }

  /**
   * Starts (or restarts) `app` and waits until it is live. A second replica gets its own name (`gateway#2`) and, for
   * a gateway, its own ports in `extraEnv`.
   */
  async startApp(app: AppName, name: string = app, extraEnv: Record<string, string> = {}): Promise<RunningProcess> {
    const env = { ...this.envOf(app), ...extraEnv };
    const running = spawnApp(app, env);
    this.processes.set(name, running);
    const port = { gateway: env.BASE_PORT, identity: env.IDENTITY_PORT, wallet: env.WALLET_PORT, core: env.CORE_SERVICE_PORT }[app];
    await waitForHttp(`http://127.0.0.1:${port}/v1/health/live`, running);
    return running;
  }

  /** A second gateway on ports of its own; returns its base and core URLs. */
  async startSecondGateway(name = 'gateway#2'): Promise<{ baseUrl: string; coreUrl: string }> {
    const ports = { base: await freePort(), core: await freePort(), internal: await freePort() };
    await this.startApp('gateway', name, {
      BASE_PORT: String(ports.base),
      CORE_PORT: String(ports.core),
      GATEWAY_INTERNAL_PORT: String(ports.internal),
    });
    return { baseUrl: `http://127.0.0.1:${ports.base}`, coreUrl: `http://127.0.0.1:${ports.core}` };
  }

  process(name: string): RunningProcess {
    const running = this.processes.get(name);
    if (!running) {
      throw new Error(`No process ${name}`);
    }
    return running;
  }

  /** All output of all processes so far (for searching logs). */
  allOutput(): string {
    return [...this.processes.values()].map((running) => running.output).join('\n');
  }

  async stop(): Promise<void> {
    await Promise.all([...this.processes.values()].map((running) => running.stop()));
    await dropDatabase(this.database.name, this.database.adminUrl).catch(() => undefined);
    await deleteKeys(this.prefix, this.redisUrl).catch(() => undefined);
    rmSync(this.env.DATA_DIR, { recursive: true, force: true });
    this.hsm?.destroy();
  }
}

import { redisTargetOf, transportKeysOf } from '@game-wallet/config';
import { RedisStreamsClient, TransportKeys } from '@game-wallet/transport';
import { dropDatabase, namedDatabaseUrl, uniqueDatabaseUrl } from './database';
import { AppLauncher, AppName, LaunchOptions, PlatformPorts, RunningProcess } from './launch';
import { TEST_REDIS_URL, deleteKeys, uniquePrefix } from './redis';
import { SoftHsmToken, testsUseHsm } from './softhsm';

/** The console operator every test platform starts with. */
export const TEST_OPERATOR = { email: 'operator@example.com', password: 'test-operator-password-1' };

/** The variables of every app and of one app (`env`, `appEnv`: see {@link LaunchOptions}), and where the suite's data goes. */
export interface PlatformOptions extends Pick<LaunchOptions, 'env' | 'appEnv'> {
  /** Which apps to start (default: all four). */
  apps?: AppName[];
  /** The Redis the apps use (`REDIS_URL`) and the suite's keys are deleted from at the end (Sentinels: in `env`). */
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
 * parallel against the one Postgres and Redis of the machine and leave nothing behind. The apps are started by
 * {@link AppLauncher} (ports, data folder, secrets, each app's keys); the suite's database, key prefix and SoftHSM2
 * token are its own.
 */
export class TestPlatform {
  private constructor(
    private readonly launcher: AppLauncher,
    private readonly database: { name: string; adminUrl: string },
    private readonly prefix: string,
    private readonly redisUrl: string,
    /** The suite's SoftHSM2 token, when the wallet keeps its master keys in one (see `testsUseHsm`). */
    readonly hsm?: SoftHsmToken,
  ) {}

  static async start(label: string, options: PlatformOptions = {}): Promise<TestPlatform> {
    const adminUrl = options.postgresAdminUrl ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const database = options.databaseName ? namedDatabaseUrl(options.databaseName, adminUrl) : uniqueDatabaseUrl(label, adminUrl);
    const prefix = options.keyPrefix ?? uniquePrefix(label);
    const redisUrl = options.redisUrl ?? TEST_REDIS_URL;
    const appEnv = { ...options.appEnv };
    let hsm: SoftHsmToken | undefined;
    if (testsUseHsm() && !appEnv.wallet?.WALLET_MASTER_KEY_PROVIDER) {
      hsm = SoftHsmToken.create();
      hsm.createKey('master-1');
      appEnv.wallet = { ...hsm.walletEnv('master-1'), ...appEnv.wallet };
    }
    const launcher = await AppLauncher.prepare({
      label: 'test',
      operator: TEST_OPERATOR,
      env: { DATABASE_URL: database.url, REDIS_URL: redisUrl, TRANSPORT_KEY_PREFIX: prefix, ...options.env },
      appEnv,
    });
    const platform = new TestPlatform(launcher, { name: database.name, adminUrl }, prefix, redisUrl, hsm);
    await launcher.startAll(options.apps);
    return platform;
  }

  /** The platform's environment, as every app gets it (each app adds its own: {@link envOf}). */
  get env(): Record<string, string> {
    return this.launcher.env;
  }

  get ports(): PlatformPorts {
    return this.launcher.ports;
  }

  /** Every app process started, by name (`wallet`, `wallet#2`). */
  get processes(): Map<string, RunningProcess> {
    return this.launcher.processes;
  }

  get baseUrl(): string {
    return this.launcher.url('base');
  }

  get coreUrl(): string {
    return this.launcher.url('core');
  }

  get databaseUrl(): string {
    return this.env.DATABASE_URL;
  }

  get keyPrefix(): string {
    return this.prefix;
  }

  /** The environment `app` starts with: the platform's, and the app's own (its transport keys, …). */
  envOf(app: AppName): Record<string, string> {
    return this.launcher.envOf(app);
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
    const client = new RedisStreamsClient({ redisUrl: redisTargetOf(this.env as Parameters<typeof redisTargetOf>[0]), keyPrefix: this.prefix, keys: this.transportKeys(app) });
    await client.connect();
    return client;
  }

  /** Internal HTTP URL of an app (the gateway's is its metrics port). */
  internalUrl(app: AppName): string {
    return this.launcher.internalUrl(app);
  }

  /**
   * Starts (or restarts) `app` and waits until it is live. A second replica gets its own name (`gateway#2`) and, for
   * a gateway, its own ports in `extraEnv`.
   */
  async startApp(app: AppName, name: string = app, extraEnv: Record<string, string> = {}): Promise<RunningProcess> {
    return this.launcher.startApp(app, name, extraEnv);
  }

  /** Another replica of `app` named `name` (`wallet#2`), on free ports of its own. */
  async startReplica(app: AppName, name: string): Promise<RunningProcess> {
    return this.launcher.startReplica(app, name);
  }

  /** Starts the process `name` again on the same ports, as it was started (stopping it first if it still runs). */
  async restartApp(name: string): Promise<RunningProcess> {
    return this.launcher.restartApp(name);
  }

  /** A second gateway on ports of its own; returns its base and core URLs. */
  async startSecondGateway(name = 'gateway#2'): Promise<{ baseUrl: string; coreUrl: string }> {
    await this.launcher.startReplica('gateway', name);
    return { baseUrl: this.launcher.url('base', name), coreUrl: this.launcher.url('core', name) };
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
    await this.launcher.stop();
    await dropDatabase(this.database.name, this.database.adminUrl).catch(() => undefined);
    await deleteKeys(this.prefix, this.redisUrl).catch(() => undefined);
    this.hsm?.destroy();
  }
}

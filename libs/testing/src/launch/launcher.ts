import { APP_NAMES, AppName } from '@game-wallet/contracts';
import { newTransportEnvironment } from '@game-wallet/transport';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { imageRuntime } from './image-runtime';
import { PlatformPorts, freePorts, healthPort, internalPort, portsEnv, portsFromEnv, replicaPortsEnv } from './ports';
import { RunningProcess, appScript, spawnScript, testProcessEnv, waitForHttp } from './processes';

/** The console operator a launch signs in with. */
export interface ConsoleOperator {
  email: string;
  password: string;
}

export interface LaunchOptions {
  /**
   * The kind of run (`test`, `bench`): names the temporary data folder and is the id of the transport keys made for
   * it (1-64 letters, digits or `_.-`).
   */
  label: string;
  /**
   * What every app's environment starts from, under the platform's variables: by default PATH, NODE_ENV=test and
   * LOG_LEVEL=info only, so the apps' own defaults apply (`npm start` and the benchmarks pass their own environment).
   * `<APP>_TRANSPORT_HMAC_KEYS` and `<APP>_TRANSPORT_HMAC_KEY_ID` in it go to that app only, unprefixed.
   */
  baseEnv?: Record<string, string | undefined>;
  /** The platform's variables for every app: database, Redis, key prefix, limits… (`TRANSPORT_HMAC_KEYS` here replaces each app's own keys). */
  env?: Record<string, string>;
  /** Variables of one app only, on top of `env` (e.g. its own credentials). */
  appEnv?: Partial<Record<AppName, Record<string, string>>>;
  /** The ports (default: free ones). */
  ports?: PlatformPorts;
  /**
   * The data folder the apps keep their development secrets in, from one run to the next (`npm start`: `.data`): the
   * apps generate there what they are not given. Without one, the launch makes a temporary folder, removed by `stop`,
   * and secrets of its own: the console's first operator, identity's key-encryption key, each app's transport keys.
   */
  dataDir?: string;
  /** The console's first operator of a launch without a data folder (default: a new one). */
  operator?: ConsoleOperator;
  /** Run each app as its image runs it: the Dockerfile's NODE_OPTIONS and the app's node flags (what the benchmarks measure). */
  asImage?: boolean;
  /** More node flags for an app (a CPU profile…). */
  nodeFlags?: (app: AppName) => string[];
  /**
   * Where each app's output goes: kept on its process for reading (default), to a function line by line (kept
   * nowhere), or only its stderr to ours.
   */
  output?: 'keep' | 'stderr' | ((name: string, line: string) => void);
  /** An app counts as started once it is live (default: `/v1/health/live`) or ready (`/v1/health`: its database and Redis answer). */
  waitFor?: 'live' | 'ready';
  /** How long an app may take to start (default 30 s). */
  startTimeoutMs?: number;
}

/** The services first (together: each creates the database if needed and migrates its own schema), then the gateway. */
export const START_ORDER: readonly AppName[] = ['identity', 'wallet', 'core', 'gateway'];

const PREFIXED_TRANSPORT_KEYS = /^(GATEWAY|IDENTITY|WALLET|CORE)_(TRANSPORT_HMAC_KEYS|TRANSPORT_HMAC_KEY_ID)$/;

/**
 * `env` without the apps' own transport keys, and those per app: `<APP>_TRANSPORT_HMAC_KEYS` and
 * `<APP>_TRANSPORT_HMAC_KEY_ID` (as `npm run -s transport:keys -- --prefixed` prints them) are that app's
 * TRANSPORT_HMAC_KEYS and TRANSPORT_HMAC_KEY_ID; the other apps' keys stay out of its process.
 */
export function splitTransportKeys(env: Record<string, string | undefined>): { shared: Record<string, string>; own: Record<AppName, Record<string, string>> } {
  const shared: Record<string, string> = {};
  const own = Object.fromEntries(APP_NAMES.map((app) => [app, {}])) as Record<AppName, Record<string, string>>;
  for (const [name, value] of Object.entries(env)) {
    const prefixed = PREFIXED_TRANSPORT_KEYS.exec(name);
    if (value === undefined) {
      continue;
    }
    if (prefixed) {
      own[prefixed[1].toLowerCase() as AppName][prefixed[2]] = value;
    } else {
      shared[name] = value;
    }
  }
  return { shared, own };
}

/**
 * The platform's apps on this machine, started from their bundles in `dist/apps`: one place that chooses the ports,
 * the data folder and the development secrets, builds each app's environment (the platform's, and each app's own
 * transport keys), starts an app with the right node flags, waits until it is live and stops it. `npm start`, the
 * test platform, the drill, the soak and the benchmarks all start the platform through it; each adds what is its own
 * (a database per suite, readable logs, measurements).
 */
export class AppLauncher {
  /** Every process started, by name (`wallet`, `wallet#2`); a restart replaces its entry. */
  readonly processes = new Map<string, RunningProcess>();
  private readonly startedAs = new Map<string, { app: AppName; extraEnv: Record<string, string> }>();
  private stopping = false;

  private constructor(
    private readonly options: LaunchOptions,
    /** The platform's variables, as every app gets them (without the base environment). */
    readonly env: Record<string, string>,
    private readonly appEnv: Record<AppName, Record<string, string>>,
    private readonly baseEnv: Record<string, string>,
    private readonly temporaryDataDir: boolean,
  ) {}

  /** Chooses the ports, the data folder and the secrets, and builds each app's environment; starts nothing yet. */
  static async prepare(options: LaunchOptions): Promise<AppLauncher> {
    const { shared: baseEnv, own } = splitTransportKeys(options.baseEnv ?? testProcessEnv());
    const temporary = options.dataDir === undefined;
    const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), `gw-${options.label}-`));
    const operator = options.operator ?? { email: `${options.label}@example.com`, password: randomBytes(12).toString('base64url') };
    const env: Record<string, string> = {
      ...portsEnv(options.ports ?? (await freePorts())),
      DATA_DIR: dataDir,
      ...(temporary
        ? { CONSOLE_ADMIN_EMAIL: operator.email, CONSOLE_ADMIN_PASSWORD: operator.password, IDENTITY_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64') }
        : {}),
      ...(options.asImage ? imageEnvironment() : {}),
      ...options.env,
    };
    // Each app its own transport keys, a key per link, as `npm run transport:keys` makes them for production; with a
    // data folder, the apps' development keys there unless the environment gives each its own.
    const fresh = temporary && env.TRANSPORT_HMAC_KEYS === undefined ? newTransportEnvironment(options.label) : undefined;
    const appEnv = Object.fromEntries(APP_NAMES.map((app) => [app, { ...fresh?.[app], ...own[app], ...options.appEnv?.[app] }]));
    return new AppLauncher(options, env, appEnv as Record<AppName, Record<string, string>>, baseEnv, temporary);
  }

  get dataDir(): string {
    return this.env.DATA_DIR;
  }

  /** The platform's ports (those of the first replica of each app). */
  get ports(): PlatformPorts {
    return portsFromEnv(this.env);
  }

  /** The ports of the process `name`: its own where it was started with some (a second replica), else the platform's. */
  portsOf(name: string): PlatformPorts {
    return portsFromEnv({ ...this.env, ...this.startedAs.get(name)?.extraEnv });
  }

  /** `http://127.0.0.1:<port>` of one of the platform's ports, or of the process `name`'s. */
  url(port: keyof PlatformPorts, name?: string): string {
    return `http://127.0.0.1:${(name === undefined ? this.ports : this.portsOf(name))[port]}`;
  }

  /** Internal HTTP URL of an app (the gateway's is its metrics port). */
  internalUrl(app: AppName): string {
    return `http://127.0.0.1:${internalPort(app, this.ports)}`;
  }

  /** The environment `app` starts with: the platform's, and the app's own (its transport keys, …). */
  envOf(app: AppName): Record<string, string> {
    return { ...this.env, ...this.appEnv[app] };
  }

  /** The console's first operator: the launch's own, the environment's, or the one identity generated into the data folder. */
  consoleOperator(): (ConsoleOperator & { file?: string }) | undefined {
    const env = { ...this.baseEnv, ...this.env };
    if (env.CONSOLE_ADMIN_EMAIL) {
      return { email: env.CONSOLE_ADMIN_EMAIL, password: env.CONSOLE_ADMIN_PASSWORD ?? '' };
    }
    const file = join(this.dataDir, 'console-admin.txt');
    if (!existsSync(file)) {
      return undefined;
    }
    const [email, password] = readFileSync(file, 'utf8').split('\n');
    return { email, password, file };
  }

  /** Starts `apps` (default: all four) in order, each once the ones it calls are up. */
  async startAll(apps: readonly AppName[] = START_ORDER): Promise<void> {
    await Promise.all(apps.filter((app) => app !== 'gateway').map((app) => this.startApp(app)));
    if (apps.includes('gateway')) {
      await this.startApp('gateway');
    }
  }

  /**
   * Starts (or restarts) `app` and waits until it is up. A second replica gets its own name (`gateway#2`) and, on
   * this machine, its own ports in `extraEnv` (see {@link startReplica}).
   */
  async startApp(app: AppName, name: string = app, extraEnv: Record<string, string> = {}): Promise<RunningProcess> {
    if (this.stopping) {
      throw new Error(`The platform is stopping: ${name} was not started`);
    }
    const { asImage, nodeFlags, output = 'keep', waitFor = 'live', startTimeoutMs } = this.options;
    const env = { ...this.baseEnv, ...this.envOf(app), ...extraEnv };
    const running = spawnScript(name, appScript(app), env, {
      nodeFlags: [...(asImage ? imageRuntime(app).nodeFlags : []), ...(nodeFlags?.(app) ?? [])],
      output: typeof output === 'function' ? (line) => output(name, line) : output,
    });
    this.processes.set(name, running);
    this.startedAs.set(name, { app, extraEnv });
    const path = waitFor === 'ready' ? '/v1/health' : '/v1/health/live';
    await waitForHttp(`http://127.0.0.1:${healthPort(app, portsFromEnv(env))}${path}`, running, startTimeoutMs);
    return running;
  }

  /** Starts another replica of `app` named `name`, on free ports of its own. */
  async startReplica(app: AppName, name: string): Promise<RunningProcess> {
    return this.startApp(app, name, await replicaPortsEnv(app));
  }

  /** Starts the process `name` again as it was started (the same app, ports and variables), stopping it first if it runs. */
  async restartApp(name: string): Promise<RunningProcess> {
    const started = this.startedAs.get(name);
    if (!started) {
      throw new Error(`No process ${name}`);
    }
    await this.processes.get(name)?.stop();
    return this.startApp(started.app, name, started.extraEnv);
  }

  /** Stops every app (SIGTERM, then SIGKILL after 12 s) and removes a temporary data folder; starts nothing after. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all([...this.processes.values()].map((running) => running.stop()));
    if (this.temporaryDataDir) {
      rmSync(this.dataDir, { recursive: true, force: true });
    }
  }
}

/** What the runtime stage of the images sets in the environment: NODE_OPTIONS, and glibc's malloc arenas. */
function imageEnvironment(): Record<string, string> {
  const { nodeOptions, mallocArenaMax } = imageRuntime('gateway');
  return { NODE_OPTIONS: nodeOptions, ...(mallocArenaMax === undefined ? {} : { MALLOC_ARENA_MAX: mallocArenaMax }) };
}

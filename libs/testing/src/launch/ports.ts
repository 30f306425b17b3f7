import type { AppName } from '@game-wallet/contracts';
import { createServer } from 'node:net';

/**
 * Ports are handed out below the kernel's ephemeral range (32768 and up on Linux). A port the kernel picks for
 * `listen(0)` comes from that range, which is also where outgoing connections (to Redis, PostgreSQL) get their local
 * port: between the test choosing it and the app binding it, one of them could take it (EADDRINUSE). Each Jest worker
 * draws from its own block, so parallel suites do not hand out the same port either.
 */
const FIRST_PORT = 20_000;
const BLOCK = 1_500;
const BLOCKS = 8;

const worker = Number(process.env.JEST_WORKER_ID ?? '1');
const blockStart = FIRST_PORT + ((((worker - 1) % BLOCKS) + BLOCKS) % BLOCKS) * BLOCK;
// Start at a different place in the block each run, so a port a previous run left in TIME_WAIT is not the first tried.
let next = blockStart + Math.floor(Math.random() * BLOCK);

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}

/** A TCP port free right now, outside the ephemeral range and not handed out before by this process. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < BLOCK; attempt += 1) {
    const port = next;
    next = next + 1 >= blockStart + BLOCK ? blockStart : next + 1;
    if (await canListen(port)) {
      return port;
    }
  }
  throw new Error(`No free port in ${blockStart}-${blockStart + BLOCK - 1}`);
}

/** Every port the platform listens on: the gateway's three, and each service's internal one. */
export interface PlatformPorts {
  /** The gateway's `base_url` (profile, wallet, health, JWKS, console). */
  base: number;
  /** The gateway's `core_url` (player). */
  core: number;
  /** The gateway's internal port (metrics). */
  internal: number;
  identity: number;
  wallet: number;
  /** Core's internal port (health, metrics). */
  coreService: number;
}

/** The variable each port is read from. */
export const PORT_VARIABLES: Readonly<Record<keyof PlatformPorts, string>> = {
  base: 'BASE_PORT',
  core: 'CORE_PORT',
  internal: 'GATEWAY_INTERNAL_PORT',
  identity: 'IDENTITY_PORT',
  wallet: 'WALLET_PORT',
  coreService: 'CORE_SERVICE_PORT',
};

/** The ports the apps listen on unless told otherwise (their configuration's defaults). */
export const DEFAULT_PORTS: Readonly<PlatformPorts> = { base: 3000, core: 3001, internal: 3100, identity: 3101, wallet: 3102, coreService: 3103 };

/** The ports each app listens on: a second replica on the same machine needs its own. */
const PORTS_OF: Readonly<Record<AppName, (keyof PlatformPorts)[]>> = {
  gateway: ['base', 'core', 'internal'],
  identity: ['identity'],
  wallet: ['wallet'],
  core: ['coreService'],
};

const names = (ports: Partial<PlatformPorts>): (keyof PlatformPorts)[] => Object.keys(ports) as (keyof PlatformPorts)[];

/** A free port for each of `names` (all of the platform's by default). */
export async function freePorts<K extends keyof PlatformPorts = keyof PlatformPorts>(which: readonly K[] = names(DEFAULT_PORTS) as K[]): Promise<Pick<PlatformPorts, K>> {
  const ports: Partial<PlatformPorts> = {};
  for (const name of which) {
    ports[name] = await freePort();
  }
  return ports as Pick<PlatformPorts, K>;
}

/** `ports` as the variables the apps read (`BASE_PORT`, …). */
export function portsEnv(ports: Partial<PlatformPorts>): Record<string, string> {
  return Object.fromEntries(names(ports).map((name) => [PORT_VARIABLES[name], String(ports[name])]));
}

/** The ports set in `env` (each variable, as the apps read it), the defaults for the others. */
export function portsFromEnv(env: Record<string, string | undefined>, defaults: Readonly<PlatformPorts> = DEFAULT_PORTS): PlatformPorts {
  const read = (name: keyof PlatformPorts): number => Number(env[PORT_VARIABLES[name]] || defaults[name]);
  return Object.fromEntries(names(defaults).map((name) => [name, read(name)])) as unknown as PlatformPorts;
}

/** Free ports for another replica of `app` on this machine, as its variables (none it shares with the first). */
export async function replicaPortsEnv(app: AppName): Promise<Record<string, string>> {
  return portsEnv(await freePorts(PORTS_OF[app]));
}

/** The port `app` answers its health checks on: the gateway's `base_url`, a service's internal port. */
export function healthPort(app: AppName, ports: PlatformPorts): number {
  return app === 'gateway' ? ports.base : internalPort(app, ports);
}

/** The internal HTTP port of `app` (the gateway's is its metrics port). */
export function internalPort(app: AppName, ports: PlatformPorts): number {
  return { gateway: ports.internal, identity: ports.identity, wallet: ports.wallet, core: ports.coreService }[app];
}

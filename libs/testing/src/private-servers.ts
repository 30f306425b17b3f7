import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './launch/ports';
import { RunningProcess } from './launch/processes';
import { waitFor } from './wait';
import Redis from 'ioredis';
import { Client } from 'pg';

export interface PrivateRedisSettings {
  password?: string;
  args?: string[];
}

/**
 * A Redis server of the suite's own, on a free port, that the suite may stop, freeze and restart without disturbing
 * other suites (fault tests). Real `redis-server`, no persistence.
 */
export class PrivateRedis {
  private process?: RunningProcess;

  private constructor(
    readonly port: number,
    private readonly tls?: { port: number; dir: string },
    private readonly settings: PrivateRedisSettings = {},
  ) {}

  /**
   * With `tls`, the server also listens with TLS on a second port, under a certificate for 127.0.0.1 from a CA made
   * for the suite (`caFile`; give it to the apps as NODE_EXTRA_CA_CERTS). The plain port stays for the suite's admin.
   * `password` turns on `requirepass`; `args` are more `redis-server` options (`--replicaof …`).
   */
  static async start(options: { tls?: boolean } & PrivateRedisSettings = {}): Promise<PrivateRedis> {
    const server = new PrivateRedis(await freePort(), options.tls ? { port: await freePort(), dir: makeTestCertificates() } : undefined, options);
    await server.start();
    return server;
  }

  /** `redis://[:password@]127.0.0.1:<port>` */
  get url(): string {
    const password = this.settings.password === undefined ? '' : `:${encodeURIComponent(this.settings.password)}@`;
    return `redis://${password}127.0.0.1:${this.port}`;
  }

  /** `rediss://user:password@127.0.0.1:<tls port>` */
  tlsUrl(user: string, password: string): string {
    if (!this.tls) {
      throw new Error('This Redis was started without TLS');
    }
    return `rediss://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${this.tls.port}`;
  }

  get caFile(): string {
    return join(this.tls?.dir ?? '', 'ca.crt');
  }

  async start(): Promise<void> {
    const tlsArgs = this.tls
      ? ['--tls-port', String(this.tls.port), '--tls-auth-clients', 'no', '--tls-ca-cert-file', this.caFile,
         '--tls-cert-file', join(this.tls.dir, 'server.crt'), '--tls-key-file', join(this.tls.dir, 'server.key')]
      : [];
    const password = this.settings.password === undefined ? [] : ['--requirepass', this.settings.password];
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...password, ...tlsArgs, ...(this.settings.args ?? [])];
    const child = spawn('redis-server', args, {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.process = new RunningProcess('redis', child);
    await waitFor(async () => {
      const redis = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      redis.on('error', () => undefined);
      try {
        await redis.connect();
        return (await redis.ping()) === 'PONG';
      } finally {
        redis.disconnect();
      }
    }, 10_000, 'private redis to start');
  }

  /** Stops the server at once (SIGKILL: as abrupt as a crash). */
  async stop(): Promise<void> {
    await this.process?.stop('SIGKILL');
  }

  async destroy(): Promise<void> {
    await this.stop();
    if (this.tls) {
      rmSync(this.tls.dir, { recursive: true, force: true });
    }
  }

  /** Freezes the server (SIGSTOP): connections stay open but nothing answers. */
  freeze(): void {
    this.process?.child.kill('SIGSTOP');
  }

  thaw(): void {
    this.process?.child.kill('SIGCONT');
  }
}

/** A CA and a server certificate for 127.0.0.1 signed by it (P-256, one day), in a new temp folder. */
function makeTestCertificates(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gwt-tls-'));
  const openssl = (...args: string[]): void => void execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.crt', '-subj', '/CN=game-wallet test CA', '-days', '1');
  openssl('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1\n');
  openssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.crt', '-days', '1', '-extfile', 'server.ext');
  return dir;
}

const PG_BIN = (() => {
  const versions = readdirSync('/usr/lib/postgresql').sort();
  return join('/usr/lib/postgresql', versions[versions.length - 1], 'bin');
})();

/** Postgres refuses to run as root: the cluster runs as the `postgres` user (or as the current one if not root). */
function postgresUser(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) {
    return {};
  }
  return {
    uid: Number(execFileSync('id', ['-u', 'postgres']).toString().trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres']).toString().trim()),
  };
}

/**
 * A PostgreSQL cluster of the suite's own (initdb in a temp folder, run as the `postgres` user), so a fault suite can
 * stop and restart Postgres without disturbing the shared server.
 */
export class PrivatePostgres {
  private process?: RunningProcess;

  private constructor(
    readonly port: number,
    private readonly dataDir: string,
  ) {}

  static async start(): Promise<PrivatePostgres> {
    const root = mkdtempSync(join(tmpdir(), 'gwt-pg-'));
    chmodSync(root, 0o755);
    const dataDir = join(root, 'data');
    const user = postgresUser();
    if (user.uid !== undefined && user.gid !== undefined) {
      chownSync(root, user.uid, user.gid);
    }
    execFileSync(join(PG_BIN, 'initdb'), ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync'], {
      stdio: 'ignore',
      ...user,
      cwd: root,
    });
    const server = new PrivatePostgres(await freePort(), dataDir);
    await server.start();
    return server;
  }

  /** URL of database `name` on this cluster. */
  url(name = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${name}`;
  }

  async start(): Promise<void> {
    const child = spawn(
      join(PG_BIN, 'postgres'),
      ['-D', this.dataDir, '-p', String(this.port), '-k', this.dataDir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'],
      { stdio: ['ignore', 'pipe', 'pipe'], ...postgresUser(), cwd: this.dataDir },
    );
    this.process = new RunningProcess('postgres', child);
    await waitFor(async () => {
      const client = new Client({ connectionString: this.url(), connectionTimeoutMillis: 500 });
      try {
        await client.connect();
        await client.query('SELECT 1');
        return true;
      } finally {
        await client.end().catch(() => undefined);
      }
    }, 20_000, 'private postgres to start');
  }

  /** Stops the server (immediate shutdown: clients see their connections drop). */
  async stop(): Promise<void> {
    await this.process?.stop('SIGQUIT', 5000);
  }

  /** Freezes the server and every backend (SIGSTOP): connections stay open but nothing answers. */
  freeze(): void {
    this.signalAll('STOP');
  }

  thaw(): void {
    this.signalAll('CONT');
  }

  private signalAll(signal: 'STOP' | 'CONT'): void {
    const pid = this.process?.child.pid;
    if (pid !== undefined) {
      process.kill(pid, `SIG${signal}`);
      // The backends are the postmaster's children.
      execFileSync('pkill', [`-${signal}`, '-P', String(pid)]);
    }
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(join(this.dataDir, '..'), { recursive: true, force: true });
  }
}

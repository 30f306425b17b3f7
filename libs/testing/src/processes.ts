import type { AppName } from '@game-wallet/contracts';
import { ChildProcess, spawn } from 'node:child_process';
import { basename, resolve } from 'node:path';
import { waitFor } from './wait';

/** The repository's root, from the sources (tests) or from their compiled copy in `dist/out-tsc` (`npm run drill`). */
export const REPO_ROOT = ((up: string) => (basename(up) === 'out-tsc' ? resolve(up, '../..') : up))(resolve(__dirname, '../../..'));

/** A child process whose output is kept, line by line, for assertions (and shown when a test fails to start it). */
export class RunningProcess {
  readonly lines: string[] = [];
  private exited?: Promise<number | null>;

  constructor(
    readonly name: string,
    readonly child: ChildProcess,
  ) {
    const collect = (chunk: Buffer): void => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() !== '') {
          this.lines.push(line);
        }
      }
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    this.exited = new Promise((done) => child.once('exit', (code) => done(code)));
  }

  get output(): string {
    return this.lines.join('\n');
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** JSON log lines (the apps log pino JSON). */
  jsonLines(): Record<string, unknown>[] {
    return this.lines.flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  }

  waitForExit(): Promise<number | null> {
    return this.exited as Promise<number | null>;
  }

  /** Sends `signal` and waits for the process to end (SIGKILL after `graceMs`). */
  async stop(signal: NodeJS.Signals = 'SIGTERM', graceMs = 12_000): Promise<number | null> {
    if (!this.running) {
      return this.child.exitCode;
    }
    this.child.kill(signal);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    const code = await this.waitForExit();
    clearTimeout(timer);
    return code;
  }
}

export type { AppName };

/** Starts an app's bundle (`dist/apps/<app>`, built by `nx build <app>` before the tests) with `env` on top of a clean environment. */
export function spawnApp(app: AppName, env: Record<string, string>): RunningProcess {
  return spawnNode(app, resolve(REPO_ROOT, `dist/apps/${app}/main.js`), env);
}

/** Starts a compiled script (path relative to the repo root, under `dist/`). */
export function spawnNode(name: string, script: string, env: Record<string, string>): RunningProcess {
  const child = spawn(process.execPath, [resolve(REPO_ROOT, script)], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new RunningProcess(name, child);
}

/** Waits until `url` answers 200. */
export async function waitForHttp(url: string, process?: RunningProcess, timeoutMs = 30_000): Promise<void> {
  try {
    await waitFor(
      async () => {
        if (process && !process.running) {
          throw new Error(`${process.name} exited`);
        }
        const response = await fetch(url);
        return response.status === 200;
      },
      timeoutMs,
      `${url} to answer 200`,
      100,
    );
  } catch (error) {
    throw new Error(`${String(error)}\n--- ${process?.name ?? 'process'} output ---\n${process?.output ?? ''}`);
  }
}

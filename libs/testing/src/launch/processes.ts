import type { AppName } from '@game-wallet/contracts';
import { ChildProcess, spawn } from 'node:child_process';
import { basename, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { sleep } from '../wait';

/** The repository's root, from the sources (tests) or from their compiled copy in `dist/out-tsc` (scripts). */
export const REPO_ROOT = ((up: string) => (basename(up) === 'out-tsc' ? resolve(up, '../..') : up))(resolve(__dirname, '../../../..'));

/**
 * Where a process's output goes: kept line by line for assertions (and shown when it fails to start), handed line by
 * line to a function (kept nowhere), or only its stderr passed to ours (the benchmarks: nothing to read, no cost).
 */
export type ProcessOutput = 'keep' | 'stderr' | ((line: string) => void);

/** A child process whose output is kept, line by line, for assertions (and shown when a test fails to start it). */
export class RunningProcess {
  readonly lines: string[] = [];
  private exited?: Promise<number | null>;

  constructor(
    readonly name: string,
    readonly child: ChildProcess,
    /** Where each line goes instead of `lines`. */
    onLine?: (line: string) => void,
  ) {
    const take = onLine ?? ((line: string) => this.lines.push(line));
    // Whole lines, however the pipes split the output into chunks.
    for (const stream of [child.stdout, child.stderr].filter((piped) => piped !== null)) {
      createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
        if (line.trim() !== '') {
          take(line);
        }
      });
    }
    this.exited = new Promise((done) => child.once('exit', (code) => done(code)));
  }

  get output(): string {
    return this.lines.join('\n');
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** How it ended: `exit code 1`, `SIGKILL`; undefined while it runs. */
  get ending(): string | undefined {
    return this.running ? undefined : (this.child.signalCode ?? `exit code ${this.child.exitCode}`);
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

/** The bundle of `app`, built by `nx build <app>` (relative to the repository's root). */
export const appScript = (app: AppName): string => `dist/apps/${app}/main.js`;

/** Starts `script` (relative to the repository's root) with node and `nodeFlags`, in exactly the environment `env`. */
export function spawnScript(
  name: string,
  script: string,
  env: Record<string, string | undefined>,
  { nodeFlags = [], output = 'keep', args = [] }: { nodeFlags?: string[]; output?: ProcessOutput; args?: string[] } = {},
): RunningProcess {
  const child = spawn(process.execPath, [...nodeFlags, resolve(REPO_ROOT, script), ...args], {
    cwd: REPO_ROOT,
    env,
    stdio: output === 'stderr' ? ['ignore', 'ignore', 'inherit'] : ['ignore', 'pipe', 'pipe'],
  });
  return new RunningProcess(name, child, typeof output === 'function' ? output : undefined);
}

/** What a test's process starts from: nothing of the test's own environment but PATH, so the apps' defaults apply. */
export function testProcessEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'info' };
}

/** Starts an app's bundle (`dist/apps/<app>`, built by `nx build <app>` before the tests) with `env` on top of a clean environment. */
export function spawnApp(app: AppName, env: Record<string, string>): RunningProcess {
  return spawnNode(app, appScript(app), env);
}

/** Starts a compiled script (path relative to the repo root, under `dist/`) with `env` on top of a clean environment. */
export function spawnNode(name: string, script: string, env: Record<string, string>, args: string[] = []): RunningProcess {
  return spawnScript(name, script, { ...testProcessEnv(), ...env }, { args });
}

/** Waits until `url` answers 200; fails at once when `process` ends first, with its output. */
export async function waitForHttp(url: string, process?: RunningProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const failure = (why: string): Error => new Error(`${why}\n--- ${process?.name ?? 'process'} output ---\n${process?.output ?? ''}`);
  for (;;) {
    if (process && !process.running) {
      throw failure(`${process.name} ended (${process.ending}) before ${url} answered 200`);
    }
    const status = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
      (response) => response.status,
      () => undefined,
    );
    if (status === 200) {
      return;
    }
    if (Date.now() > deadline) {
      throw failure(`${process?.name ?? url}: ${url} did not answer 200 within ${timeoutMs / 1000} s`);
    }
    await sleep(100);
  }
}

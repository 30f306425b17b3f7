// podman and Compose for the deploy smoke test: podman configured for this machine (deploy/ci/containers.conf), its
// Docker-compatible API service for Debian's docker-compose 1.29, image builds, healthchecks and stops.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A command line as it may be printed: the values of PIN options and of `-e NAME=…` settings left out. */
export function printable(file, args) {
  const shown = args.map((arg, index) => {
    const previous = args[index - 1];
    if (previous === '--pin' || previous === '--so-pin' || ((previous === '-e' || previous === '--env') && arg.includes('='))) {
      return previous === '-e' || previous === '--env' ? `${arg.slice(0, arg.indexOf('='))}=…` : '…';
    }
    return arg.replace(/^(--(?:so-)?pin=).*/, '$1…');
  });
  return `${file} ${shown.join(' ')}`;
}

/** Runs a command; resolves with its stdout, rejects with its stderr's tail in the message (never a PIN or setting). */
export async function command(file, args, options = {}) {
  try {
    const { stdout } = await run(file, args, { maxBuffer: 64 * 1024 * 1024, ...options });
    return stdout;
  } catch (error) {
    const output = `${error.stderr ?? ''}${error.stdout ?? ''}`.trim().split('\n').slice(-25).join('\n');
    throw new Error(`${printable(file, args)} failed (exit ${error.code}):\n${output}`);
  }
}

export class Podman {
  /** `root`: the repository; `runDir`: where the API socket goes. */
  constructor(root, runDir) {
    this.root = root;
    this.env = { ...process.env, CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? join(root, 'deploy/ci/containers.conf') };
    this.socket = join(runDir, 'podman.sock');
    this.service = undefined;
  }

  podman(args, options = {}) {
    return command('podman', args, { env: this.env, ...options });
  }

  /** `podman system service` on a socket of this run's own, as docker-compose's DOCKER_HOST. */
  async startService() {
    this.service = spawn('podman', ['system', 'service', '--time=0', `unix://${this.socket}`], { env: this.env, stdio: 'ignore' });
    for (let attempt = 0; attempt < 100 && !existsSync(this.socket); attempt += 1) {
      await sleep(100);
    }
    if (!existsSync(this.socket)) {
      throw new Error('podman system service did not open its socket within 10 s');
    }
  }

  async stopService() {
    if (this.service && this.service.exitCode === null) {
      const exited = new Promise((resolve) => this.service.once('exit', resolve));
      this.service.kill('SIGTERM');
      await Promise.race([exited, sleep(5000)]);
    }
  }

  /** docker-compose (v1, Debian's) against the API service, with `env` for the files' variables. */
  compose(project, files, args, env = {}) {
    const fileArgs = files.flatMap((file) => ['-f', file]);
    return command('docker-compose', ['-p', project, ...fileArgs, ...args], {
      cwd: this.root,
      env: { ...this.env, ...env, DOCKER_HOST: `unix://${this.socket}`, COMPOSE_INTERACTIVE_NO_CLI: '1' },
    });
  }

  /** Builds `image` from the Dockerfile with APP=`app`; never pulls (the base image is the local one). */
  build(app, image) {
    return this.podman(['build', '--pull=never', '--layers', '--build-arg', `APP=${app}`, '-t', image, '-f', 'Dockerfile', '.'], { cwd: this.root });
  }

  async imageSize(image) {
    return Number((await this.podman(['image', 'inspect', '--format', '{{.Size}}', image])).trim());
  }

  /** A command in a new container of `image` (no network, the image's user), its stdout. */
  runIn(image, script, extra = []) {
    return this.podman(['run', '--rm', '--network', 'none', ...extra, '--entrypoint', 'sh', image, '-c', script]);
  }

  /** Runs the container's own healthcheck until it passes; returns the seconds it took, or throws after `timeoutMs`. */
  async waitHealthy(container, since, timeoutMs = 120_000) {
    for (;;) {
      const state = (await this.podman(['inspect', '--format', '{{.State.Status}}', container])).trim();
      if (state !== 'running') {
        throw new Error(`container ${container} is ${state}:\n${await this.logs(container)}`);
      }
      const healthy = await this.podman(['healthcheck', 'run', container]).then(
        () => true,
        () => false,
      );
      if (healthy) {
        return (Date.now() - since) / 1000;
      }
      if (Date.now() - since > timeoutMs) {
        throw new Error(`container ${container} not healthy after ${timeoutMs / 1000} s:\n${await this.logs(container)}`);
      }
      await sleep(500);
    }
  }

  async logs(container, lines = 40) {
    return this.podman(['logs', '--tail', String(lines), container]).catch((error) => String(error.message));
  }

  /** `podman stop` (the image's STOPSIGNAL, SIGTERM; SIGKILL after `grace` s): seconds taken and the exit code. */
  async stop(container, grace = 20) {
    const started = Date.now();
    await this.podman(['stop', '--time', String(grace), container]);
    const seconds = (Date.now() - started) / 1000;
    const exitCode = Number((await this.podman(['inspect', '--format', '{{.State.ExitCode}}', container])).trim());
    return { seconds, exitCode };
  }
}

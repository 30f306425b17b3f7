// Starts the whole platform for development: the four apps from dist/ (built by `npm start` just before, with the
// launcher compiled to dist/out-tsc), their JSON logs rendered as readable lines, the URLs and the first console
// sign-in printed once every app is healthy. Ctrl-C stops everything. The launcher (libs/testing/src/launch) gives
// each app its environment: the ports and data folder of this shell's environment (else 3000… and .data), and each
// app's own transport keys from `<APP>_TRANSPORT_HMAC_KEYS` (else the development keys the apps keep in the data
// folder).
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { AppLauncher, portsFromEnv } = createRequire(import.meta.url)(join(root, 'dist/out-tsc/libs/testing/src/launch'));

const tty = process.stdout.isTTY;
const paint = (code, text) => (tty ? `\x1b[${code}m${text}\x1b[0m` : text);
const appColor = { identity: 35, wallet: 33, core: 36, gateway: 32 };
const levelColor = { trace: 90, debug: 90, info: 32, warn: 33, error: 31, fatal: 41 };
const HIDDEN = new Set(['level', 'time', 'service', 'msg', 'context', 'pid', 'hostname']);

/** One readable line from a pino JSON line; anything else passes through. */
function render(app, line) {
  let entry;
  try {
    entry = JSON.parse(line);
  } catch {
    return `${paint(appColor[app], app.padEnd(8))} ${line}`;
  }
  const time = typeof entry.time === 'string' ? entry.time.slice(11, 23) : '';
  const level = String(entry.level ?? 'info');
  const extras = Object.entries(entry)
    .filter(([key]) => !HIDDEN.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'object' ? JSON.stringify(value) : value}`)
    .join(' ');
  const context = entry.context ? paint(90, `[${entry.context}] `) : '';
  return `${paint(90, time)} ${paint(levelColor[level] ?? 0, level.toUpperCase().padEnd(5))} ${paint(appColor[app], app.padEnd(8))} ${context}${entry.msg ?? ''}${extras ? ` ${paint(90, extras)}` : ''}`;
}

const launcher = await AppLauncher.prepare({
  label: 'start',
  baseEnv: process.env,
  dataDir: process.env.DATA_DIR || join(root, '.data'),
  ports: portsFromEnv(process.env),
  output: (app, line) => console.log(render(app, line)),
  waitFor: 'ready',
  startTimeoutMs: 120_000,
});
const url = (port) => launcher.url(port).replace('127.0.0.1', 'localhost');

let stopping = false;
async function stopAll(exitCode) {
  stopping = true;
  await launcher.stop();
  process.exit(exitCode);
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (!stopping) {
      console.log(paint(90, `\n${signal}: stopping every app (in-flight work finishes first)…`));
      void stopAll(0);
    }
  });
}

/** The first console operator: from the environment, or the development one identity generated into the data folder. */
function signIn() {
  const operator = launcher.consoleOperator();
  if (!operator) {
    return 'see the CONSOLE SIGN-IN line printed by identity above';
  }
  return operator.file ? `${operator.email} / ${operator.password}   (kept in ${operator.file})` : `${operator.email} with the password in CONSOLE_ADMIN_PASSWORD`;
}

try {
  await launcher.startAll();
} catch (error) {
  if (!stopping) {
    const ended = [...launcher.processes.values()].some((running) => !running.running);
    console.error(paint(31, `${String(error.message).split('\n')[0]}.${ended ? '' : ' Are PostgreSQL and Redis running?'} Stopping the platform.`));
    await stopAll(1);
  }
}
for (const [name, running] of launcher.processes) {
  void running.waitForExit().then(() => {
    if (!stopping) {
      console.error(paint(31, `${name} stopped unexpectedly (${running.ending}); stopping the platform.`));
      void stopAll(1);
    }
  });
}
if (!stopping) {
  const base = url('base');
  const banner = [
    '',
    paint(1, 'Game wallet platform is up.'),
    `  base_url   ${base}   (profile, wallet, health, JWKS, console)`,
    `  core_url   ${url('core')}   (player)`,
    `  console    ${paint(1, `${base}/console`)}   (web console; its JSON API is under /v1/console)`,
    `  sign-in    ${signIn()}`,
    `  health     ${base}/v1/health   ·   ${base}/v1/health/services`,
    `  metrics    ${url('internal')}/metrics`,
    paint(90, '  Ctrl-C stops everything.'),
    '',
  ];
  console.log(banner.join('\n'));
}

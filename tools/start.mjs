// Starts the whole platform for development: the four apps from dist/ (built by `npm start` just before), their JSON
// logs rendered as readable lines, the URLs printed once every app is healthy. Ctrl-C stops everything.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env };
const port = (name, fallback) => Number(env[name] || fallback);
const urls = {
  base: `http://localhost:${port('BASE_PORT', 3000)}`,
  core: `http://localhost:${port('CORE_PORT', 3001)}`,
  metrics: `http://localhost:${port('GATEWAY_INTERNAL_PORT', 3100)}/metrics`,
};
const apps = [
  { name: 'identity', health: `http://localhost:${port('IDENTITY_PORT', 3101)}/v1/health` },
  { name: 'wallet', health: `http://localhost:${port('WALLET_PORT', 3102)}/v1/health` },
  { name: 'core', health: `http://localhost:${port('CORE_SERVICE_PORT', 3103)}/v1/health` },
  { name: 'gateway', health: `${urls.base}/v1/health` },
];

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

/**
 * Each app's own environment: the shared one, with `<APP>_TRANSPORT_HMAC_KEYS` and `<APP>_TRANSPORT_HMAC_KEY_ID` (as
 * `npm run -s transport:keys -- --prefixed` prints them) as its TRANSPORT_HMAC_KEYS and TRANSPORT_HMAC_KEY_ID; the
 * other apps' keys stay out of its process. Without them each app generates its development keys, a key per link,
 * into the data folder they share.
 */
function envOf(app) {
  const own = {};
  const shared = {};
  for (const [name, value] of Object.entries(env)) {
    const prefixed = /^(GATEWAY|IDENTITY|WALLET|CORE)_(TRANSPORT_HMAC_KEYS|TRANSPORT_HMAC_KEY_ID)$/.exec(name);
    if (!prefixed) {
      shared[name] = value;
    } else if (prefixed[1] === app.toUpperCase()) {
      own[prefixed[2]] = value;
    }
  }
  return { ...shared, ...own };
}

let stopping = false;
const children = apps.map(({ name }) => {
  const child = spawn(process.execPath, [join(root, `dist/apps/${name}/main.js`)], { cwd: root, env: envOf(name), stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => console.log(render(name, line)));
  }
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(paint(31, `${name} stopped unexpectedly (${signal ?? `exit code ${code}`}); stopping the platform.`));
      void stopAll(1);
    }
  });
  return child;
});

async function stopAll(exitCode) {
  stopping = true;
  await Promise.all(
    children.map(
      (child) =>
        new Promise((done) => {
          if (child.exitCode !== null || child.signalCode !== null) {
            done();
            return;
          }
          child.once('exit', done);
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), 12_000).unref();
        }),
    ),
  );
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
  if (env.CONSOLE_ADMIN_EMAIL) {
    return `${env.CONSOLE_ADMIN_EMAIL} with the password in CONSOLE_ADMIN_PASSWORD`;
  }
  const file = join(env.DATA_DIR || join(root, '.data'), 'console-admin.txt');
  if (existsSync(file)) {
    const [email, password] = readFileSync(file, 'utf8').split('\n');
    return `${email} / ${password}   (kept in ${file})`;
  }
  return 'see the CONSOLE SIGN-IN line printed by identity above';
}

async function healthy(url) {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2000) })).status === 200;
  } catch {
    return false;
  }
}

const deadline = Date.now() + 120_000;
while (!stopping) {
  const states = await Promise.all(apps.map((app) => healthy(app.health)));
  if (states.every(Boolean)) {
    const banner = [
      '',
      paint(1, 'Game wallet platform is up.'),
      `  base_url   ${urls.base}   (profile, wallet, health, JWKS, console)`,
      `  core_url   ${urls.core}   (player)`,
      `  console    ${paint(1, `${urls.base}/console`)}   (web console; its JSON API is under /v1/console)`,
      `  sign-in    ${signIn()}`,
      `  health     ${urls.base}/v1/health   ·   ${urls.base}/v1/health/services`,
      `  metrics    ${urls.metrics}`,
      paint(90, '  Ctrl-C stops everything.'),
      '',
    ];
    console.log(banner.join('\n'));
    break;
  }
  if (Date.now() > deadline) {
    const waiting = apps.filter((_, index) => !states[index]).map((app) => app.name);
    console.error(paint(31, `Still not healthy after 2 minutes: ${waiting.join(', ')}. Are PostgreSQL and Redis running?`));
    await stopAll(1);
  }
  await new Promise((done) => setTimeout(done, 500));
}

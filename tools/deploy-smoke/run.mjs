#!/usr/bin/env node
// npm run deploy:smoke: the four images built and run as a platform team would, on a machine without a Docker daemon.
//
// With podman (deploy/ci/containers.conf) and the CI base image (deploy/ci/base-image.sh, cached): builds the four
// images from the Dockerfile with the build arguments docker-compose.yml gives them; checks each runs as uid 1000
// with only its own app's bundle; starts the apps with Debian's docker-compose 1.29 against podman's API socket,
// from docker-compose.yml and deploy/smoke/docker-compose.smoke.yml (production settings, the machine's PostgreSQL
// and Redis with a database and key prefix of this run's own, the wallet's master key in a SoftHSM2 token mounted
// into both wallet replicas); waits for every container's healthcheck; runs a short end-to-end flow (console sign-in,
// game and API key, a player, its wallet, a signature on each chain verified with that chain's library); stops one
// wallet replica with SIGTERM under load and checks every request still succeeded; stops every container (each must
// exit 0 within its drain, not by SIGKILL); tears everything down. Prints a table; exits 1 on any failure.
//
//   npm run deploy:smoke [-- --load-seconds 6 --workers 6]
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { Podman, command } from './containers.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const testing = require(join(root, 'dist/out-tsc/libs/testing/src'));
const { TEST_OPERATOR, consoleToken, createGame, createPlayer, deleteKeys, dropDatabase, freePort, http, makeSoftHsmFolder, queryOnce, SOFTHSM_MODULE } = testing;
const { ethers } = require('ethers');
const { PublicKey } = require('@solana/web3.js');
const nacl = require('tweetnacl');
const { base58 } = require('@scure/base');
const { verifyPersonalMessageSignature } = await import('@mysten/sui/verify');

const { values: options } = parseArgs({ options: { 'load-seconds': { type: 'string', default: '6' }, workers: { type: 'string', default: '6' } } });
const LOAD_MS = Number(options['load-seconds']) * 1000;
const WORKERS = Number(options.workers);

const APPS = ['identity', 'wallet', 'core', 'gateway'];
const COMPOSE_FILES = ['docker-compose.yml', 'deploy/smoke/docker-compose.smoke.yml'];
const POSTGRES_ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * What each image's /app holds besides node_modules, package.json and package-lock.json: the app's bundle and its
 * commands, and nothing of another app's (no other app's commands, the console only in the gateway's).
 */
const BUNDLES = {
  gateway: ['console', 'main.js', 'migrate.js'],
  identity: ['cli/audit-verify.js', 'cli/create-operator.js', 'cli/rotate-signing-key.js', 'main.js', 'migrate.js'],
  wallet: ['cli/hsm-create-key.js', 'cli/rewrap.js', 'keys', 'main.js', 'migrate.js'],
  core: ['main.js', 'migrate.js'],
};

const started = Date.now();
const log = (line) => process.stdout.write(`deploy-smoke: [${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);
const seconds = (since) => (Date.now() - since) / 1000;
const fail = (message) => {
  throw new Error(message);
};

const id = randomBytes(4).toString('hex');
const project = `gw-smoke-${id}`;
const runDir = mkdtempSync(join(tmpdir(), 'gw-smoke-'));
const podman = new Podman(root, runDir);
/** The gateway runs as a one-off container of this name (see startStack). */
const GATEWAY_CONTAINER = `${project}_gateway_1`;
const rows = new Map(APPS.map((app) => [app, { image: '', size: 0, build: NaN, start: NaN, health: 'not started', stop: '' }]));
const database = `gw_smoke_${id}`;
const prefix = `gw-smoke-${id}`;
let composeEnv;
let composeUp = false;
let failed = false;

try {
  await podman.startService();
  await buildImages();
  await checkImages();
  composeEnv = await smokeEnvironment();
  await startStack();
  const flow = await endToEnd();
  await walletStopUnderLoad(flow);
  await stopAll();
} catch (error) {
  failed = true;
  process.stderr.write(`deploy-smoke: FAILED: ${error.stack ?? error}\n`);
} finally {
  await tearDown();
  printTable();
  log(`${failed ? 'FAILED' : 'passed'} in ${seconds(started).toFixed(0)} s`);
  process.exitCode = failed ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Images

async function buildImages() {
  const base = Date.now();
  const baseImage = (await command(join(root, 'deploy/ci/base-image.sh'), [], { env: podman.env })).trim();
  log(`base image ${baseImage} ready (${seconds(base).toFixed(0)} s)`);
  // What docker-compose.yml builds: each app's build arguments and image name.
  const config = parseYaml(await podman.compose(`${project}-config`, ['docker-compose.yml'], ['config']));
  for (const app of APPS) {
    const service = config.services[app];
    const buildApp = service.build?.args?.APP;
    if (buildApp !== app || !service.image) {
      fail(`docker-compose.yml: service ${app} builds with APP=${buildApp} as ${service.image}`);
    }
    const row = rows.get(app);
    row.image = service.image;
    const since = Date.now();
    log(`building ${service.image} (APP=${app})…`);
    await podman.build(app, service.image);
    row.build = seconds(since);
    row.size = await podman.imageSize(service.image);
  }
}

async function checkImages() {
  for (const app of APPS) {
    const { image } = rows.get(app);
    const [uid, gid, ...files] = (
      await podman.runIn(
        image,
        'id -u; id -g; cd /app && find . -path ./node_modules -prune -o \\( -type f -o -type d \\) -print | sed "s#^\\./##" | sort',
      )
    )
      .trim()
      .split('\n');
    if (uid !== '1000' || gid !== '1000') {
      fail(`${image} runs as ${uid}:${gid}, not 1000:1000`);
    }
    const top = new Set(files.filter((file) => file !== '.' && !file.includes('/')));
    const expected = new Set(['node_modules', 'package.json', 'package-lock.json', '.data', ...BUNDLES[app].map((file) => file.split('/')[0])]);
    const extra = [...top].filter((file) => !expected.has(file));
    const missing = BUNDLES[app].filter((file) => !files.includes(file));
    const unwanted = files.filter((file) => /\.(map|ts)$|spec\.js$/.test(file));
    const others = APPS.filter((other) => other !== app).flatMap((other) => BUNDLES[other].filter((file) => file.startsWith('cli/') && files.includes(file)));
    if (extra.length + missing.length + unwanted.length + others.length > 0) {
      fail(`${image}: /app is not ${app}'s bundle alone: extra ${extra}, missing ${missing}, unwanted ${unwanted}, other apps' ${others}`);
    }
    const packageName = JSON.parse(await podman.runIn(image, 'cat /app/package.json')).name;
    if (packageName !== `@game-wallet/${app}`) {
      fail(`${image}: /app/package.json is ${packageName}`);
    }
  }
  const typescript = await podman.runIn(rows.get('wallet').image, 'test -e /app/node_modules/typescript && echo present || echo absent');
  if (typescript.trim() !== 'absent') {
    fail('the wallet image still carries typescript');
  }
  log('every image runs as 1000:1000 and holds only its own app (and the wallet no typescript)');
}

// ---------------------------------------------------------------------------------------------------------------
// The stack

/** The variables of the compose files: ports, database, key prefix, secrets, the SoftHSM2 token. */
async function smokeEnvironment() {
  const transportKeys = Object.fromEntries(
    (await command(process.execPath, [join(root, 'dist/out-tsc/libs/transport/src/cli/transport-keys.js'), '--prefixed']))
      .split('\n')
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  await queryOnce(POSTGRES_ADMIN_URL, `CREATE DATABASE "${database}"`);
  const databaseUrl = new URL(POSTGRES_ADMIN_URL);
  databaseUrl.pathname = `/${database}`;

  // The token: initialised here (softhsm2-util), its key made by the wallet image's own command, readable by uid 1000.
  const hsmDir = join(runDir, 'hsm');
  const conf = makeSoftHsmFolder(hsmDir);
  const token = { label: `smoke-${id}`, pin: randomBytes(8).toString('hex'), key: 'master-1' };
  await command('softhsm2-util', ['--init-token', '--free', '--label', token.label, '--pin', token.pin, '--so-pin', randomBytes(8).toString('hex')], {
    env: { ...process.env, SOFTHSM2_CONF: conf },
  });
  const libcrypto = /libcrypto\.so\.3 => (\S+)/.exec(await command('ldd', [SOFTHSM_MODULE]))?.[1] ?? fail(`${SOFTHSM_MODULE} does not link libcrypto.so.3`);
  chmodSync(runDir, 0o755);
  for (const path of walk(hsmDir)) {
    chownSync(path, 1000, 1000);
  }
  const ports = {};
  for (const name of ['IDENTITY', 'WALLET', 'WALLET_2', 'CORE_SERVICE', 'BASE', 'CORE', 'GATEWAY_INTERNAL']) {
    ports[`GW_SMOKE_${name}_PORT`] = String(await freePort());
  }
  const env = {
    ...transportKeys,
    ...ports,
    GW_SMOKE_PREFIX: prefix,
    GW_SMOKE_REDIS_URL: REDIS_URL,
    GW_SMOKE_DATABASE_URL: databaseUrl.toString(),
    GW_SMOKE_IDENTITY_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    GW_SMOKE_OPERATOR_EMAIL: TEST_OPERATOR.email,
    GW_SMOKE_OPERATOR_PASSWORD: TEST_OPERATOR.password,
    GW_SMOKE_HSM_DIR: hsmDir,
    GW_SMOKE_HSM_MODULE: SOFTHSM_MODULE,
    GW_SMOKE_HSM_LIBCRYPTO: libcrypto,
    GW_SMOKE_TOKEN_LABEL: token.label,
    GW_SMOKE_TOKEN_PIN: token.pin,
    GW_SMOKE_MASTER_KEY_ID: token.key,
  };
  await podman.podman([
    'run', '--rm', '--network', 'none',
    '-v', `${hsmDir}:${hsmDir}`, '-v', `${SOFTHSM_MODULE}:/opt/hsm/libsofthsm2.so:ro`, '-v', `${libcrypto}:/opt/hsm/libcrypto.so.3:ro`,
    '-e', `SOFTHSM2_CONF=${conf}`, '-e', 'PKCS11_MODULE=/opt/hsm/libsofthsm2.so', '-e', 'LD_LIBRARY_PATH=/opt/hsm',
    '-e', `PKCS11_TOKEN_LABEL=${token.label}`, '-e', `PKCS11_PIN=${token.pin}`,
    rows.get('wallet').image, 'node', 'cli/hsm-create-key.js', '--label', token.key,
  ]); // prettier-ignore
  log(`database ${database}, Redis key prefix ${prefix}, SoftHSM2 token ${token.label} with key ${token.key} (made by the wallet image)`);
  return env;
}

function* walk(path) {
  yield path;
  if (statSync(path).isDirectory()) {
    for (const entry of readdirSync(path)) {
      yield* walk(join(path, entry));
    }
  }
}

async function containerOf(service) {
  if (service === 'gateway') {
    return (await podman.podman(['container', 'inspect', '--format', '{{.Id}}', GATEWAY_CONTAINER])).trim();
  }
  const ids = (await podman.compose(project, COMPOSE_FILES, ['ps', '-q', service], composeEnv)).trim().split('\n').filter(Boolean);
  return ids.length === 1 ? ids[0] : fail(`service ${service}: ${ids.length} containers`);
}

/**
 * The services, then the second wallet (SoftHSM2 keeps its token in files: a process that reads the token folder while
 * another is opening the same token may find no token with that label, so the two wallets open it one after the
 * other; a network HSM has no such limit), then (once they are healthy, as the production file's depends_on says) the
 * gateway.
 */
async function startStack() {
  composeUp = true;
  let since = Date.now();
  const startHealthy = async (services) => {
    since = Date.now();
    await podman.compose(project, COMPOSE_FILES, ['up', '-d', '--no-deps', ...services], composeEnv);
    await Promise.all(
      services.map(async (service) => {
        const container = await containerOf(service);
        const took = await podman.waitHealthy(container, since);
        const row = rows.get(service);
        if (row) {
          row.start = took;
          row.health = 'healthy';
        } else {
          log(`${service} healthy after ${took.toFixed(1)} s`);
        }
      }),
    );
  };
  await startHealthy(['identity', 'wallet', 'core']);
  await startHealthy(['wallet-2']);
  const services = ['identity', 'wallet', 'wallet-2', 'core'];
  since = Date.now();
  // `run`, not `up`: the production file publishes the gateway's ports, which a container on the host's network has no
  // use for and docker-compose refuses beside `network_mode: host`; `run` creates the service as defined without them.
  await podman.compose(project, COMPOSE_FILES, ['run', '-d', '--no-deps', '--name', GATEWAY_CONTAINER, 'gateway'], composeEnv);
  const gateway = rows.get('gateway');
  gateway.start = await podman.waitHealthy(await containerOf('gateway'), since);
  gateway.health = 'healthy';
  for (const service of [...services, 'gateway']) {
    const container = await containerOf(service);
    const [user, pid1] = (await podman.podman(['exec', container, 'sh', '-c', 'id -u; cat /proc/1/comm'])).trim().split('\n');
    if (user !== '1000' || pid1 !== 'tini') {
      fail(`${service}: runs as ${user} with ${pid1} as PID 1 (expected 1000 and tini)`);
    }
  }
  log('the stack is up: identity, wallet ×2, core and gateway healthy, each as uid 1000 under tini');
}

// ---------------------------------------------------------------------------------------------------------------
// End to end

function platform() {
  return { baseUrl: `http://127.0.0.1:${composeEnv.GW_SMOKE_BASE_PORT}`, coreUrl: `http://127.0.0.1:${composeEnv.GW_SMOKE_CORE_PORT}` };
}

async function endToEnd() {
  const target = platform();
  const token = await consoleToken(target);
  const game = await createGame(target, token, 'Deploy smoke');
  const player = await createPlayer(target, game.key, `smoke-${id}`);
  const wallet = await http('GET', `${target.baseUrl}/v1/wallet/${player.walletId}`, { apiKey: game.key });
  if (wallet.status !== 200) {
    fail(`wallet read: ${wallet.status} ${JSON.stringify(wallet.body)}`);
  }
  const { evm, sol, sui } = wallet.body.addresses;
  const message = `deploy smoke ${id}`;
  const bytes = Buffer.from(message);
  const sign = async (chain) => {
    const response = await http('POST', `${target.baseUrl}/v1/wallet/${player.walletId}/sign`, { apiKey: game.key, body: { chain, message } });
    return response.status === 200 ? response.body : fail(`sign ${chain}: ${response.status} ${JSON.stringify(response.body)}`);
  };
  const evmSignature = await sign('evm');
  if (evmSignature.address !== evm || ethers.verifyMessage(bytes, evmSignature.signature) !== evm) {
    fail('the evm signature does not verify (ethers.verifyMessage) to the wallet address');
  }
  const solSignature = await sign('sol');
  if (solSignature.address !== sol || !nacl.sign.detached.verify(bytes, base58.decode(solSignature.signature), new PublicKey(sol).toBytes())) {
    fail('the sol signature does not verify (tweetnacl) with the wallet address');
  }
  const suiSignature = await sign('sui');
  if (suiSignature.address !== sui) {
    fail('the sui signature names another address');
  }
  await verifyPersonalMessageSignature(bytes, suiSignature.signature, { address: sui });
  const [stored] = await queryOnce(composeEnv.GW_SMOKE_DATABASE_URL, 'SELECT master_key_id FROM wallet.wallets WHERE id = $1', [player.walletId]);
  if (stored?.master_key_id !== `pkcs11:${composeEnv.GW_SMOKE_MASTER_KEY_ID}`) {
    fail(`the wallet is under ${stored?.master_key_id}, not the SoftHSM2 key`);
  }
  log('end to end: console sign-in, game and API key, player, wallet read, evm/sol/sui signatures verified by ethers, tweetnacl and @mysten/sui; the wallet key wrapped in the HSM');
  return { target, game, walletId: player.walletId, evm };
}

/** Player creations and signatures from several workers while one wallet replica is stopped (SIGTERM). */
async function walletStopUnderLoad({ target, game, walletId, evm }) {
  const results = { ok: 0, failed: [] };
  const created = [];
  let running = true;
  let sequence = 0;
  const worker = async (index) => {
    while (running) {
      sequence += 1;
      const create = sequence % 2 === 0;
      const uniqueId = `load-${id}-${index}-${sequence}`;
      const response = await (create
        ? http('POST', `${target.coreUrl}/v1/player/create`, { apiKey: game.key, body: { uniqueId } })
        : http('POST', `${target.baseUrl}/v1/wallet/${walletId}/sign`, { apiKey: game.key, body: { chain: 'evm', message: uniqueId } })
      ).catch((error) => ({ status: `network error: ${error.cause?.code ?? error.message}` }));
      if (typeof response.status === 'number' && response.status < 300) {
        results.ok += 1;
        if (create) {
          created.push(response.body);
        } else if (ethers.verifyMessage(uniqueId, response.body.signature) !== evm) {
          results.failed.push(`a signature that does not verify (${uniqueId})`);
        }
      } else {
        results.failed.push(`${create ? 'create' : 'sign'}: ${response.status} ${JSON.stringify(response.body ?? '')}`);
      }
    }
  };
  const workers = Array.from({ length: WORKERS }, (_, index) => worker(index));
  await sleep(LOAD_MS / 3);
  // Both replicas take work before the stop (each message goes to one of them), and the other one after it.
  const handledBefore = await handledBy(composeEnv.GW_SMOKE_WALLET_PORT);
  const otherBefore = await handledBy(composeEnv.GW_SMOKE_WALLET_2_PORT);
  const before = results.ok;
  const stopped = await podman.stop(await containerOf('wallet'));
  const during = results.ok - before;
  await sleep(LOAD_MS / 3);
  running = false;
  await Promise.all(workers);
  const otherAfter = await handledBy(composeEnv.GW_SMOKE_WALLET_2_PORT);
  if (handledBefore === 0 || otherBefore === 0 || otherAfter <= otherBefore) {
    fail(`the load did not reach both wallet replicas (messages handled: wallet ${handledBefore}, wallet-2 ${otherBefore} then ${otherAfter})`);
  }
  // Every player the load was told exists is there, with its wallet readable.
  for (const player of created) {
    const read = await http('GET', `${target.baseUrl}/v1/wallet/${player.walletId}`, { apiKey: game.key });
    if (read.status !== 200) {
      results.failed.push(`player ${player.uniqueId}'s wallet: ${read.status} after the stop`);
    }
  }
  rows.get('wallet').stop = `${stopped.seconds.toFixed(1)} s, exit ${stopped.exitCode}`;
  log(`wallet replicas: ${handledBefore} and ${otherBefore} messages handled before the stop, wallet-2 ${otherAfter} after`);
  log(
    `wallet replica stopped under load in ${stopped.seconds.toFixed(1)} s (exit ${stopped.exitCode}); ${results.ok} requests answered 2xx ` +
      `(${during} while it stopped), ${results.failed.length} failed; ${created.length} players created, all readable`,
  );
  if (stopped.exitCode !== 0 || stopped.seconds >= 10) {
    fail(`the wallet replica exited ${stopped.exitCode} on SIGTERM (137: killed after the grace period)`);
  }
  if (results.failed.length > 0) {
    fail(`requests failed while a wallet replica stopped:\n  ${[...new Set(results.failed)].slice(0, 10).join('\n  ')}`);
  }
}

/** Transport messages a service replica has handled so far (its /metrics, on the host's network). */
async function handledBy(port) {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  const text = await response.text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('transport_messages_handled_total{'))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

/**
 * `podman stop` of every other container, the gateway first (as a rollout drains traffic before its backends): each
 * ends on SIGTERM with exit 0 (137 would be SIGKILL after the grace period), the gateway after its drain
 * (SHUTDOWN_DRAIN_MS, 5 s in production) and the in-flight work every app finishes within 10 s.
 */
async function stopAll() {
  const limits = { gateway: 5 + 10, identity: 10, 'wallet-2': 10, core: 10 };
  const stops = [['gateway', await podman.stop(await containerOf('gateway'))]];
  stops.push(...(await Promise.all(['identity', 'wallet-2', 'core'].map(async (service) => [service, await podman.stop(await containerOf(service))]))));
  const problems = [];
  for (const [service, { seconds: took, exitCode }] of stops) {
    const row = rows.get(service === 'wallet-2' ? 'wallet' : service);
    const text = `${took.toFixed(1)} s, exit ${exitCode}`;
    row.stop = service === 'wallet-2' ? `${row.stop}; ${text}` : text;
    if (exitCode !== 0 || took >= limits[service]) {
      problems.push(`${service}: ${text} (at most ${limits[service]} s, exit 0)`);
    }
  }
  if (problems.length > 0) {
    fail(`not every app stopped cleanly on SIGTERM: ${problems.join(', ')}`);
  }
  log('podman stop: every app ended on SIGTERM with exit 0 within its drain');
}

// ---------------------------------------------------------------------------------------------------------------
// Teardown and report

async function tearDown() {
  if (composeUp) {
    if (failed) {
      for (const service of ['identity', 'wallet', 'wallet-2', 'core', 'gateway']) {
        const container = await containerOf(service).catch(() => undefined);
        if (container) {
          process.stderr.write(`--- ${service} (last lines) ---\n${await podman.logs(container)}\n`);
        }
      }
    }
    await podman.podman(['rm', '--force', '--ignore', GATEWAY_CONTAINER]).catch((error) => {
      failed = true;
      process.stderr.write(`deploy-smoke: teardown: ${error.message}\n`);
    });
    await podman.compose(project, COMPOSE_FILES, ['down', '--volumes', '--remove-orphans', '--timeout', '20'], composeEnv).catch((error) => {
      failed = true;
      process.stderr.write(`deploy-smoke: teardown: ${error.message}\n`);
    });
  }
  await podman.stopService();
  await dropDatabase(database, POSTGRES_ADMIN_URL).catch((error) => process.stderr.write(`deploy-smoke: drop database: ${error.message}\n`));
  await deleteKeys(prefix, REDIS_URL).catch((error) => process.stderr.write(`deploy-smoke: Redis keys: ${error.message}\n`));
  rmSync(runDir, { recursive: true, force: true });
}

function printTable() {
  const header = ['image', 'size', 'build s', 'start s', 'health', 'podman stop'];
  const lines = [...rows.values()].map((row) => [
    row.image || '-',
    row.size ? `${Math.round(row.size / 1e6)} MB` : '-',
    Number.isNaN(row.build) ? '-' : row.build.toFixed(0),
    Number.isNaN(row.start) ? '-' : row.start.toFixed(1),
    row.health,
    row.stop || '-',
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column].length)));
  const format = (cells) => `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
  process.stdout.write(`\n${format(header)}\n| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |\n${lines.map(format).join('\n')}\n\n`);
}

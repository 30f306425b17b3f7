'use strict';
// Helpers shared by the benchmark's server processes (plain JavaScript, so no TypeScript build is needed).
require('reflect-metadata');
const { Logger } = require('@nestjs/common');

// Logs off everywhere, including transport clients created before the Nest application.
Logger.overrideLogger(false);

/** Applies method decorators the way TypeScript's legacy decorators do. */
function decorateMethod(Cls, name, ...decorators) {
  const descriptor = Object.getOwnPropertyDescriptor(Cls.prototype, name);
  const result = Reflect.decorate(decorators, Cls.prototype, name, descriptor);
  Object.defineProperty(Cls.prototype, name, result ?? descriptor);
}

/** Settings passed by the runner through the environment. */
function settings() {
  const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const url = new URL(redisUrl);
  return {
    mode: process.env.BENCH_MODE ?? '',
    redisUrl,
    redisHost: url.hostname,
    redisPort: Number(url.port || 6379),
    keyPrefix: process.env.BENCH_KEY_PREFIX ?? `bench-${process.pid}`,
  };
}

/**
 * Runs `start` (which resolves with `{ port?, close }`), tells the runner it is ready over IPC, and shuts down on
 * SIGTERM/SIGINT or when the runner goes away. Startup failures are printed and end the process with status 1.
 */
function serve(start) {
  let close = async () => undefined;
  let stopping = false;
  const stop = (code) => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(code), 3000).unref();
    close()
      .catch((error) => console.error(`close failed: ${error?.stack ?? error}`))
      .finally(() => process.exit(code));
  };
  process.on('SIGTERM', () => stop(0));
  process.on('SIGINT', () => stop(0));
  process.on('disconnect', () => stop(0));
  process.on('unhandledRejection', (error) => {
    if (stopping) return; // connections torn down while closing may reject; that is not a benchmark failure
    console.error(`unhandled rejection: ${error?.stack ?? error}`);
    stop(1);
  });
  // The runner asks for this process's CPU time around each measurement.
  process.on('message', (message) => {
    if (message?.type === 'cpu') process.send?.({ type: 'cpu', id: message.id, usage: process.cpuUsage() });
  });
  start()
    .then((started) => {
      close = started.close;
      process.send?.({ type: 'ready', port: started.port });
    })
    .catch((error) => {
      console.error(`startup failed: ${error?.stack ?? error}`);
      process.exit(1);
    });
}

/**
 * The transport keys of `app` in a run, its link with `peer` holding the runner's key (BENCH_TRANSPORT_KEY); with
 * BENCH_TRANSPORT_AUTH=none, a link that neither computes nor checks a MAC (same wire format), so `hmac.mjs` measures
 * what authentication alone costs.
 */
function benchKeys({ TransportKeyring, TransportKeys }, app, peer) {
  const keyring = new TransportKeyring(new Map([['bench', Buffer.from(process.env.BENCH_TRANSPORT_KEY, 'base64')]]), 'bench');
  if (process.env.BENCH_TRANSPORT_AUTH === 'none') {
    keyring.sign = () => 'bench.unsigned';
    keyring.verify = () => 'ok';
  }
  return new TransportKeys(app, new Map([[peer, keyring]]));
}

module.exports = { benchKeys, decorateMethod, settings, serve };

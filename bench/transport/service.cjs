'use strict';
// Scenarios B and C, service side: a NestJS microservice answering `core.ping` with a small JSON object.
// BENCH_MODE=ours listens on the Redis Streams transport (dist/out-tsc/libs/transport), BENCH_MODE=builtin on NestJS's
// built-in Redis transport. The handler is the same in both modes.
const { join } = require('node:path');
const { benchKeys, decorateMethod, settings, serve } = require('./common.cjs');
const { Controller, Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { MessagePattern, Transport } = require('@nestjs/microservices');

class PingController {
  ping() {
    return { service: 'core', status: 'ok' };
  }
}
Controller()(PingController);
decorateMethod(PingController, 'ping', MessagePattern('core.ping'));

class ServiceModule {}
Module({ controllers: [PingController] })(ServiceModule);

function transportOptions({ mode, redisUrl, redisHost, redisPort, keyPrefix }) {
  if (mode === 'ours') {
    const transport = require(join(__dirname, '..', '..', 'dist', 'out-tsc', 'libs', 'transport', 'src'));
    return { strategy: new transport.RedisStreamsServer({ service: 'core', redisUrl, keyPrefix, keys: benchKeys(transport, 'core', 'gateway') }) };
  }
  if (mode === 'builtin') {
    return { transport: Transport.REDIS, options: { host: redisHost, port: redisPort } };
  }
  throw new Error(`BENCH_MODE must be "ours" or "builtin", got "${mode}"`);
}

serve(async () => {
  const app = await NestFactory.createMicroservice(ServiceModule, { ...transportOptions(settings()), logger: false });
  await app.listen();
  return { close: () => app.close() };
});

'use strict';
// Scenarios B and C, HTTP side: a NestJS app on Fastify whose `GET /call` asks the `core` service for `core.ping` and
// answers with its reply. BENCH_MODE=ours uses the Redis Streams transport (dist/out-tsc/libs/transport), BENCH_MODE=builtin
// uses NestJS's built-in Redis transport. Everything else is the same in both modes.
const { join } = require('node:path');
const { benchKeys, decorateMethod, settings, serve } = require('./common.cjs');
const { Controller, Get, Module, Req } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { ClientProxyFactory, Transport } = require('@nestjs/microservices');
const { FastifyAdapter } = require('@nestjs/platform-fastify');
const { lastValueFrom } = require('rxjs');

const PATTERN = 'core.ping';

/** Opens the transport client; resolves with the function the route calls and a close function. */
async function openClient({ mode, redisUrl, redisHost, redisPort, keyPrefix }) {
  if (mode === 'ours') {
    const transport = require(join(__dirname, '..', '..', 'dist', 'out-tsc', 'libs', 'transport', 'src'));
    const client = new transport.RedisStreamsClient({ redisUrl, keyPrefix, deadlineMs: 5000, keys: benchKeys(transport, 'gateway', 'core') });
    await client.connect();
    if (!client.isReady) throw new Error(`RedisStreamsClient could not connect to ${redisUrl}`);
    // As the real gateway does: a direct call carrying the HTTP request's id.
    return { call: (request) => client.request(PATTERN, {}, { requestId: request.id }), close: () => client.close() };
  }
  if (mode === 'builtin') {
    const client = ClientProxyFactory.create({ transport: Transport.REDIS, options: { host: redisHost, port: redisPort } });
    await client.connect();
    return { call: () => lastValueFrom(client.send(PATTERN, {})), close: () => client.close() };
  }
  throw new Error(`BENCH_MODE must be "ours" or "builtin", got "${mode}"`);
}

function gatewayModule(call) {
  class CallController {
    call(request) {
      return call(request);
    }
  }
  Controller()(CallController);
  Req()(CallController.prototype, 'call', 0);
  decorateMethod(CallController, 'call', Get('call'));

  class GatewayModule {}
  Module({ controllers: [CallController] })(GatewayModule);
  return GatewayModule;
}

serve(async () => {
  const client = await openClient(settings());
  const app = await NestFactory.create(gatewayModule(client.call), new FastifyAdapter(), { logger: false });
  await app.listen(0, '127.0.0.1');
  return {
    port: app.getHttpServer().address().port,
    close: async () => {
      await app.close();
      await client.close();
    },
  };
});

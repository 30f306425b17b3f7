'use strict';
// A gateway-shaped app with no-op routes, to price the authentication guard: GET /noop/open (@Public) and
// GET /noop/auth (@Authenticated: API key or profile JWT, rate-limited); POST /noop/post (@Public, a JSON body) shows
// what reading a body costs in this stack. Same app, same HTTP conventions (request ids,
// logs, metrics, error filter) as the gateway; the only difference between the routes is the guard's work.
// Env: BENCH_REDIS_URL, BENCH_KEY_PREFIX (the platform's transport prefix), RATE_LIMIT_* as the gateway.
const { join } = require('node:path');
const { decorateMethod, serve } = require('../transport/common.cjs');
const { Controller, Get, HttpCode, Module, Post } = require('@nestjs/common');
const { APP_GUARD } = require('@nestjs/core');

const dist = (lib) => require(join(__dirname, '..', '..', 'dist', 'out-tsc', 'libs', lib, 'src'));
const { AuthGuard, Authenticated, GatewayAuth, Public } = dist('auth');
const { createHttpApp } = dist('http');
const { AppMetrics, createRootLogger } = dist('observability');
const { RedisStreamsClient, TransportKeyring, createFailFastRedis } = dist('transport');
const { transportKeysOf } = dist('config');

serve(async () => {
  const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const keyPrefix = process.env.BENCH_KEY_PREFIX;
  const keyring = TransportKeyring.fromConfig(transportKeysOf(process.env), process.env.DATA_DIR);
  const transport = new RedisStreamsClient({ redisUrl, keyPrefix, keyring });
  await transport.connect();
  const redis = createFailFastRedis(redisUrl, 'bench-noop');
  const auth = new GatewayAuth({
    transport,
    redis,
    redisUrl,
    keyPrefix,
    jwtIssuer: 'game-wallet',
    apiKeyLimit: { rate: Number(process.env.RATE_LIMIT_API_KEY_RPS), burst: Number(process.env.RATE_LIMIT_API_KEY_BURST) },
    profileLimit: { rate: Number(process.env.RATE_LIMIT_JWT_RPS), burst: Number(process.env.RATE_LIMIT_JWT_RPS) },
    authFailuresPerIp: { rate: 50, burst: 50 },
    signingPerWallet: { rate: 10, burst: 10 },
  });
  await auth.start();

  class NoopController {
    open() {
      return { ok: true };
    }
    auth() {
      return { ok: true };
    }
    post() {
      return { ok: true };
    }
  }
  Controller('noop')(NoopController);
  decorateMethod(NoopController, 'open', Get('open'), Public());
  decorateMethod(NoopController, 'auth', Get('auth'), Authenticated({ apiKey: true, profile: true }));
  decorateMethod(NoopController, 'post', Post('post'), HttpCode(200), Public());
  class NoopModule {}
  Module({ controllers: [NoopController], providers: [{ provide: GatewayAuth, useValue: auth }, { provide: APP_GUARD, useClass: AuthGuard }] })(NoopModule);

  const logger = createRootLogger({ service: 'bench-noop', level: 'warn' });
  const app = await createHttpApp(NoopModule, logger, new AppMetrics('bench-noop'));
  app.useLogger(false);
  await app.listen(0, '127.0.0.1');
  return {
    port: app.getHttpServer().address().port,
    close: async () => {
      await app.close();
      await auth.close();
      await transport.close();
      redis.disconnect();
    },
  };
});

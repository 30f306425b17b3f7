'use strict';
// Scenario A: a bare NestJS app on Fastify with a single `GET /hello` route.
const { decorateMethod, serve } = require('./common.cjs');
const { Controller, Get, Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { FastifyAdapter } = require('@nestjs/platform-fastify');

class HelloController {
  hello() {
    return { hello: 'world' };
  }
}
Controller()(HelloController);
decorateMethod(HelloController, 'hello', Get('hello'));

class HelloModule {}
Module({ controllers: [HelloController] })(HelloModule);

serve(async () => {
  const app = await NestFactory.create(HelloModule, new FastifyAdapter(), { logger: false });
  await app.listen(0, '127.0.0.1');
  return { port: app.getHttpServer().address().port, close: () => app.close() };
});

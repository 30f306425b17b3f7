import { Controller, Get, Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppMetrics } from '@game-wallet/observability';
import { AddressInfo, Socket, connect } from 'node:net';
import pino from 'pino';
import { createHttpApp } from './create-http-app';

@Controller()
class SlowController {
  @Get('slow')
  async slow(): Promise<{ done: boolean }> {
    await new Promise((resolve) => setTimeout(resolve, 300));
    return { done: true };
  }
}

@Module({ controllers: [SlowController] })
class SlowModule {}

/** Reads from `socket` until `complete` says the bytes so far hold what the test waits for. */
function readUntil(socket: Socket, complete: (text: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('utf8');
      if (complete(text)) {
        socket.off('data', onData);
        resolve(text);
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.once('close', () => resolve(text));
  });
}

const request = (path: string, requestId: string): string => `GET ${path} HTTP/1.1\r\nhost: test\r\nx-request-id: ${requestId}\r\nconnection: keep-alive\r\n\r\n`;

describe(createHttpApp.name, () => {
  let app: NestFastifyApplication;
  let port: number;

  beforeEach(async () => {
    const metrics = { observeHttp: jest.fn() } as unknown as AppMetrics;
    app = await createHttpApp(SlowModule, pino({ level: 'silent' }), metrics);
    await app.listen(0, '127.0.0.1');
    port = (app.getHttpServer().address() as AddressInfo).port;
  });

  afterEach(async () => {
    await app.close().catch(() => undefined);
  });

  it('answers a request that arrives on an open connection while the app closes with 503 SERVICE_UNAVAILABLE in the SPEC shape', async () => {
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const first = readUntil(socket, (text) => text.includes('{"done":true}'));
    socket.write(request('/slow', 'before-close'));
    // The connection is busy when closing starts, so it is not closed as idle: its next request reaches the app.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closed = app.close();
    expect(await first).toMatch(/^HTTP\/1\.1 200 /);
    const second = readUntil(socket, (text) => /\r\n\r\n\{.*\}$/s.test(text));
    socket.write(request('/slow', 'during-close'));
    const answer = await second;
    socket.destroy();
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 503 /);
    expect(answer).toMatch(/\r\nx-request-id: during-close\r\n/i);
    expect(answer).toMatch(/\r\nretry-after: 1\r\n/i);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ message: expect.any(String), code: 'SERVICE_UNAVAILABLE' });
  });
});

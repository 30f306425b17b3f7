import { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse, createServer, request as forward } from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * A small HTTP server in front of one gateway port. It passes requests through, and on demand answers the next ones
 * with 503 + Retry-After (as the gateway does while a dependency is down) or holds them (a slow platform). It counts
 * every request it receives, so a test can tell a retry from a single call.
 */
export class FrontProxy {
  /** `METHOD path` of every request received, in order. */
  readonly received: string[] = [];
  /** The headers of every request received, in the same order. */
  readonly headers: IncomingHttpHeaders[] = [];
  /** How many of the next requests get 503 SERVICE_UNAVAILABLE with `Retry-After: retryAfterSec`. */
  failNext = 0;
  retryAfterSec = 1;
  /** Holds each request this long before passing it on. */
  delayMs = 0;

  private constructor(
    private readonly server: Server,
    private readonly target: URL,
  ) {}

  static async start(target: string): Promise<FrontProxy> {
    const server = createServer();
    const proxy = new FrontProxy(server, new URL(target));
    server.on('request', (request: IncomingMessage, response: ServerResponse) => proxy.handle(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  reset(): void {
    this.received.length = 0;
    this.headers.length = 0;
    this.failNext = 0;
    this.retryAfterSec = 1;
    this.delayMs = 0;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    this.received.push(`${request.method} ${request.url}`);
    this.headers.push(request.headers);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (this.failNext > 0) {
        this.failNext -= 1;
        response.writeHead(503, { 'content-type': 'application/json', 'retry-after': String(this.retryAfterSec), 'x-request-id': 'front-proxy' });
        response.end(JSON.stringify({ message: 'The platform is restarting', code: 'SERVICE_UNAVAILABLE' }));
        return;
      }
      const pass = () => this.pass(request, Buffer.concat(chunks), response);
      if (this.delayMs > 0) {
        const timer = setTimeout(pass, this.delayMs);
        response.on('close', () => clearTimeout(timer));
      } else {
        pass();
      }
    });
  }

  private pass(request: IncomingMessage, body: Buffer, response: ServerResponse): void {
    if (response.destroyed) {
      return;
    }
    const upstream = forward(
      { host: this.target.hostname, port: this.target.port, method: request.method, path: request.url, headers: { ...request.headers, host: this.target.host } },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    upstream.end(body);
  }
}

import { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse, createServer, request as forward } from 'node:http';
import { AddressInfo } from 'node:net';

/** What the platform answered to a request the proxy passed on. */
export interface UpstreamAnswer {
  status: number;
  /** its `Idempotent-Replayed: true`: the kept answer of an earlier request with the same Idempotency-Key */
  replayed: boolean;
  body: string;
}

/**
 * A small HTTP server in front of one gateway port. It passes requests through, and on demand answers the next ones
 * with 503 + Retry-After (as the gateway does while a dependency is down), holds them (a slow platform), or passes
 * them on and then loses the platform's answer (the connection drops on the way back). It counts every request it
 * receives, so a test can tell a retry from a single call. With `preserveHost` it passes the client's Host on, as a
 * reverse proxy does, so that a request signature over the URL the client used still verifies.
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
  /** How many of the next requests are passed on, answered by the platform, and then cut off from the client. */
  loseNextAnswers = 0;
  /** The platform's answer to every request passed on, lost or not, in order. */
  readonly answers: UpstreamAnswer[] = [];

  private constructor(
    private readonly server: Server,
    private readonly target: URL,
    private readonly preserveHost: boolean,
  ) {}

  static async start(target: string, options: { preserveHost?: boolean } = {}): Promise<FrontProxy> {
    const server = createServer();
    const proxy = new FrontProxy(server, new URL(target), options.preserveHost ?? false);
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
    this.loseNextAnswers = 0;
    this.answers.length = 0;
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
    const lose = this.loseNextAnswers > 0;
    if (lose) {
      this.loseNextAnswers -= 1;
    }
    const host = this.preserveHost ? request.headers.host : this.target.host;
    const upstream = forward({ host: this.target.hostname, port: this.target.port, method: request.method, path: request.url, headers: { ...request.headers, host } }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const body = Buffer.concat(chunks);
        this.answers.push({ status: answer.statusCode ?? 502, replayed: answer.headers['idempotent-replayed'] === 'true', body: body.toString('utf8') });
        if (lose) {
          response.destroy();
          return;
        }
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        response.end(body);
      });
    });
    upstream.on('error', () => response.destroy());
    upstream.end(body);
  }
}

import { Agent as HttpAgent, IncomingMessage, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { BlockedAddressError, HostResolver, guardedLookup, isPublicAddress } from './webhook-address-guard';

/** How a delivery attempt went: `ok` for a 2xx answer; otherwise the status (if any) and why. */
export interface WebhookAttemptResult {
  ok: boolean;
  status: number | null;
  /** the first bytes of the answer, as text (at most {@link RESPONSE_EXCERPT_CHARS} characters) */
  body: string | null;
  error: string | null;
}

export interface WebhookSenderOptions {
  /** the whole attempt, connection to the end of the answer */
  timeoutMs: number;
  /** reading the answer stops here */
  maxResponseBytes: number;
  /** development only: `http` and private addresses allowed */
  allowPrivate: boolean;
  resolve: HostResolver;
}

export const RESPONSE_EXCERPT_CHARS = 256;

/**
 * An endpoint's URL as the audit trail and events show it: without its query string, which may hold a token of the
 * receiver's (`https://hooks.example.com/game?…`).
 */
export function recordedUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}${parsed.search === '' ? '' : '?…'}`;
}

/**
 * POSTs one webhook: the address checked after DNS ({@link guardedLookup}), redirects not followed (a 3xx is a
 * failure), the answer read up to `maxResponseBytes`, all of it within `timeoutMs`. Never throws.
 */
export class WebhookSender {
  private readonly httpAgent: HttpAgent;
  private readonly httpsAgent: HttpsAgent;

  constructor(private readonly options: WebhookSenderOptions) {
    const lookup = guardedLookup(options.resolve, options.allowPrivate);
    this.httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 64, lookup } as never);
    this.httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 64, lookup } as never);
  }

  async post(url: string, headers: Record<string, string>, body: string): Promise<WebhookAttemptResult> {
    const target = new URL(url);
    const refused = this.refusal(target);
    if (refused !== null) {
      return { ok: false, status: null, body: null, error: refused };
    }
    const secure = target.protocol === 'https:';
    return new Promise<WebhookAttemptResult>((resolve) => {
      let settled = false;
      const finish = (result: WebhookAttemptResult): void => {
        if (!settled) {
          settled = true;
          clearTimeout(timer);
          resolve(result);
        }
      };
      const request = (secure ? httpsRequest : httpRequest)(
        target,
        {
          method: 'POST',
          agent: secure ? this.httpsAgent : this.httpAgent,
          headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'game-wallet-webhooks/1' },
        },
        (response) => void this.read(response).then(finish),
      );
      const timer = setTimeout(() => {
        finish({ ok: false, status: null, body: null, error: `no complete answer within ${this.options.timeoutMs} ms` });
        request.destroy();
      }, this.options.timeoutMs);
      request.on('error', (error: NodeJS.ErrnoException) => finish({ ok: false, status: null, body: null, error: describeError(error) }));
      request.end(body);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  /** Why a URL may not be tried at all (checked again at each attempt: settings change). */
  private refusal(target: URL): string | null {
    if (target.protocol !== 'https:' && !(this.options.allowPrivate && target.protocol === 'http:')) {
      return 'only https endpoints are allowed';
    }
    const literal = target.hostname.replace(/^\[|\]$/g, '');
    if (!this.options.allowPrivate && isIP(literal) !== 0 && !isPublicAddress(literal)) {
      return new BlockedAddressError(literal, literal).message;
    }
    return null;
  }

  private read(response: IncomingMessage): Promise<WebhookAttemptResult> {
    const status = response.statusCode ?? 0;
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = (): void => {
        // NUL cannot be stored in PostgreSQL text; the excerpt is for reading, not a faithful copy.
        // eslint-disable-next-line no-control-regex
        const text = Buffer.concat(chunks).toString('utf8').replace(/\u0000/g, '').slice(0, RESPONSE_EXCERPT_CHARS);
        const ok = status >= 200 && status < 300;
        const error = ok ? null : status >= 300 && status < 400 ? `answered ${status}: redirects are not followed` : `answered ${status}`;
        resolve({ ok, status, body: text === '' ? null : text, error });
      };
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= this.options.maxResponseBytes) {
          chunks.push(chunk);
        } else {
          // Enough: the rest is not read, and the connection is not reused.
          response.destroy();
          done();
        }
      });
      response.on('end', done);
      response.on('error', done);
    });
  }
}

function describeError(error: NodeJS.ErrnoException): string {
  if (error instanceof BlockedAddressError) {
    return error.message;
  }
  const reasons: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'host name lookup failed',
    ETIMEDOUT: 'connection timed out',
    EHOSTUNREACH: 'host unreachable',
  };
  return (error.code !== undefined ? reasons[error.code] : undefined) ?? `request failed (${error.code ?? error.message.slice(0, 100)})`;
}

import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';

/** One request the receiver got, with whether each secret it holds verified it (with the `standardwebhooks` package). */
export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  event: { id: string; type: string; timestamp: string; gameId: string; data: Record<string, unknown> };
  /** per secret of {@link WebhookReceiver.secrets} (in order): whether it verified the request, with `standardwebhooks` */
  verifiedBy: boolean[];
  /** the same with `svix`'s verifier (the README shows both) */
  verifiedBySvix: boolean[];
  at: number;
  /** the sender's port of the connection it came on (which process sent it: {@link senderOf}) */
  remotePort: number;
}

/** What the receiver answers a request: a status (and body), after a delay. */
export interface ReceiverAnswer {
  status: number;
  body?: string;
  delayMs?: number;
  headers?: Record<string, string>;
}

/**
 * A game backend's webhook receiver on 127.0.0.1 for tests: it verifies every request with the `standardwebhooks`
 * package against each secret it holds, keeps every request it got, and answers as `answer` says (200 by default).
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  answer: (request: ReceivedWebhook, attempt: number) => ReceiverAnswer = () => ({ status: 200, body: 'ok' });
  secrets: string[] = [];

  private constructor(private readonly server: Server) {}

  static async start(port = 0): Promise<WebhookReceiver> {
    const server = createServer();
    const receiver = new WebhookReceiver(server);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const headers = {
          'webhook-id': String(request.headers['webhook-id'] ?? ''),
          'webhook-timestamp': String(request.headers['webhook-timestamp'] ?? ''),
          'webhook-signature': String(request.headers['webhook-signature'] ?? ''),
        };
        const verifies = (verify: () => unknown): boolean => {
          try {
            verify();
            return true;
          } catch {
            return false;
          }
        };
        const verifiedBy = receiver.secrets.map((secret) => verifies(() => new Webhook(secret).verify(body, headers)));
        const verifiedBySvix = receiver.secrets.map((secret) => verifies(() => new SvixWebhook(secret).verify(body, headers)));
        const received: ReceivedWebhook = {
          id: headers['webhook-id'],
          timestamp: headers['webhook-timestamp'],
          signature: headers['webhook-signature'],
          body,
          event: JSON.parse(body) as ReceivedWebhook['event'],
          verifiedBy,
          verifiedBySvix,
          at: Date.now(),
          remotePort: request.socket.remotePort ?? 0,
        };
        receiver.received.push(received);
        const attempt = receiver.received.filter((other) => other.id === received.id).length;
        const answer = receiver.answer(received, attempt);
        setTimeout(() => {
          if (!response.destroyed) {
            response.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
            response.end(answer.body ?? '');
          }
        }, answer.delayMs ?? 0);
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/hooks'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** The requests for one event, in the order they came. */
  of(eventId: string): ReceivedWebhook[] {
    return this.received.filter((request) => request.id === eventId);
  }

  /** The requests whose event has this type. */
  ofType(type: string): ReceivedWebhook[] {
    return this.received.filter((request) => request.event.type === type);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Which of `processes` (by name) holds the sending end of the connection `request` came on, while that connection is
 * open (Linux: the socket's inode in /proc/net/tcp, among each process's descriptors); undefined when none does.
 */
export function senderOf(request: ReceivedWebhook, receiverPort: number, processes: ReadonlyMap<string, { child: { pid?: number } }>): string | undefined {
  const hex = (port: number): string => `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const row = readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .find((fields) => fields[1]?.endsWith(hex(request.remotePort)) && fields[2]?.endsWith(hex(receiverPort)));
  if (row === undefined) {
    return undefined;
  }
  const socket = `socket:[${row[9]}]`;
  const holds = (pid: number): boolean => {
    try {
      return readdirSync(`/proc/${pid}/fd`).some((fd) => {
        try {
          return readlinkSync(`/proc/${pid}/fd/${fd}`) === socket;
        } catch {
          return false;
        }
      });
    } catch {
      return false;
    }
  };
  return [...processes].find(([, running]) => running.child.pid !== undefined && holds(running.child.pid))?.[0];
}

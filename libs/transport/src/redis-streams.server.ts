import { Logger } from '@nestjs/common';
import { CustomTransportStrategy, MessageHandler, Server } from '@nestjs/microservices';
import { runWithRequestId } from '@game-wallet/observability';
import { AppName, ErrorPayload, internalError, mayCall, toErrorPayload } from '@game-wallet/contracts';
import Redis from 'ioredis';
import { isObservable, lastValueFrom } from 'rxjs';
import { RedisStreamsContext } from './redis-streams.context';
import {
  DEFAULT_KEY_PREFIX,
  ServerIdentity,
  TransportConnectionOptions,
  createFailFastRedis,
  heartbeatKey,
  instanceName,
  streamKey,
} from './transport-options';
import { TickBatcher } from './tick-batcher';
import { ConsumerLiveness } from './consumer-liveness';
import { RejectionLog } from './rejection-log';
import { MAX_REQUESTS_PER_ENTRY, StreamEntry, WireReply, WireRequest, entryParts, parseWireRequests, replyContext, replyMessage, requestContext } from './wire';

export interface ServerOptions extends TransportConnectionOptions {
  /** The service whose stream this server consumes; also the consumer group's name. */
  service: string;
  /** Most stream entries taken per read (each entry holds up to {@link MAX_REQUESTS_PER_ENTRY} requests). */
  batchSize?: number;
  /** Most requests handled at once by this replica; past it, the replica stops reading and others take the work. */
  maxInFlight?: number;
  /** How often this replica says it is alive, and how long that lasts; a replica silent longer is taken for dead. */
  heartbeatMs?: number;
  heartbeatTtlMs?: number;
  /** How often a replica looks for entries left pending by dead replicas. */
  reclaimIntervalMs?: number;
  /** Called once per message taken, for metrics. */
  onHandled?: (pattern: string, outcome: 'ok' | 'error' | 'expired' | 'unknown', seconds: number) => void;
  /** Whether `sender` may ask for `pattern` (default: the contract's table of callers); any other request is dropped. */
  mayCall?: (sender: AppName, pattern: string) => boolean;
}

/** A request taken from the stream, with the app that signed it (its reply goes back to that app). */
interface TakenRequest extends WireRequest {
  sender: AppName;
}


/**
 * The service side of the transport: one Redis stream per service, one consumer group per service, one consumer per
 * replica, so each request is taken by exactly one replica.
 *
 * Delivery is at most once: a batch is acknowledged (and deleted from the stream) as its handlers start, so a
 * replica that dies mid-handler never has that request run again elsewhere. Entries read but not yet acknowledged when
 * a replica dies stay pending; a live replica notices the dead one's heartbeat has lapsed, claims them and runs those
 * still within their deadline. An entry past its deadline is dropped unprocessed: its caller has already answered 504.
 *
 * Redis replicates asynchronously, so after a failover the new primary may hand out again an entry the old one had
 * already given to a replica (the acknowledgement was lost), or one never read before the old primary died. Every
 * request names the server it was written to (`WireRequest.g`) and is run only when read from that same server:
 * whatever a previous primary took in is dropped unprocessed. Its caller was answered when its connection to that
 * primary dropped (504: it may have run before the failover), and a request answered 2xx is never run a second time.
 */
export class RedisStreamsServer extends Server implements CustomTransportStrategy {
  protected override readonly logger = new Logger(RedisStreamsServer.name);
  readonly consumer = instanceName();
  private readonly prefix: string;
  private readonly stream: string;
  private readonly group: string;
  private readonly batchSize: number;
  private readonly maxInFlight: number;
  private readonly heartbeatMs: number;
  private readonly heartbeatTtlMs: number;
  private readonly reclaimIntervalMs: number;
  private commands?: Redis;
  private reader?: Redis;
  /** The servers the reader and the command connection are on (a claimed entry is checked against the latter's). */
  private readerServer?: ServerIdentity;
  private commandsServer?: ServerIdentity;
  private running = false;
  private groupReady = false;
  private inFlight = 0;
  private slotFreed?: () => void;
  private idle?: () => void;
  private readLoop?: Promise<void>;
  private timers: NodeJS.Timeout[] = [];
  private readonly handlers = new Map<string, MessageHandler>();
  private readonly unacknowledged: string[] = [];
  /** Replies, each already encoded, by the app and the channel they go to (`<app>\n<channel>`). */
  private readonly outbox = new TickBatcher<string>(
    (to, replies) => this.publish(to, replies),
    (to, replies, error) => this.warn(`Could not deliver ${replies.length} replies on ${to.slice(to.indexOf('\n') + 1)}: ${String(error)}`),
  );
  private lastWarning = 0;
  private liveness?: ConsumerLiveness;
  private readonly rejections: RejectionLog;
  private readonly mayCall: (sender: AppName, pattern: string) => boolean;

  constructor(private readonly serverOptions: ServerOptions) {
    super();
    this.prefix = serverOptions.keyPrefix ?? DEFAULT_KEY_PREFIX;
    this.stream = streamKey(this.prefix, serverOptions.service);
    this.group = serverOptions.service;
    this.batchSize = serverOptions.batchSize ?? 16;
    this.maxInFlight = serverOptions.maxInFlight ?? 512;
    this.heartbeatMs = serverOptions.heartbeatMs ?? 500;
    this.heartbeatTtlMs = serverOptions.heartbeatTtlMs ?? 2000;
    this.reclaimIntervalMs = serverOptions.reclaimIntervalMs ?? 1000;
    this.rejections = new RejectionLog(this.logger, `entries of ${this.stream}`, serverOptions.onRejected);
    this.mayCall = serverOptions.mayCall ?? mayCall;
  }

  listen(callback: (error?: unknown) => void): void {
    // Replies are batched here (one PUBLISH per gateway per turn), so ioredis need not defer commands again.
    this.commands = createFailFastRedis(this.serverOptions.redisUrl, `server:${this.consumer}`, { enableAutoPipelining: false });
    // The reader blocks in XREADGROUP, so it has no command timeout and its own connection.
    this.reader = createFailFastRedis(this.serverOptions.redisUrl, `server-reader:${this.consumer}`, {
      commandTimeout: undefined,
      enableAutoPipelining: false,
    });
    this.reader.on('close', () => {
      this.groupReady = false;
    });
    this.readerServer = new ServerIdentity(this.reader);
    this.commandsServer = new ServerIdentity(this.commands);
    this.liveness = new ConsumerLiveness({
      redis: this.commands,
      stream: this.stream,
      group: this.group,
      consumer: this.consumer,
      heartbeatKeyOf: (consumer) => heartbeatKey(this.prefix, this.serverOptions.service, consumer),
      heartbeatTtlMs: this.heartbeatTtlMs,
      warn: (message) => this.warn(message),
      onClaimed: (entries) => this.take(entries, this.commandsServer?.id),
    });
    this.running = true;
    this.timers.push(
      setInterval(() => void this.liveness?.heartbeat(), this.heartbeatMs),
      setInterval(() => {
        if (this.running && this.groupReady && this.commandsServer?.id !== undefined) {
          void this.liveness?.reclaim();
        }
      }, this.reclaimIntervalMs),
    );
    this.readLoop = this.read();
    callback();
  }

  /** Redis connection of this server (for health checks). */
  unwrap<T>(): T {
    if (!this.commands) {
      throw new Error('RedisStreamsServer is not listening');
    }
    return this.commands as T;
  }

  on(): void {
    // Connection events are handled inside; nothing to subscribe to from outside.
  }

  /** Stops reading, lets handlers in flight finish (up to `graceMs`), then leaves the group and closes connections. */
  async close(graceMs = 10_000): Promise<void> {
    if (!this.running) {
      return;
    }
    this.running = false;
    this.timers.forEach(clearInterval);
    this.timers = [];
    this.reader?.disconnect();
    await this.readLoop;
    if (this.inFlight > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, graceMs);
        this.idle = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    const commands = this.commands;
    if (commands?.status === 'ready') {
      await commands.del(heartbeatKey(this.prefix, this.serverOptions.service, this.consumer)).catch(() => 0);
      await this.liveness?.deleteConsumerIfIdle(this.consumer);
    }
    await commands?.quit().catch(() => commands.disconnect());
  }

  private async read(): Promise<void> {
    const reader = this.reader as Redis;
    while (this.running) {
      try {
        if (reader.status !== 'ready') {
          await sleep(100);
          continue;
        }
        const server = this.readerServer?.id ?? (await this.readerServer?.learn());
        if (server === undefined) {
          await sleep(100);
          continue;
        }
        if (!this.groupReady) {
          await this.ensureGroup();
          await this.liveness?.heartbeat();
        }
        if (this.inFlight >= this.maxInFlight) {
          await new Promise<void>((resolve) => (this.slotFreed = resolve));
          continue;
        }
        // An entry may hold several requests: read only as many entries as there is room for when they are full.
        const count = Math.max(1, Math.min(this.batchSize, Math.floor((this.maxInFlight - this.inFlight) / MAX_REQUESTS_PER_ENTRY)));
        const result = (await reader.xreadgroup(
          'GROUP', this.group, this.consumer, 'COUNT', count, 'BLOCK', 1000, 'STREAMS', this.stream, '>',
        )) as [string, StreamEntry[]][] | null;
        if (result !== null && result.length > 0) {
          this.take(result[0][1], server);
        }
      } catch (error) {
        if (!this.running) {
          break;
        }
        if (String(error).includes('NOGROUP')) {
          this.groupReady = false;
          continue;
        }
        this.warn(`Reading ${this.stream} failed: ${String(error)}`);
        await sleep(100);
      }
    }
  }

  private async ensureGroup(): Promise<void> {
    try {
      await (this.commands as Redis).xgroup('CREATE', this.stream, this.group, '0', 'MKSTREAM');
    } catch (error) {
      if (!String(error).includes('BUSYGROUP')) {
        throw error;
      }
    }
    this.groupReady = true;
  }

  /**
   * Acknowledges and deletes a batch, then runs what is still within its deadline. The acknowledgement is written
   * before any handler starts but not waited for (a round trip less per batch); ids whose acknowledgement failed are
   * acknowledged again later, and stay this live replica's own meanwhile (only a dead replica's entries are reclaimed).
   */
  private take(entries: StreamEntry[], server: string | undefined): void {
    const live = entries.filter((entry): entry is StreamEntry => entry !== null && Array.isArray(entry[1]));
    if (live.length === 0) {
      return;
    }
    this.acknowledge(live.map(([id]) => id));
    const now = Date.now();
    for (const [id, fields] of live) {
      try {
        this.takeEntry(fields, now, server);
      } catch (error) {
        // A bug while reading one entry drops that entry (its callers get 504), never the others or the process.
        this.logger.error(`Dropped entry ${id} of ${this.stream}: ${String(error)}`);
      }
    }
  }

  private takeEntry(fields: string[], now: number, server: string | undefined): void {
    // An entry not signed with the key of a link to this service is dropped unread, and so is a request its sender may
    // not make: its caller, if any, gets 504 at its deadline.
    const { text, signature } = entryParts(fields);
    const verified = text === undefined ? { check: 'unsigned' as const } : this.serverOptions.keys.verify(requestContext(this.stream), text, signature);
    if (verified.check !== 'ok') {
      this.rejections.rejected(verified.check);
      return;
    }
    const sender = verified.sender;
    const { requests, malformed } = parseWireRequests(text as string);
    if (malformed > 0) {
      this.warn(`Dropped ${malformed} malformed request(s) from ${this.stream}`);
    }
    for (const wire of requests) {
      const request: TakenRequest = { ...wire, sender };
      if (!this.mayCall(sender, request.p)) {
        this.rejections.rejected('refused-sender');
        this.logger.debug(`Dropped ${request.p} from the ${sender}, which may not ask for it (request ${request.q})`);
      } else if (request.t <= now) {
        this.serverOptions.onHandled?.(request.p, 'expired', 0);
        this.logger.debug(`Dropped ${request.p} past its deadline (request ${request.q})`);
      } else if (isFromAnotherServer(request, server)) {
        this.serverOptions.onHandled?.(request.p, 'expired', 0);
        this.warn(`Dropped ${request.p} written to another Redis server than this one (a failover): request ${request.q}`);
      } else {
        this.inFlight += 1;
        void this.run(request)
          .catch((error: unknown) => this.failed(request, error))
          .finally(() => this.release());
      }
    }
  }

  /** XACK and XDEL of a batch leave in one write, as the batch's handlers start. */
  private acknowledge(ids: string[]): void {
    const all = this.unacknowledged.length > 0 ? [...this.unacknowledged.splice(0), ...ids] : ids;
    (this.commands as Redis)
      .pipeline()
      .xack(this.stream, this.group, ...all)
      .xdel(this.stream, ...all)
      .exec()
      .then((results) => {
        if (!results || results[0][0] !== null) {
          throw results?.[0][0] ?? new Error('no reply');
        }
      })
      .catch((error: unknown) => {
        this.unacknowledged.push(...all);
        this.warn(`Could not acknowledge ${all.length} entries of ${this.stream} (will retry): ${String(error)}`);
      });
  }

  /** Nest resolves a handler by parsing the pattern each time; a map keeps that off the per-message path. */
  private handlerFor(pattern: string): MessageHandler | null {
    const cached = this.handlers.get(pattern);
    if (cached !== undefined) {
      return cached;
    }
    const handler = this.getHandlerByPattern(pattern);
    if (handler) {
      this.handlers.set(pattern, handler);
    }
    return handler;
  }

  private release(): void {
    this.inFlight -= 1;
    const freed = this.slotFreed;
    this.slotFreed = undefined;
    freed?.();
    if (this.inFlight === 0) {
      this.idle?.();
    }
  }

  private run(request: TakenRequest): Promise<void> {
    return runWithRequestId(request.q, async () => {
      const started = performance.now();
      const handler = this.handlerFor(request.p);
      if (!handler) {
        this.serverOptions.onHandled?.(request.p, 'unknown', 0);
        this.deliver(request, this.encode(request, { i: request.i, e: { code: 'NOT_FOUND', message: `No handler for ${request.p}`, status: 404 } }).text);
        return;
      }
      let reply: WireReply;
      try {
        const result: unknown = await handler(request.d, new RedisStreamsContext([request.p, request.q, request.t]));
        const value: unknown = isObservable(result) ? await lastValueFrom(result, { defaultValue: undefined }) : result;
        reply = { i: request.i, d: value };
      } catch (error) {
        reply = { i: request.i, e: toErrorPayload(error, (line) => this.logger.error(line)) satisfies ErrorPayload };
      }
      const encoded = this.encode(request, reply);
      const seconds = (performance.now() - started) / 1000;
      this.serverOptions.onHandled?.(request.p, encoded.reply.e ? 'error' : 'ok', seconds);
      this.logHandled(request, encoded.reply, seconds);
      this.deliver(request, encoded.text);
    });
  }

  /**
   * A reply encoded alone: one that cannot be (a BigInt, a value nested deeper than the stack) becomes a 500 for its
   * caller, logged with its request id, and the other replies of its batch still go.
   */
  private encode(request: WireRequest, reply: WireReply): { reply: WireReply; text: string } {
    try {
      return { reply, text: JSON.stringify(reply) };
    } catch (error) {
      this.logger.error(`Could not encode the answer to ${request.p} (request ${request.q}): ${String(error)}`);
      const failure: WireReply = { i: request.i, e: internalError().toPayload() };
      return { reply: failure, text: JSON.stringify(failure) };
    }
  }

  /** A bug outside the handler (a metrics or log hook): the caller still gets its 500, and the replica goes on. */
  private failed(request: TakenRequest, error: unknown): void {
    runWithRequestId(request.q, () => this.logger.error(`Could not answer ${request.p} (request ${request.q}): ${String(error)}`));
    this.deliver(request, JSON.stringify({ i: request.i, e: internalError().toPayload() }));
  }

  /** One line per message, with its request id (from the context); pings only at debug, as probes repeat them. */
  private logHandled(request: WireRequest, reply: WireReply, seconds: number): void {
    const line = `${request.p} ${reply.e ? `failed: ${reply.e.code}` : 'ok'} in ${(seconds * 1000).toFixed(1)} ms`;
    if (request.p.endsWith('.ping')) {
      this.logger.debug(line);
    } else {
      this.logger.log(line);
    }
  }

  private deliver(request: TakenRequest, text: string): void {
    if (request.t <= Date.now()) {
      return; // the caller has given up; nobody listens for this reply any more
    }
    this.outbox.add(`${request.sender}\n${request.r}`, text);
  }

  /** One PUBLISH of the replies (already encoded) as a JSON array, signed for the channel with the key of the link with the asking app. */
  private publish(to: string, replies: string[]): void {
    const newline = to.indexOf('\n');
    const channel = to.slice(newline + 1);
    const text = `[${replies.join(',')}]`;
    const message = replyMessage(this.serverOptions.keys.sign(to.slice(0, newline) as AppName, replyContext(channel), text), text);
    (this.commands as Redis).publish(channel, message).catch((error: unknown) => {
      this.warn(`Could not deliver ${replies.length} replies on ${channel}: ${String(error)}`);
    });
  }

  private warn(message: string): void {
    const now = Date.now();
    if (now - this.lastWarning > 5000) {
      this.lastWarning = now;
      this.logger.warn(message);
    }
  }
}

/**
 * Whether a request was written to another Redis server than the one it was read from (see the class comment). A
 * request that names no server (a client that could not tell), or read where the server does not say (''), is run;
 * one read where the server is not known yet (undefined) is not.
 */
export function isFromAnotherServer(request: WireRequest, server: string | undefined): boolean {
  return request.g !== undefined && request.g !== '' && server !== '' && request.g !== server;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

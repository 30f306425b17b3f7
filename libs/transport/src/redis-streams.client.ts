import { Logger } from '@nestjs/common';
import { ClientProxy, ReadPacket, WritePacket } from '@nestjs/microservices';
import {
  AppError,
  ErrorPayload,
  MessageEnvelope,
  Pattern,
  RequestOf,
  ResponseOf,
  ServiceName,
  gatewayTimeout,
  internalError,
  isErrorPayload,
  serviceOfPattern,
  serviceUnavailable,
} from '@game-wallet/contracts';
import { currentRequestId, runWithRequestId } from '@game-wallet/observability';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import {
  DEFAULT_DEADLINE_MS,
  DEFAULT_KEY_PREFIX,
  DEFAULT_MAX_STREAM_LENGTH,
  TransportConnectionOptions,
  ServerIdentity,
  createFailFastRedis,
  instanceName,
  replyChannel,
  streamKey,
  waitUntilReady,
} from './transport-options';
import { TickBatcher } from './tick-batcher';
import { RejectionLog } from './rejection-log';
import { MAX_REQUESTS_PER_ENTRY, REQUEST_FIELD, SIGNATURE_FIELD, WireReply, WireRequest, replyContext, replyParts, requestContext } from './wire';

/** The calling app (`keys.app`) names its reply channels, so a Redis ACL can give each app only its own. */
export interface ClientOptions extends TransportConnectionOptions {
  /** Default deadline of a request, in ms (SPEC §8: 5 s). */
  deadlineMs?: number;
  maxStreamLength?: number;
  /** Called with the round trip of each request, for metrics. */
  onSettled?: (pattern: string, outcome: 'ok' | 'error' | 'timeout' | 'unavailable', seconds: number) => void;
}

export interface CallOptions {
  requestId?: string;
  /** Deadline of this request in ms from now. */
  timeoutMs?: number;
}

/** A request as it waits for its batch: its correlation id, its request id (for logs) and its encoded text. */
interface OutgoingRequest {
  id: string;
  requestId: string;
  text: string;
}

interface PendingCall {
  pattern: string;
  /** the service asked: only its replies are taken */
  service: ServiceName;
  started: number;
  timer: NodeJS.Timeout;
  resolve: (value: unknown) => void;
  reject: (error: AppError) => void;
  /** true once Redis took the request in (its XADD answered): from then on it may run */
  sent?: boolean;
}

/**
 * The caller's side of the Redis Streams transport. The requests for one service made in one turn of the event loop
 * go as one XADD to that service's stream; replies come on this instance's own pub/sub channel, so only the asking
 * instance sees them. While Redis is unreachable every call fails
 * at once (or within the 1 s command timeout) with 503; past its deadline a call fails with 504.
 */
export class RedisStreamsClient extends ClientProxy {
  private readonly logger = new Logger(RedisStreamsClient.name);
  private readonly prefix: string;
  private readonly deadlineMs: number;
  private readonly maxStreamLength: number;
  private readonly clientId: string;
  private readonly channel: string;
  private readonly pending = new Map<string, PendingCall>();
  private sequence = 0;
  private commands?: Redis;
  private subscriber?: Redis;
  /** The server `commands` is on: each request names it (see `WireRequest.g`). */
  private server?: ServerIdentity;
  private connecting?: Promise<void>;
  private readonly rejections: RejectionLog;
  /** Requests by service. */
  private readonly outbox = new TickBatcher<OutgoingRequest>(
    (service, requests) => this.sendBatch(service as ServiceName, requests),
    (service, requests, error) => this.failBatch(service, requests, error),
    MAX_REQUESTS_PER_ENTRY,
  );

  constructor(private readonly clientOptions: ClientOptions) {
    super();
    this.prefix = clientOptions.keyPrefix ?? DEFAULT_KEY_PREFIX;
    this.clientId = `${clientOptions.keys.app}-${instanceName()}`;
    this.deadlineMs = clientOptions.deadlineMs ?? DEFAULT_DEADLINE_MS;
    this.maxStreamLength = clientOptions.maxStreamLength ?? DEFAULT_MAX_STREAM_LENGTH;
    this.channel = replyChannel(this.prefix, this.clientId);
    this.rejections = new RejectionLog(this.logger, `replies on ${this.channel}`, clientOptions.onRejected);
  }

  /** Opens the connections; resolves when Redis answered or after 1 s (the client then keeps reconnecting). */
  connect(): Promise<void> {
    this.connecting ??= this.open();
    return this.connecting;
  }

  private async open(): Promise<void> {
    // Requests are batched here (one XADD per service per turn), so ioredis need not defer commands again.
    const commands = createFailFastRedis(this.clientOptions.redisUrl, `client:${this.clientId}`, { enableAutoPipelining: false });
    // The subscriber keeps its subscription across reconnects (ioredis re-subscribes on reconnect).
    const subscriber = createFailFastRedis(this.clientOptions.redisUrl, `client-replies:${this.clientId}`, {
      enableOfflineQueue: true,
      enableAutoPipelining: false,
      commandTimeout: undefined,
    });
    subscriber.on('message', (_channel: string, message: string) => this.onReply(message));
    // A call whose request Redis had taken in when the connection drops may have been run (by a replica that took it
    // before), so its caller is told 504, "may or may not have run", never 503, which promises nothing happened. A
    // call whose request was not taken in yet is settled by its own XADD: 503 when that fails.
    subscriber.on('close', () => this.failSent(gatewayTimeout('Lost the connection to Redis while waiting for the answer')));
    this.server = new ServerIdentity(commands);
    this.commands = commands;
    this.subscriber = subscriber;
    subscriber.subscribe(this.channel).catch((error: unknown) => {
      this.logger.warn(`Reply subscription failed, retrying on reconnect: ${String(error)}`);
    });
    await Promise.all([waitUntilReady(commands, 1000).then(() => this.server?.learn()), waitUntilReady(subscriber, 1000)]);
  }

  /** True while both connections are up and the server `commands` is on is known. */
  get isReady(): boolean {
    return this.commands?.status === 'ready' && this.subscriber?.status === 'ready' && this.server?.id !== undefined;
  }

  /** The Redis connection of this client, for health checks. */
  unwrap<T>(): T {
    if (!this.commands) {
      throw new Error('RedisStreamsClient is not connected');
    }
    return this.commands as T;
  }

  /** Sends a typed request and resolves with the service's answer, or rejects with an {@link AppError}. */
  call<P extends Pattern>(
    pattern: P,
    envelope: MessageEnvelope<RequestOf<P>>,
    options: CallOptions = {},
  ): Promise<ResponseOf<P>> {
    return this.request(pattern, envelope, options) as Promise<ResponseOf<P>>;
  }

  /** Sends a request on `pattern` (which names its service) and waits for its reply. */
  request(pattern: string, data: unknown, options: CallOptions = {}): Promise<unknown> {
    const service = serviceOfPattern(pattern);
    if (service === undefined) {
      return Promise.reject(new AppError('INTERNAL_ERROR', `Unknown message pattern ${pattern}`));
    }
    if (!this.clientOptions.keys.has(service)) {
      this.logger.error(`The ${this.clientOptions.keys.app} holds no transport key for the ${service}: ${pattern} cannot be sent`);
      return Promise.reject(internalError());
    }
    const commands = this.commands;
    if (!commands || !this.isReady) {
      void this.server?.learn();
      this.clientOptions.onSettled?.(pattern, 'unavailable', 0);
      return Promise.reject(serviceUnavailable('The service transport (Redis) is unavailable'));
    }
    const timeoutMs = options.timeoutMs ?? this.deadlineMs;
    const id = (++this.sequence).toString(36);
    const started = performance.now();
    const wire: WireRequest = {
      i: id,
      p: pattern,
      r: this.channel,
      t: Date.now() + timeoutMs,
      q: options.requestId ?? currentRequestId() ?? randomUUID(),
      d: data,
      ...(this.server?.id ? { g: this.server.id } : {}),
    };
    // Encoded here, one request at a time: data that cannot be encoded (a BigInt, a value nested deeper than the
    // stack) fails its own call, as a bug, and never the batch it would have joined.
    let text: string;
    try {
      text = JSON.stringify(wire);
    } catch (error) {
      runWithRequestId(wire.q, () => this.logger.error(`Could not encode a ${pattern} request (request ${wire.q}): ${String(error)}`));
      this.clientOptions.onSettled?.(pattern, 'error', 0);
      return Promise.reject(internalError());
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.settle(id, gatewayTimeout(), 'timeout'), timeoutMs);
      this.pending.set(id, { pattern, service, started, timer, resolve, reject });
      this.outbox.add(service, { id, requestId: wire.q, text });
    });
  }

  /** One XADD of the requests (already encoded) as a JSON array, signed for the service's stream with the key of the link with it. */
  private sendBatch(service: ServiceName, requests: OutgoingRequest[]): void {
    const commands = this.commands;
    const fail = (): void => {
      for (const request of requests) {
        this.settle(request.id, serviceUnavailable('The service transport (Redis) is unavailable'), 'unavailable');
      }
    };
    if (!commands) {
      fail();
      return;
    }
    const stream = streamKey(this.prefix, service);
    const text = `[${requests.map((request) => request.text).join(',')}]`;
    const signature = this.clientOptions.keys.sign(service, requestContext(stream), text);
    commands.xadd(stream, 'MAXLEN', '~', this.maxStreamLength, '*', REQUEST_FIELD, text, SIGNATURE_FIELD, signature).then(() => {
      for (const request of requests) {
        const call = this.pending.get(request.id);
        if (call) {
          call.sent = true;
        }
      }
    }, fail);
  }

  /** A batch that could not be sent for a reason of ours (not Redis): its calls fail as bugs, each logged with its request id. */
  private failBatch(service: string, requests: OutgoingRequest[], error: unknown): void {
    for (const request of requests) {
      runWithRequestId(request.requestId, () => this.logger.error(`Could not send a request to the ${service} (request ${request.requestId}): ${String(error)}`));
      this.settle(request.id, internalError(), 'error');
    }
  }

  /**
   * A reply counts only when signed for this client's channel by the service the call went to: a forged one, or one
   * another app signed, is dropped, and its call times out. A message that cannot be handled is dropped and logged,
   * never thrown into the connection.
   */
  private onReply(message: string): void {
    try {
      this.takeReplies(message);
    } catch (error) {
      this.logger.error(`Could not handle a reply on ${this.channel}: ${String(error)}`);
    }
  }

  private takeReplies(message: string): void {
    const { text, signature } = replyParts(message);
    const verified = this.clientOptions.keys.verify(replyContext(this.channel), text, signature);
    if (verified.check !== 'ok') {
      this.rejections.rejected(verified.check);
      return;
    }
    let replies: WireReply[];
    try {
      const parsed = JSON.parse(text) as WireReply | WireReply[];
      replies = Array.isArray(parsed) ? parsed : [parsed];
    } catch {
      return;
    }
    for (const reply of replies) {
      const call = this.pending.get(reply.i);
      if (call === undefined) {
        continue; // answered already, or given up
      }
      if (call.service !== verified.sender) {
        this.rejections.rejected('refused-sender');
        continue;
      }
      if (reply.e !== undefined) {
        const payload: ErrorPayload = isErrorPayload(reply.e)
          ? reply.e
          : { code: 'INTERNAL_ERROR', message: 'Internal server error', status: 500 };
        this.settle(reply.i, AppError.fromPayload(payload), 'error');
      } else {
        this.settle(reply.i, reply.d, 'ok');
      }
    }
  }

  private settle(id: string, outcome: unknown, kind: 'ok' | 'error' | 'timeout' | 'unavailable'): void {
    const call = this.pending.get(id);
    if (!call) {
      return;
    }
    this.pending.delete(id);
    clearTimeout(call.timer);
    this.clientOptions.onSettled?.(call.pattern, kind, (performance.now() - call.started) / 1000);
    if (kind === 'ok') {
      call.resolve(outcome);
    } else {
      call.reject(outcome as AppError);
    }
  }

  /** Fails the calls whose requests Redis had taken in (the others are settled by their own XADD). */
  private failSent(error: AppError): void {
    for (const [id, call] of [...this.pending]) {
      if (call.sent) {
        this.settle(id, error, 'unavailable');
      }
    }
  }

  private failAll(error: AppError): void {
    for (const id of [...this.pending.keys()]) {
      this.settle(id, error, 'unavailable');
    }
  }

  async close(): Promise<void> {
    this.failAll(serviceUnavailable('The transport client is closing'));
    const connections = [this.commands, this.subscriber];
    this.commands = undefined;
    this.subscriber = undefined;
    this.connecting = undefined;
    await Promise.all(
      connections.map(async (redis) => {
        await redis?.quit().catch(() => redis.disconnect());
      }),
    );
  }

  /** Nest's `ClientProxy.send()` path: the packet's data is the message envelope. */
  protected publish(packet: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    this.request(packet.pattern as string, packet.data).then(
      (response) => callback({ response, isDisposed: true }),
      (err: unknown) => callback({ err: err instanceof AppError ? err.toPayload() : err, isDisposed: true }),
    );
    return () => undefined;
  }

  /** Events are not part of the v1 transport: every message is a request with a reply. */
  protected dispatchEvent<T = unknown>(packet: ReadPacket): Promise<T> {
    return this.request(packet.pattern as string, packet.data) as Promise<T>;
  }
}

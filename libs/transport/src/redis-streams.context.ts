import { BaseRpcContext } from '@nestjs/microservices';

type ContextArgs = [pattern: string, requestId: string, deadline: number];

/** Handler context (`@Ctx()`): the pattern, the request id and the deadline (epoch ms) of the message. */
export class RedisStreamsContext extends BaseRpcContext<ContextArgs> {
  getPattern(): string {
    return this.args[0];
  }

  getRequestId(): string {
    return this.args[1];
  }

  getDeadline(): number {
    return this.args[2];
  }
}

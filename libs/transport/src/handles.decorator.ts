import { MessagePattern } from '@nestjs/microservices';
import { MessageEnvelope, Pattern, RequestOf, ResponseOf } from '@game-wallet/contracts';

/** What a service handler of pattern `P` takes first (the rest: `@Ctx()` and the like). */
export type EnvelopeOf<P extends Pattern> = MessageEnvelope<RequestOf<P>>;

type HandlerOf<P extends Pattern> = (envelope: EnvelopeOf<P>, ...rest: never[]) => ResponseOf<P> | Promise<ResponseOf<P>>;

/**
 * `@MessagePattern` with the wire contract's types: the decorated method must take the pattern's envelope and answer
 * its response type (`patterns.ts`), so a handler that drifts from its pattern does not compile.
 */
export function Handles<P extends Pattern>(pattern: P) {
  return <H extends HandlerOf<P>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<H>): void => {
    MessagePattern(pattern)(target, key, descriptor);
  };
}

import { ServiceName } from './services';

/**
 * Every message pattern on the transport, by service. A pattern is `<service>.<action>`, so the stream a request goes to
 * follows from its pattern. Request and response types are declared in {@link PatternContract}.
 */
export const PATTERNS = {
  identity: {
    ping: 'identity.ping',
  },
  wallet: {
    ping: 'wallet.ping',
  },
  core: {
    ping: 'core.ping',
  },
} as const satisfies Record<ServiceName, Record<string, string>>;

type ValuesOf<T> = T[keyof T];
export type Pattern = ValuesOf<{ [S in ServiceName]: ValuesOf<(typeof PATTERNS)[S]> }>;

/** Answer of every service's `ping`. */
export interface PingResponse {
  service: ServiceName;
  status: 'ok';
}

/** Request and response type of each pattern. */
export interface PatternContract {
  'identity.ping': { request: Record<string, never>; response: PingResponse };
  'wallet.ping': { request: Record<string, never>; response: PingResponse };
  'core.ping': { request: Record<string, never>; response: PingResponse };
}

export type RequestOf<P extends Pattern> = PatternContract[P]['request'];
export type ResponseOf<P extends Pattern> = PatternContract[P]['response'];

export function serviceOfPattern(pattern: string): ServiceName | undefined {
  const service = pattern.slice(0, pattern.indexOf('.'));
  return service === 'identity' || service === 'wallet' || service === 'core' ? service : undefined;
}

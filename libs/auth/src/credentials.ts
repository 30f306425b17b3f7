import type { FastifyRequest } from 'fastify';
import type { SignedMessage } from './request-signature';

export const CONSOLE_COOKIE = 'console_session';

export interface PresentedCredentials {
  apiKey?: string;
  /** the token of `Authorization: Bearer <token>`; `''` when the header is there but not a bearer token */
  bearer?: string;
  consoleCookie?: string;
  /** the connection the request came on: a client that sends the same key again on it is not hashed again */
  connection?: object;
  /** what a request signature covers, read only when the key requires one */
  message?: () => SignedMessage;
}

const BEARER = /^bearer\s+(\S+)\s*$/i;

/** What the request presents. Header names are case-insensitive (Node lowercases them); so is the scheme word. */
export function presentedCredentials(request: FastifyRequest): PresentedCredentials {
  const apiKey = request.headers['x-api-key'];
  const authorization = request.headers.authorization;
  const cookies = (request as FastifyRequest & { cookies?: Record<string, string | undefined> }).cookies;
  return {
    apiKey: typeof apiKey === 'string' ? apiKey : Array.isArray(apiKey) ? apiKey[0] : undefined,
    bearer: typeof authorization === 'string' ? (BEARER.exec(authorization)?.[1] ?? '') : undefined,
    consoleCookie: cookies?.[CONSOLE_COOKIE],
    connection: request.raw.socket,
    message: () => ({
      method: request.method,
      // As the client addressed it: the scheme and host trusted proxies forwarded (TRUST_PROXY), else the connection's.
      targetUri: `${request.protocol}://${request.host}${request.url}`,
      headers: request.headers,
      body: request.rawBody,
    }),
  };
}

import { AppError, WebAuthnOrigin } from '@game-wallet/contracts';
import type { FastifyRequest } from 'fastify';
import { GatewayConfig } from '../config';
import { publicEndpoints } from './console-endpoints.controller';

/**
 * Where the console's passkey ceremonies happen: the origin of `PUBLIC_BASE_URL` when set (production), else the
 * address the console was opened at; the relying-party id is that origin's host name. Identity checks each passkey
 * response against it, so a passkey made for this console answers nowhere else.
 */
export function webAuthnOrigin(config: GatewayConfig, request: FastifyRequest): WebAuthnOrigin {
  let url: URL;
  try {
    url = new URL(publicEndpoints(config, request).baseUrl);
  } catch {
    // Only a request's own `Host` can make it unreadable (PUBLIC_BASE_URL is checked at start): `[::1]:99999`.
    throw new AppError('BAD_REQUEST', 'The Host header is not an address this console can be served at');
  }
  return { origin: url.origin, rpId: url.hostname };
}

/** The client's `User-Agent`, cut to what a session keeps (256 characters), for the sessions list. */
export function userAgentOf(request: FastifyRequest): string | undefined {
  const value = request.headers['user-agent'];
  return typeof value === 'string' && value !== '' ? value.slice(0, 256) : undefined;
}

import { AppError } from '@game-wallet/contracts';
import type { FastifyRequest } from 'fastify';
import { GatewayConfig } from '../config';
import { webAuthnOrigin } from './webauthn-origin';

describe(webAuthnOrigin.name, () => {
  const config = (base?: string) => ({ corePort: 3001, publicUrls: { base } }) as GatewayConfig;
  const request = (host: string) => ({ protocol: 'http', host, hostname: host.replace(/:\d+$/, '') }) as FastifyRequest;

  it('is the origin of PUBLIC_BASE_URL when set, its host name the relying party', () => {
    expect(webAuthnOrigin(config('https://wallet.example.com'), request('evil.example'))).toEqual({ origin: 'https://wallet.example.com', rpId: 'wallet.example.com' });
  });

  it('is the address the console was opened at otherwise', () => {
    expect(webAuthnOrigin(config(), request('localhost:3000'))).toEqual({ origin: 'http://localhost:3000', rpId: 'localhost' });
  });

  it('refuses a Host that is no address with 400 BAD_REQUEST, not a 500', () => {
    expect(() => webAuthnOrigin(config(), request('[::1]:99999'))).toThrow(AppError);
    try {
      webAuthnOrigin(config(), request('[::1]:99999'));
    } catch (error) {
      expect((error as AppError).code).toBe('BAD_REQUEST');
    }
  });
});

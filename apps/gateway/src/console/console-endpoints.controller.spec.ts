import type { FastifyRequest } from 'fastify';
import { GatewayConfig } from '../config';
import { publicEndpoints } from './console-endpoints.controller';

describe(publicEndpoints.name, () => {
  const request = { protocol: 'https', host: 'wallet.example.com:8443', hostname: 'wallet.example.com' } as FastifyRequest;
  const config = (publicUrls: GatewayConfig['publicUrls']) => ({ corePort: 3001, publicUrls }) as GatewayConfig;

  it('follows the address the console was opened at, with core_url on the same host and the core port', () => {
    expect(publicEndpoints(config({}), request)).toEqual({ baseUrl: 'https://wallet.example.com:8443', coreUrl: 'https://wallet.example.com:3001' });
  });

  it('uses PUBLIC_BASE_URL and PUBLIC_CORE_URL when they are set (a load balancer with a host per origin)', () => {
    expect(publicEndpoints(config({ base: 'https://api.example.com', core: 'https://core.example.com' }), request)).toEqual({
      baseUrl: 'https://api.example.com',
      coreUrl: 'https://core.example.com',
    });
  });
});

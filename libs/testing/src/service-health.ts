import { PATTERNS, ServiceName } from '@game-wallet/contracts';
import { TestPlatform } from './platform';

/**
 * The health e2e every internal service has: its own `/v1/health` (database, redis), `/v1/health/live`, `/metrics`,
 * and its `ping` over the transport.
 */
export function describeServiceHealth(service: ServiceName): void {
  describe(`${service} service health (real Postgres and Redis)`, () => {
    let platform: TestPlatform;

    beforeAll(async () => {
      platform = await TestPlatform.start(`${service}health`, { apps: [service] });
    });

    afterAll(async () => {
      await platform.stop();
    });

    it('answers /v1/health on its internal port with database and redis up (and the HSM, for a wallet that uses one)', async () => {
      const response = await fetch(`${platform.internalUrl(service)}/v1/health`);
      expect(response.status).toBe(200);
      const up = { database: { status: 'up' }, redis: { status: 'up' }, ...(service === 'wallet' && platform.hsm ? { hsm: { status: 'up' } } : {}) };
      expect(await response.json()).toEqual({ status: 'ok', info: up, error: {}, details: up });
    });

    it('answers /v1/health/live with 200', async () => {
      const response = await fetch(`${platform.internalUrl(service)}/v1/health/live`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok' });
    });

    it('answers its ping over the transport', async () => {
      const client = await platform.transportClient();
      try {
        await expect(client.call(PATTERNS[service].ping, { payload: {}, principal: { kind: 'system' } })).resolves.toEqual({
          service,
          status: 'ok',
        });
      } finally {
        await client.close();
      }
    });

    it('serves Prometheus metrics with transport and pool series', async () => {
      const response = await fetch(`${platform.internalUrl(service)}/metrics`);
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).toContain(`service="${service}"`);
      expect(text).toContain('transport_messages_handled_total');
      expect(text).toContain('db_pool_connections_total');
    });

    it('stops on SIGTERM with exit code 0', async () => {
      await expect(platform.process(service).stop('SIGTERM')).resolves.toBe(0);
    });
  });
}

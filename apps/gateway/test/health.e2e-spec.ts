import { TestPlatform, freePort, waitFor } from '@game-wallet/testing';

describe('gateway health (all four apps, real Postgres and Redis)', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await TestPlatform.start('gwhealth', { env: { LOG_LEVEL: 'debug' } });
  });

  afterAll(async () => {
    await platform.stop();
  });

  it('answers 200 with the Terminus report of database and redis when both are up', async () => {
    const response = await fetch(`${platform.baseUrl}/v1/health`);
    expect(response.status).toBe(200);
    const up = { database: { status: 'up' }, redis: { status: 'up' }, serving: { status: 'up' } };
    expect(await response.json()).toEqual({ status: 'ok', info: up, error: {}, details: up });
  });

  it('turns readiness 503 on SIGTERM while it still serves, with Connection: close, then exits 0', async () => {
    const ports = { BASE_PORT: String(await freePort()), CORE_PORT: String(await freePort()), GATEWAY_INTERNAL_PORT: String(await freePort()) };
    const draining = await platform.startApp('gateway', 'gateway-draining', { ...ports, SHUTDOWN_DRAIN_MS: '1500' });
    const base = `http://127.0.0.1:${ports.BASE_PORT}`;
    draining.child.kill('SIGTERM');
    await waitFor(async () => (await fetch(`${base}/v1/health`)).status === 503, 1000, 'readiness to turn 503');
    const health = await fetch(`${base}/v1/health`);
    expect(((await health.json()) as { error: Record<string, unknown> }).error).toEqual({ serving: { status: 'down', message: 'shutting down' } });
    const served = await fetch(`${base}/v1/.well-known/jwks.json`);
    expect(served.status).toBe(200);
    expect(served.headers.get('connection')).toBe('close');
    expect(await draining.waitForExit()).toBe(0);
  });

  it('answers liveness with 200 {status: ok}', async () => {
    const response = await fetch(`${platform.baseUrl}/v1/health/live`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('reports identity, wallet and core up through a transport ping', async () => {
    const response = await fetch(`${platform.baseUrl}/v1/health/services`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ok',
      info: { identity: { status: 'up' }, wallet: { status: 'up' }, core: { status: 'up' } },
      error: {},
      details: { identity: { status: 'up' }, wallet: { status: 'up' }, core: { status: 'up' } },
    });
  });

  it('serves health on base_url only: core_url answers 404 NOT_FOUND', async () => {
    const response = await fetch(`${platform.coreUrl}/v1/health`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'Route GET /v1/health not found', code: 'NOT_FOUND' });
  });

  it('carries the x-request-id through the transport into the service logs', async () => {
    const requestId = `trace-${Date.now()}`;
    const response = await fetch(`${platform.baseUrl}/v1/health/services`, { headers: { 'x-request-id': requestId } });
    expect(response.headers.get('x-request-id')).toBe(requestId);
    for (const service of ['identity', 'wallet', 'core']) {
      const lines = () => platform.process(service).jsonLines().filter((line) => line.requestId === requestId);
      await expect(waitFor(() => lines().length, 5000, `a ${service} log line of the request`)).resolves.toBeGreaterThan(0);
    }
  });

  it('reports a stopped service as down, with a message, and answers 503', async () => {
    await platform.process('wallet').stop();
    const started = Date.now();
    const response = await fetch(`${platform.baseUrl}/v1/health/services`);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(response.status).toBe(503);
    const body = (await response.json()) as Record<string, Record<string, { status: string; message?: string }>>;
    expect(body.status).toBe('error');
    // A fixed phrase (a stopped service's ping times out), never a host, stream or driver text.
    expect(body.error.wallet).toEqual({ status: 'down', message: 'timeout' });
    expect(body.details.wallet.status).toBe('down');
    expect(body.info.identity).toEqual({ status: 'up' });
    expect(body.info.core).toEqual({ status: 'up' });
    await platform.startApp('wallet');
    const again = await fetch(`${platform.baseUrl}/v1/health/services`);
    expect(again.status).toBe(200);
  });

  it('exposes Prometheus metrics on the internal port, not on the public ones', async () => {
    const metrics = await fetch(`${platform.internalUrl('gateway')}/metrics`);
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(text).toContain('http_request_duration_seconds_bucket');
    expect(text).toContain('transport_request_duration_seconds');
    expect(text).toContain('db_pool_connections_total');
    expect((await fetch(`${platform.baseUrl}/metrics`)).status).toBe(404);
  });
});


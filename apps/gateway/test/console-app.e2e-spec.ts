import { TestPlatform, freePort } from '@game-wallet/testing';
import { readdirSync, readFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { join, resolve } from 'node:path';

const BUILT_CONSOLE = resolve(__dirname, '../../../dist/apps/console');

/** The web console's files and pages as the gateway serves them: security headers, caching, client-side routes. */
describe('web console files', () => {
  let platform: TestPlatform;
  const script = readdirSync(join(BUILT_CONSOLE, 'assets')).find((name) => name.endsWith('.js'));

  beforeAll(async () => {
    platform = await TestPlatform.start('console-app', { apps: ['gateway'] });
  });

  afterAll(async () => {
    await platform.stop();
  });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${platform.baseUrl}${path}`, { headers });

  it.each([['/console'], ['/console/'], ['/console/sign-in'], ['/console/games/01900000-0000-7000-8000-000000000000/api-keys?x=1']])(
    'answers %s with the app page, revalidated on every load',
    async (path) => {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('etag')).toBeTruthy();
      expect(await response.text()).toContain('<div id="root"></div>');
    },
  );

  it('sends a strict Content-Security-Policy and the other security headers with the page and its files', async () => {
    for (const path of ['/console/', `/console/assets/${script}`, '/console/favicon.svg']) {
      const response = await get(path);
      expect(response.status).toBe(200);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it('has no inline script in the page (the CSP would block it)', () => {
    const html = readFileSync(join(BUILT_CONSOLE, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/src="\/console\/assets\//);
      expect(body.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+=/i);
  });

  it('caches content-hashed files for a year and sends them precompressed', async () => {
    const plain = await get(`/console/assets/${script}`, { 'accept-encoding': 'identity' });
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(plain.headers.get('content-type')).toMatch(/javascript/);
    const body = await plain.arrayBuffer();
    const brotli = await fetch(`${platform.baseUrl}/console/assets/${script}`, { headers: { 'accept-encoding': 'br' } });
    expect(brotli.headers.get('content-encoding')).toBe('br');
    expect(Number(brotli.headers.get('content-length'))).toBeLessThan(body.byteLength / 2);
    expect(brotli.headers.get('vary')).toMatch(/accept-encoding/i);
  });

  it('answers 304 to a revalidation of an unchanged page', async () => {
    const etag = (await get('/console/')).headers.get('etag') ?? '';
    // node:http, as a browser revalidates: fetch() adds `cache-control: no-cache` to a request with If-None-Match.
    const status = await new Promise<number | undefined>((done, fail) =>
      httpGet(`${platform.baseUrl}/console/`, { headers: { 'if-none-match': etag } }, (response) => {
        response.resume();
        done(response.statusCode);
      }).on('error', fail),
    );
    expect(status).toBe(304);
  });

  it('answers a missing file with 404 NOT_FOUND in the error shape, not with the page', async () => {
    for (const path of ['/console/assets/missing-123.js', '/console/robots.txt']) {
      const response = await get(path);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ message: `Route GET ${path} not found`, code: 'NOT_FOUND' });
    }
  });

  it('is not served on core_url', async () => {
    const response = await fetch(`${platform.coreUrl}/console/`);
    expect(response.status).toBe(404);
  });

  it('answers 404 saying so when the gateway has no built console', async () => {
    const ports = { base: await freePort(), core: await freePort(), internal: await freePort() };
    const running = await platform.startApp('gateway', 'gateway-without-console', {
      BASE_PORT: String(ports.base),
      CORE_PORT: String(ports.core),
      GATEWAY_INTERNAL_PORT: String(ports.internal),
      CONSOLE_DIR: join(platform.env.DATA_DIR, 'no-console-here'),
    });
    const response = await fetch(`http://127.0.0.1:${ports.base}/console/`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'The web console is not installed in this gateway', code: 'NOT_FOUND' });
    expect(running.output).toContain('No built web console in CONSOLE_DIR');
  });
});

import { randomBytes } from 'node:crypto';
import { IdentityConfig } from '../config';
import { WebhookEndpointsService } from './webhook-endpoints.service';

/** The production rule when an endpoint is added: https only, and no address literal (or localhost) that is not public. */
describe(WebhookEndpointsService.name, () => {
  const operator = { kind: 'operator' as const, operatorId: '01900000-0000-7000-8000-000000000001', sessionId: 's' };
  const stored: unknown[] = [];
  const service = (allowPrivateUrls: boolean): WebhookEndpointsService => {
    const manager = { query: async () => [{ count: 0 }] };
    const webhooks = {
      data: { transaction: (work: (m: typeof manager) => Promise<unknown>) => work(manager) },
      countEndpoints: async () => 0,
      insertEndpoint: async (row: unknown) => void stored.push(row),
    };
    const games = { get: async (id: string) => ({ id }) };
    const audit = { record: async () => undefined };
    const config = { webhooks: { allowPrivateUrls } } as IdentityConfig;
    return new WebhookEndpointsService(webhooks as never, {} as never, {} as never, games as never, audit as never, config, randomBytes(32));
  };
  const add = (allowPrivateUrls: boolean, url: string) => service(allowPrivateUrls).create('01900000-0000-7000-8000-00000000000a', { url, eventTypes: ['*'] }, operator);

  it.each([
    ['http://hooks.example.com/game', 'url must be an https URL'],
    ['https://127.0.0.1/game', 'url must not name a loopback, private, link-local or reserved address'],
    ['https://localhost/game', 'url must not name a loopback, private, link-local or reserved address'],
    ['https://[::1]/game', 'url must not name a loopback, private, link-local or reserved address'],
    ['https://169.254.169.254/latest/meta-data', 'url must not name a loopback, private, link-local or reserved address'],
    ['https://10.0.0.8/game', 'url must not name a loopback, private, link-local or reserved address'],
  ])('refuses %s in production with 400 VALIDATION_FAILED', async (url, message) => {
    await expect(add(false, url)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message });
  });

  it('takes a public https URL in production, and local receivers when private URLs are allowed (development)', async () => {
    await expect(add(false, 'https://hooks.example.com/game')).resolves.toMatchObject({ url: 'https://hooks.example.com/game', secret: expect.stringMatching(/^whsec_/) });
    await expect(add(true, 'http://127.0.0.1:8080/hooks')).resolves.toMatchObject({ url: 'http://127.0.0.1:8080/hooks' });
    expect(stored).toHaveLength(2);
  });

  it('refuses an event type it does not know, the names of the object prototype among them', async () => {
    for (const type of ['player.deleted', 'constructor', '__proto__']) {
      await expect(service(false).create('01900000-0000-7000-8000-00000000000a', { url: 'https://hooks.example.com/game', eventTypes: [type] }, operator)).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
    }
  });
});

import { CreatedWebhookEndpointView, WEBHOOK_EVENT_TYPES, WebhookDeliveryView, WebhookEndpointView } from '@game-wallet/contracts';
import { GameFixture, TestPlatform, WebhookReceiver, consoleToken, createGame, createPlayer, http, waitFor } from '@game-wallet/testing';
import Ajv2020 from 'ajv/dist/2020';
import { createServer } from 'node:net';

/** A short retry schedule and disabling window, so a day of failures plays out in seconds. */
const RETRY_SCHEDULE = '1,1,1,1,1,1,1,1';
const DISABLE_AFTER_SECONDS = 5;

/** A port nothing listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Events, signed webhooks with retries, disabling, rotation and redelivery, received by a local receiver that verifies with `standardwebhooks`. */
describe('webhooks', () => {
  let platform: TestPlatform;
  let token: string;
  const receivers: WebhookReceiver[] = [];

  const api = <T>(method: string, path: string, body?: unknown) => http<T>(method, `${platform.baseUrl}/v1/console${path}`, { bearer: token, body });
  const receiver = async (port = 0): Promise<WebhookReceiver> => {
    const started = await WebhookReceiver.start(port);
    receivers.push(started);
    return started;
  };
  const addEndpoint = async (gameId: string, url: string, eventTypes: string[] = ['*']): Promise<CreatedWebhookEndpointView> => {
    const created = await api<CreatedWebhookEndpointView>('POST', `/games/${gameId}/webhooks`, { url, eventTypes });
    expect(created.status).toBe(201);
    return created.body;
  };
  const deliveries = async (gameId: string, endpointId: string): Promise<WebhookDeliveryView[]> =>
    (await api<{ items: WebhookDeliveryView[] }>('GET', `/games/${gameId}/webhooks/${endpointId}/deliveries?limit=100`)).body.items;

  beforeAll(async () => {
    platform = await TestPlatform.start('webhooks', {
      env: { WEBHOOK_RETRY_SCHEDULE: RETRY_SCHEDULE, WEBHOOK_DISABLE_AFTER_SECONDS: String(DISABLE_AFTER_SECONDS), WEBHOOK_TIMEOUT_MS: '1000', RATE_LIMIT_SIGN_PER_WALLET_RPS: '1000' },
    });
    token = await consoleToken(platform);
  });

  afterAll(async () => {
    await Promise.all(receivers.map((started) => started.stop()));
    await platform?.stop();
  });

  describe('every event type', () => {
    let game: GameFixture;
    let hooks: WebhookReceiver;
    let endpoint: CreatedWebhookEndpointView;
    const received = (type: string) => waitFor(() => hooks.ofType(type)[0], 15_000, `a ${type} event`);

    beforeAll(async () => {
      game = await createGame(platform, token, 'webhooks-all');
      hooks = await receiver();
      endpoint = await addEndpoint(game.gameId, hooks.url());
      hooks.secrets = [endpoint.secret];
    });

    it('shows the secret once, in the Standard Webhooks form, and never again', async () => {
      expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      const listed = await api<{ items: WebhookEndpointView[] }>('GET', `/games/${game.gameId}/webhooks`);
      expect(listed.body.items).toEqual([expect.objectContaining({ id: endpoint.id, url: hooks.url(), eventTypes: ['*'], enabled: true })]);
      expect(JSON.stringify(listed.body)).not.toContain(endpoint.secret.slice(6));
    });

    it('delivers player.created, wallet.signed and wallet.signing_denied, hashes only, each verified with standardwebhooks', async () => {
      const player = await createPlayer(platform, game.key, 'hooked-player');
      const created = await received('player.created');
      expect(created.event).toEqual({
        id: created.id,
        type: 'player.created',
        timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        gameId: game.gameId,
        data: { playerId: player.id, uniqueId: 'hooked-player', profileId: expect.any(String), walletId: player.walletId, actor: `api-key:${game.keyId}` },
      });
      expect(created.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(created.verifiedBy).toEqual([true]);

      const message = 'a secret message that must not travel';
      expect((await http('POST', `${platform.baseUrl}/v1/wallet/${player.walletId}/sign`, { apiKey: game.key, body: { chain: 'evm', message } })).status).toBe(200);
      const signed = await received('wallet.signed');
      expect(signed.event.data).toEqual({
        auditId: expect.any(String),
        walletId: player.walletId,
        chain: 'evm',
        operation: 'message',
        messageSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        policyVersion: expect.any(Number),
        ruleId: expect.anything(),
        actor: `api-key:${game.keyId}`,
      });
      expect(signed.body).not.toContain(message);
      expect(signed.body).not.toContain(Buffer.from(message).toString('base64'));

      const policy = { rules: [{ id: 'transactions-only', action: 'accept', operation: 'transaction', criteria: [] }] };
      expect((await api('PUT', `/games/${game.gameId}/signing-policy`, policy)).status).toBe(200);
      expect((await http('POST', `${platform.baseUrl}/v1/wallet/${player.walletId}/sign`, { apiKey: game.key, body: { chain: 'sol', message } })).status).toBe(403);
      const denied = await received('wallet.signing_denied');
      expect(denied.event.data).toEqual(expect.objectContaining({ walletId: player.walletId, chain: 'sol', operation: 'message', ruleId: null }));
      expect((await received('signing_policy.updated')).event.data).toEqual(expect.objectContaining({ version: expect.any(Number), actor: expect.stringMatching(/^operator:/) }));
      expect(JSON.stringify(hooks.ofType('signing_policy.updated')[0].event.data)).not.toContain('transactions-only');
    });

    it('delivers the signing policy draft, API key, token revocation and endpoint events', async () => {
      expect((await api('PUT', `/games/${game.gameId}/signing-policy/draft`, { rules: [{ id: 'drafted', action: 'accept', operation: 'message', criteria: [] }] })).status).toBe(200);
      expect((await api('DELETE', `/games/${game.gameId}/signing-policy/draft`)).status).toBe(204);
      const key = await api<{ id: string; key: string }>('POST', `/games/${game.gameId}/api-keys`, { name: 'hooked key' });
      expect((await api('PATCH', `/games/${game.gameId}/api-keys/${key.body.id}`, { active: false })).status).toBe(200);
      expect((await api('DELETE', `/games/${game.gameId}/api-keys/${key.body.id}?revokeTokens=true`)).status).toBe(204);
      const player = await createPlayer(platform, game.key, 'revoked-player');
      expect((await http('POST', `${platform.baseUrl}/v1/profile/${player.profileId}/revoke`, { apiKey: game.key })).status).toBe(204);
      const other = await addEndpoint(game.gameId, `${hooks.url('/other')}`, ['api_key.created']);
      expect((await api('PATCH', `/games/${game.gameId}/webhooks/${other.id}`, { description: 'second' })).status).toBe(200);
      expect((await api('DELETE', `/games/${game.gameId}/webhooks/${other.id}`)).status).toBe(204);

      expect((await received('signing_policy.draft_updated')).event.data).toEqual(expect.objectContaining({ actor: expect.stringMatching(/^operator:/) }));
      await received('signing_policy.draft_deleted');
      expect((await received('api_key.created')).event.data).toEqual(expect.objectContaining({ keyId: key.body.id, name: 'hooked key' }));
      expect((await received('api_key.updated')).event.data).toEqual(expect.objectContaining({ keyId: key.body.id, active: false }));
      expect((await received('api_key.deleted')).event.data).toEqual(expect.objectContaining({ keyId: key.body.id, revokeTokens: true }));
      expect((await received('profile.tokens_revoked')).event.data).toEqual(expect.objectContaining({ profileId: player.profileId, revokedBefore: expect.any(String) }));
      const aboutOther = (type: string) => waitFor(() => hooks.ofType(type).find((request) => request.event.data.endpointId === other.id), 15_000, `${type} of the second endpoint`);
      expect((await aboutOther('webhook_endpoint.created')).event.data).toEqual({ endpointId: other.id, url: hooks.url('/other'), enabled: true, eventTypes: ['api_key.created'], actor: expect.stringMatching(/^operator:/) });
      expect((await aboutOther('webhook_endpoint.updated')).event.data).toEqual(expect.objectContaining({ endpointId: other.id }));
      expect((await aboutOther('webhook_endpoint.deleted')).event.data).toEqual(expect.objectContaining({ endpointId: other.id }));
      for (const request of hooks.received) {
        expect(request.body).not.toContain(key.body.key);
        expect(request.body).not.toContain(game.key);
        expect(request.body).not.toMatch(/whsec_/);
      }
    });

    it('sends a test event to the endpoint alone, and every delivery so far verifies with standardwebhooks and with svix', async () => {
      const test = await api<WebhookDeliveryView>('POST', `/games/${game.gameId}/webhooks/${endpoint.id}/test`);
      expect(test.status).toBe(202);
      expect(test.body).toEqual(expect.objectContaining({ eventType: 'webhook.test', status: 'pending' }));
      const delivered = await waitFor(() => hooks.of(test.body.eventId)[0], 10_000, 'the test event');
      expect(delivered.event.data).toEqual({ endpointId: endpoint.id, actor: expect.stringMatching(/^operator:/) });
      const seen = new Set(hooks.received.map((request) => request.event.type));
      // webhook_endpoint.disabled is delivered in the disabling test below.
      expect(WEBHOOK_EVENT_TYPES.filter((type) => !seen.has(type))).toEqual(['webhook_endpoint.disabled']);
      for (const request of hooks.received) {
        expect([request.verifiedBy, request.verifiedBySvix]).toEqual([[true], [true]]);
      }
      expect(new Set(hooks.received.map((request) => request.id)).size).toBe(hooks.received.length);
    });

    it("delivers bodies that match the OpenAPI document's webhooks section, type by type", async () => {
      const document = (await http<{ webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: object }> } } }>; components: object }>('GET', `${platform.baseUrl}/v1/openapi.json`)).body;
      const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
      ajv.addSchema({ $id: 'doc', components: document.components });
      expect(Object.keys(document.webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
      for (const request of hooks.received) {
        const schema = document.webhooks[request.event.type].post.requestBody.content['application/json'].schema;
        const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')) as object);
        expect({ type: request.event.type, valid: validate(request.event), errors: validate.errors ?? null }).toEqual({ type: request.event.type, valid: true, errors: null });
      }
    });

    it('keeps the old names readable: an endpoint subscribed by an old name gets the event by its new one', async () => {
      const old = await receiver();
      const subscribed = await addEndpoint(game.gameId, old.url(), ['wallet.signing-denied', 'api_key.activated']);
      expect(subscribed.eventTypes).toEqual(['wallet.signing_denied', 'api_key.updated']);
      expect((await api('PATCH', `/games/${game.gameId}/api-keys/${game.keyId}`, { active: true })).status).toBe(200);
      expect((await api('DELETE', `/games/${game.gameId}/webhooks/${subscribed.id}`)).status).toBe(204);
    });
  });

  describe('delivery', () => {
    it('retries a 500, a timeout and a refused connection on the schedule until the receiver takes it', async () => {
      const game = await createGame(platform, token, 'webhooks-retries');
      const hooks = await receiver();
      const endpoint = await addEndpoint(game.gameId, hooks.url());
      hooks.secrets = [endpoint.secret];
      hooks.answer = (_request, attempt) => (attempt === 1 ? { status: 500, body: 'broken' } : attempt === 2 ? { status: 200, delayMs: 1_500 } : { status: 204 });
      const test = await api<WebhookDeliveryView>('POST', `/games/${game.gameId}/webhooks/${endpoint.id}/test`);
      const done = await waitFor(async () => (await deliveries(game.gameId, endpoint.id)).find((d) => d.id === test.body.id && d.status === "succeeded"), 20_000, "the delivery");
      expect(done.attempts).toBe(3);
      expect(done.responseStatus).toBe(204);
      const attempts = hooks.of(test.body.eventId);
      expect(attempts).toHaveLength(3);
      // Each retry waits its step of the schedule (1 s, ±10%) after the attempt before it ended.
      expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(850);
      expect(attempts[2].at - attempts[1].at).toBeGreaterThanOrEqual(1_000 + 850);

      // Nothing listens: refused, then taken once a receiver is there.
      const port = await closedPort();
      const later = await addEndpoint(game.gameId, `http://127.0.0.1:${port}/hooks`);
      const refused = await api<WebhookDeliveryView>('POST', `/games/${game.gameId}/webhooks/${later.id}/test`);
      const failing = await waitFor(async () => (await deliveries(game.gameId, later.id)).find((d) => d.id === refused.body.id && d.attempts >= 1), 10_000);
      expect(failing).toEqual(expect.objectContaining({ status: 'pending', error: 'connection refused', responseStatus: null, nextAttemptAt: expect.any(String) }));
      const listening = await receiver(port);
      listening.secrets = [later.secret];
      const taken = await waitFor(() => listening.of(refused.body.eventId)[0], 10_000, 'the retried delivery');
      expect(taken.verifiedBy).toEqual([true]);
    });

    it('shows the answer\'s status and first bytes in the log, reads at most 64 KiB of it, and follows no redirect', async () => {
      const game = await createGame(platform, token, 'webhooks-answers');
      const hooks = await receiver();
      const endpoint = await addEndpoint(game.gameId, hooks.url());
      hooks.answer = (_request, attempt) => (attempt === 1 ? { status: 302, headers: { location: 'http://127.0.0.1:1/elsewhere' } } : { status: 200, body: 'x'.repeat(1024 * 1024) });
      const test = await api<WebhookDeliveryView>('POST', `/games/${game.gameId}/webhooks/${endpoint.id}/test`);
      const done = await waitFor(async () => (await deliveries(game.gameId, endpoint.id)).find((d) => d.id === test.body.id && d.status === 'succeeded'), 15_000);
      expect(done).toEqual(expect.objectContaining({ id: test.body.id, attempts: 2, responseStatus: 200, responseBody: 'x'.repeat(256) }));
      expect(hooks.of(test.body.eventId)).toHaveLength(2);
    });

    it('disables an endpoint that failed every attempt for the whole window, says why, and tells the other endpoints', async () => {
      const game = await createGame(platform, token, 'webhooks-disable');
      const broken = await receiver();
      const watching = await receiver();
      const endpoint = await addEndpoint(game.gameId, broken.url());
      const watcher = await addEndpoint(game.gameId, watching.url(), ['webhook_endpoint.disabled']);
      watching.secrets = [watcher.secret];
      broken.answer = () => ({ status: 503, body: 'down for maintenance' });
      const test = await api<WebhookDeliveryView>('POST', `/games/${game.gameId}/webhooks/${endpoint.id}/test`);
      const disabled = await waitFor(
        async () => (await api<{ items: WebhookEndpointView[] }>('GET', `/games/${game.gameId}/webhooks`)).body.items.find((e) => e.id === endpoint.id && !e.enabled),
        30_000,
        'the endpoint disabled',
      );
      expect(disabled.disabledReason).toMatch(/^Every attempt failed for .* h \(last: answered 503\)$/);
      expect(disabled.disabledAt).not.toBeNull();
      const delivery = (await deliveries(game.gameId, endpoint.id)).find((d) => d.id === test.body.id);
      expect(delivery).toEqual(expect.objectContaining({ id: test.body.id, status: 'failed', responseStatus: 503, responseBody: 'down for maintenance' }));
      const attempts = broken.of(test.body.eventId);
      expect(attempts.length).toBeGreaterThanOrEqual(4);
      expect(attempts[attempts.length - 1].at - attempts[0].at).toBeGreaterThanOrEqual(DISABLE_AFTER_SECONDS * 1000 - 1_500);
      const told = await waitFor(() => watching.ofType('webhook_endpoint.disabled')[0], 10_000, 'the disabled event');
      expect(told.event.data).toEqual(expect.objectContaining({ endpointId: endpoint.id, enabled: false, reason: disabled.disabledReason, actor: 'system' }));
      expect(told.verifiedBy).toEqual([true]);
      const audit = await api<{ items: { action: string; target: string }[] }>('GET', `/games/${game.gameId}/audit`);
      expect(audit.body.items).toEqual(expect.arrayContaining([expect.objectContaining({ action: 'webhook_endpoint.disabled', target: `webhook-endpoint:${endpoint.id}` })]));

      // Redeliver every failed delivery since a time, once the receiver works and the endpoint is on again.
      broken.answer = () => ({ status: 200 });
      expect((await api<WebhookEndpointView>('PATCH', `/games/${game.gameId}/webhooks/${endpoint.id}`, { enabled: true })).body).toEqual(
        expect.objectContaining({ enabled: true, disabledReason: null, failingSince: null }),
      );
      const before = broken.of(test.body.eventId).length;
      const failed = (await deliveries(game.gameId, endpoint.id)).filter((d) => d.status === 'failed').length;
      const again = await api<{ scheduled: number }>('POST', `/games/${game.gameId}/webhooks/${endpoint.id}/redeliver`, { since: new Date(Date.now() - 3_600_000).toISOString() });
      // The test event, and the events of the endpoints' creation, failed with it.
      expect(failed).toBeGreaterThanOrEqual(2);
      expect([again.status, again.body]).toEqual([202, { scheduled: failed }]);
      await waitFor(() => broken.of(test.body.eventId).length > before, 10_000, 'the redelivery');
      expect(await waitFor(async () => (await deliveries(game.gameId, endpoint.id)).find((d) => d.id === test.body.id && d.status === 'succeeded'), 10_000)).toEqual(
        expect.objectContaining({ id: test.body.id, attempts: 1 }),
      );
    });

    it('redelivers one event on request, with the same webhook-id', async () => {
      const game = await createGame(platform, token, 'webhooks-redeliver');
      const hooks = await receiver();
      const endpoint = await addEndpoint(game.gameId, hooks.url());
      const test = await api<WebhookDeliveryView>('POST', `/games/${game.gameId}/webhooks/${endpoint.id}/test`);
      await waitFor(() => hooks.of(test.body.eventId)[0], 10_000);
      await waitFor(async () => (await deliveries(game.gameId, endpoint.id)).find((d) => d.id === test.body.id)?.status === 'succeeded', 10_000);
      const again = await api<WebhookDeliveryView>('POST', `/games/${game.gameId}/webhooks/${endpoint.id}/deliveries/${test.body.id}/redeliver`);
      expect([again.status, again.body.status, again.body.eventId]).toEqual([202, 'pending', test.body.eventId]);
      await waitFor(() => hooks.of(test.body.eventId).length === 2, 10_000, 'the redelivery');
      const [first, second] = hooks.of(test.body.eventId);
      expect(second.body).toBe(first.body);
      const missing = await api('POST', `/games/${game.gameId}/webhooks/${endpoint.id}/deliveries/01900000-0000-7000-8000-000000000000/redeliver`);
      expect([missing.status, (missing.body as { code: string }).code]).toEqual([404, 'WEBHOOK_DELIVERY_NOT_FOUND']);
    });

    it('rotates a secret with an overlap: both secrets verify during it, only the new one after', async () => {
      const game = await createGame(platform, token, 'webhooks-rotation');
      const hooks = await receiver();
      const endpoint = await addEndpoint(game.gameId, hooks.url());
      const rotated = await api<CreatedWebhookEndpointView>('POST', `/games/${game.gameId}/webhooks/${endpoint.id}/rotate-secret`, { overlapSeconds: 3600 });
      expect(rotated.status).toBe(200);
      expect(rotated.body.secret).not.toBe(endpoint.secret);
      expect(rotated.body.previousSecretUntil).not.toBeNull();
      hooks.secrets = [endpoint.secret, rotated.body.secret];
      const during = await api<WebhookDeliveryView>('POST', `/games/${game.gameId}/webhooks/${endpoint.id}/test`);
      const signedTwice = await waitFor(() => hooks.of(during.body.eventId)[0], 10_000);
      expect(signedTwice.signature.split(' ')).toHaveLength(2);
      expect([signedTwice.verifiedBy, signedTwice.verifiedBySvix]).toEqual([
        [true, true],
        [true, true],
      ]);

      const ended = await api<CreatedWebhookEndpointView>('POST', `/games/${game.gameId}/webhooks/${endpoint.id}/rotate-secret`, { overlapSeconds: 0 });
      hooks.secrets = [endpoint.secret, rotated.body.secret, ended.body.secret];
      const after = await api<WebhookDeliveryView>('POST', `/games/${game.gameId}/webhooks/${endpoint.id}/test`);
      const signedOnce = await waitFor(() => hooks.of(after.body.eventId)[0], 10_000);
      expect(signedOnce.signature.split(' ')).toHaveLength(1);
      expect([signedOnce.verifiedBy, signedOnce.verifiedBySvix]).toEqual([
        [false, false, true],
        [false, false, true],
      ]);
    });
  });

  describe('input', () => {
    it('refuses bad endpoints with 400 VALIDATION_FAILED naming the field, and a 21st endpoint with 409', async () => {
      const game = await createGame(platform, token, 'webhooks-input');
      const cases: [unknown, string][] = [
        [{ url: 'ftp://example.com/hooks', eventTypes: ['*'] }, 'url'],
        [{ url: 'https://user:pass@example.com/hooks', eventTypes: ['*'] }, 'url'],
        [{ url: `https://example.com/${'a'.repeat(2100)}`, eventTypes: ['*'] }, 'url'],
        [{ url: 'https://example.com/hooks', eventTypes: [] }, 'eventTypes'],
        [{ url: 'https://example.com/hooks', eventTypes: ['player.deleted'] }, 'eventTypes'],
        [{ url: 'https://example.com/hooks', eventTypes: ['*'], secret: 'whsec_mine' }, 'secret'],
      ];
      for (const [body, field] of cases) {
        const response = await api<{ code: string; message: string }>('POST', `/games/${game.gameId}/webhooks`, body);
        expect([response.status, response.body.code]).toEqual([400, 'VALIDATION_FAILED']);
        expect(response.body.message).toContain(field);
      }
      for (let n = 0; n < 20; n += 1) {
        expect((await api('POST', `/games/${game.gameId}/webhooks`, { url: `https://example.com/${n}`, eventTypes: ['*'], enabled: false })).status).toBe(201);
      }
      const over = await api<{ code: string }>('POST', `/games/${game.gameId}/webhooks`, { url: 'https://example.com/21', eventTypes: ['*'] });
      expect([over.status, over.body.code]).toEqual([409, 'WEBHOOK_ENDPOINT_LIMIT']);
      const unknown = await api<{ code: string }>('PATCH', `/games/${game.gameId}/webhooks/01900000-0000-7000-8000-000000000000`, { enabled: false });
      expect([unknown.status, unknown.body.code]).toEqual([404, 'WEBHOOK_ENDPOINT_NOT_FOUND']);
    });
  });
});

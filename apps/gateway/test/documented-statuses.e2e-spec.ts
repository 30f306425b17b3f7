import { GameFixture, RawRequest, RawResponse, TestPlatform, consoleToken, createGame, createPlayer, http, rawHttp } from '@game-wallet/testing';

type ErrorSchema = { properties?: { code?: { enum?: string[] } }; then?: { required?: string[] } };
type Operation = { responses: Record<string, { content?: { 'application/json': { schema: ErrorSchema } }; headers?: Record<string, unknown> }>; parameters?: { name: string; in: string }[] };
type Document = { paths: Record<string, Record<string, Operation>> };

/**
 * Answers the OpenAPI documents used to leave out, produced for real and looked up in the document the port serves:
 * each must be listed for its operation, with its code.
 */
describe('statuses every operation really answers are in its OpenAPI document', () => {
  let platform: TestPlatform;
  let documents: Record<'base' | 'core', Document>;
  let operator: string;
  let game: GameFixture;
  let player: { profileId: string; walletId: string; id: string };

  beforeAll(async () => {
    // The forwarded address lets one test exhaust an address's failed authentications without refusing the others.
    platform = await TestPlatform.start('docstatus', { env: { TRUST_PROXY: 'loopback', RATE_LIMIT_AUTH_FAILURES_PER_IP: '5' } });
    const [base, core] = await Promise.all([http<Document>('GET', `${platform.baseUrl}/v1/openapi.json`), http<Document>('GET', `${platform.coreUrl}/v1/openapi.json`)]);
    documents = { base: base.body, core: core.body };
    operator = await consoleToken(platform);
    game = await createGame(platform, operator);
    player = await createPlayer(platform, game.key);
  });

  afterAll(async () => {
    await platform?.stop();
  });

  /** The answer's status and code, and whether the port's document lists that code under that status for the operation. */
  const documented = (port: 'base' | 'core', operation: string, status: number, code: string): { status: number; code: string; documented: boolean } => {
    const [method, path] = operation.split(' ');
    const codes = documents[port].paths[path]?.[method.toLowerCase()]?.responses[String(status)]?.content?.['application/json'].schema.properties?.code?.enum ?? [];
    return { status, code, documented: codes.includes(code) };
  };
  const answered = (port: 'base' | 'core', operation: string, response: RawResponse): ReturnType<typeof documented> =>
    documented(port, operation, response.status, String((response.json as { code?: unknown } | undefined)?.code));

  const send = (port: 'base' | 'core', request: RawRequest): Promise<RawResponse> => rawHttp(port === 'base' ? platform.ports.base : platform.ports.core, request);

  it('415 UNSUPPORTED_MEDIA_TYPE on routes that take no body, when one is sent that is not JSON', async () => {
    const notJson: [string, string][] = [['content-type', 'text/plain']];
    const cases: [port: 'base' | 'core', operation: string, request: RawRequest][] = [
      ['base', 'GET /v1/wallet/{walletId}', { method: 'GET', target: `/v1/wallet/${player.walletId}`, headers: [['x-api-key', game.key], ...notJson], body: 'x' }],
      ['base', 'POST /v1/profile/{id}/revoke', { method: 'POST', target: `/v1/profile/${player.profileId}/revoke`, headers: [['x-api-key', game.key], ...notJson], body: 'x' }],
      ['base', 'GET /v1/health', { method: 'GET', target: '/v1/health', headers: notJson, body: 'x' }],
      ['base', 'DELETE /v1/console/session', { method: 'DELETE', target: '/v1/console/session', headers: [['authorization', `Bearer ${operator}`], ...notJson], body: 'x' }],
      ['core', 'GET /v1/player/{playerId}', { method: 'GET', target: `/v1/player/${player.id}`, headers: [['x-api-key', game.key], ...notJson], body: 'x' }],
    ];
    for (const [port, operation, request] of cases) {
      expect({ operation, ...answered(port, operation, await send(port, request)) }).toEqual({ operation, status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', documented: true });
    }
  });

  it('400 MALFORMED_JSON on revoke and sign-out, which take no body but parse one', async () => {
    const malformed: [string, string][] = [['content-type', 'application/json']];
    const revoke = await send('base', { method: 'POST', target: `/v1/profile/${player.profileId}/revoke`, headers: [['x-api-key', game.key], ...malformed], body: '{' });
    expect(answered('base', 'POST /v1/profile/{id}/revoke', revoke)).toEqual({ status: 400, code: 'MALFORMED_JSON', documented: true });
    const signOut = await send('base', { method: 'DELETE', target: '/v1/console/session', headers: [['authorization', `Bearer ${operator}`], ...malformed], body: '{' });
    expect(answered('base', 'DELETE /v1/console/session', signOut)).toEqual({ status: 400, code: 'MALFORMED_JSON', documented: true });
  });

  it('429 RATE_LIMITED on console routes from an address past its failed authentications', async () => {
    const from: [string, string] = ['x-forwarded-for', '203.0.113.29'];
    for (let attempt = 0; attempt < 8; attempt += 1) {
      await send('base', { method: 'GET', target: '/v1/console/games', headers: [from, ['authorization', 'Bearer not.a.token']] });
    }
    const limited = await send('base', { method: 'GET', target: '/v1/console/games', headers: [from, ['authorization', `Bearer ${operator}`]] });
    expect(answered('base', 'GET /v1/console/games', limited)).toEqual({ status: 429, code: 'RATE_LIMITED', documented: true });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('414 URI_TOO_LONG for an id of 101 characters, 400 BAD_REQUEST for a control character in a header and 431 HEADERS_TOO_LARGE, on both ports', async () => {
    const key: [string, string] = ['x-api-key', game.key];
    for (const [port, operation, target] of [
      ['base', 'GET /v1/wallet/{walletId}', '/v1/wallet/'],
      ['core', 'GET /v1/player/{playerId}', '/v1/player/'],
    ] as const) {
      expect(answered(port, operation, await send(port, { method: 'GET', target: `${target}${'a'.repeat(101)}`, headers: [key] }))).toEqual({ status: 414, code: 'URI_TOO_LONG', documented: true });
      expect(answered(port, operation, await send(port, { method: 'GET', target: `${target}${player.walletId}`, headers: [key, ['x-request-id', 'a\u0001']] }))).toEqual({
        status: 400,
        code: 'BAD_REQUEST',
        documented: true,
      });
      expect(answered(port, operation, await send(port, { method: 'GET', target: `${target}${player.walletId}`, headers: [key, ['x-filler', 'a'.repeat(60_000)]] }))).toEqual({
        status: 431,
        code: 'HEADERS_TOO_LARGE',
        documented: true,
      });
    }
  });

  it('412 PRECONDITION_FAILED for a stale If-Match and 400 VALIDATION_FAILED for a malformed one, on the routes that take it; their ETag documented', async () => {
    const policy = `/v1/console/games/${game.gameId}/signing-policy`;
    const asOperator: [string, string] = ['authorization', `Bearer ${operator}`];
    const json: [string, string] = ['content-type', 'application/json'];
    const rules = JSON.stringify({ rules: [{ id: 'messages', action: 'accept', operation: 'message', criteria: [] }] });
    const saved = await send('base', { method: 'PUT', target: policy, headers: [asOperator, json, ['if-match', '"0"']], body: rules });
    expect([saved.status, saved.headers.etag]).toEqual([200, '"1"']);
    const cases: [operation: string, request: RawRequest, status: number, code: string][] = [
      ['PUT /v1/console/games/{gameId}/signing-policy', { method: 'PUT', target: policy, headers: [asOperator, json, ['if-match', '"0"']], body: rules }, 412, 'PRECONDITION_FAILED'],
      ['PUT /v1/console/games/{gameId}/signing-policy', { method: 'PUT', target: policy, headers: [asOperator, json, ['if-match', 'W/"1"']], body: rules }, 400, 'VALIDATION_FAILED'],
      ['POST /v1/console/games/{gameId}/signing-policy/draft/activate', { method: 'POST', target: `${policy}/draft/activate`, headers: [asOperator, ['if-match', '1']] }, 400, 'VALIDATION_FAILED'],
    ];
    for (const [operation, request, status, code] of cases) {
      expect({ operation, ...answered('base', operation, await send('base', request)) }).toEqual({ operation, status, code, documented: true });
    }
    const draft = await send('base', { method: 'PUT', target: `${policy}/draft`, headers: [asOperator, json], body: rules });
    expect(draft.status).toBe(200);
    const activate = 'POST /v1/console/games/{gameId}/signing-policy/draft/activate';
    expect(answered('base', activate, await send('base', { method: 'POST', target: `${policy}/draft/activate`, headers: [asOperator, ['if-match', '"0"']] }))).toEqual({
      status: 412,
      code: 'PRECONDITION_FAILED',
      documented: true,
    });
    for (const operation of ['GET /v1/console/games/{gameId}/signing-policy', 'PUT /v1/console/games/{gameId}/signing-policy', activate]) {
      const [method, path] = operation.split(' ');
      const documentedOperation = documents.base.paths[path][method.toLowerCase()];
      expect({ operation, etag: documentedOperation.responses['200'].headers?.etag !== undefined }).toEqual({ operation, etag: true });
      expect({ operation, ifMatch: (documentedOperation.parameters ?? []).some((parameter) => parameter.name === 'if-match' && parameter.in === 'header') }).toEqual({ operation, ifMatch: method !== 'GET' });
    }
  });

  it('403 POLICY_DENIED carries details (the rule, why, the observed value), as the signing routes document it', async () => {
    const policy = `/v1/console/games/${game.gameId}/signing-policy`;
    const refuseTransactions = JSON.stringify({ rules: [{ id: 'no-transactions', action: 'reject', operation: 'transaction', criteria: [] }] });
    expect((await send('base', { method: 'PUT', target: policy, headers: [['authorization', `Bearer ${operator}`], ['content-type', 'application/json']], body: refuseTransactions })).status).toBe(200);
    const operation = 'POST /v1/wallet/{walletId}/sign-transaction';
    const refused = await send('base', {
      method: 'POST',
      target: `/v1/wallet/${player.walletId}/sign-transaction`,
      headers: [['x-api-key', game.key], ['content-type', 'application/json']],
      body: JSON.stringify({ chain: 'evm', transaction: { chainId: 1 } }),
    });
    expect(answered('base', operation, refused)).toEqual({ status: 403, code: 'POLICY_DENIED', documented: true });
    expect(refused.json).toEqual({ message: expect.any(String), code: 'POLICY_DENIED', details: { ruleId: 'no-transactions', reason: expect.stringContaining('no-transactions') } });
    expect(documents.base.paths['/v1/wallet/{walletId}/sign-transaction'].post.responses['403'].content?.['application/json'].schema.then?.required).toEqual(['details']);
  });
});

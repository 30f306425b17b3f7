import { generateKeyPairSync } from 'node:crypto';
import { DEFAULT_SIGNING_POLICY } from '@game-wallet/contracts';
import { GameFixture, HttpResult, TEST_OPERATOR, TestPlatform, consoleToken, createGame, createKey, http, invitationToken, mappedRoutes, waitFor } from '@game-wallet/testing';
import Ajv2020 from 'ajv/dist/2020';
import { Secret, TOTP } from 'otpauth';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openApiDocument } from '../src/openapi/openapi-document';

type Json = Record<string, unknown>;
type Operation = { responses: Record<string, { content?: { 'application/json': { schema: Json } } }> };
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Json> } };

const EXAMPLES_FILE = join(__dirname, '../src/openapi/examples.json');

/** Secrets in an answer (an API key's secret, a JWT) replaced by values of the same form that grant nothing. */
function redacted(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(redacted);
  }
  if (value === null || typeof value !== 'object') {
    return value;
  }
  return Object.fromEntries(
    Object.entries(value).map(([name, inner]) => {
      if (name === 'key' && typeof inner === 'string') {
        return [name, `gk_${'Example0'.repeat(5)}`];
      }
      if (name === 'link' && typeof inner === 'string') {
        return [name, inner.replace(/#token=.*$/, `#token=${'Example0'.repeat(5)}Exa`)];
      }
      if ((name === 'jwt' || name === 'token') && typeof inner === 'string') {
        const [header] = inner.split('.');
        return [name, `${header}.eyJleGFtcGxlIjp0cnVlfQ.c2lnbmF0dXJl`];
      }
      return [name, redacted(inner)];
    }),
  );
}

/** Routes the gateway serves that are pages, the documents themselves or its internal port, not API operations. */
const NOT_OPERATIONS = ['GET /console', 'GET /console/*', 'GET /docs', 'GET /docs/init.js', 'GET /v1/openapi.json', 'GET /metrics'];

/** `/v1/wallet/{walletId}` → `/v1/wallet/:walletId` (how Nest logs its routes). */
const nestPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

describe('OpenAPI documents and the answers they describe', () => {
  let platform: TestPlatform;
  let documents: Record<'base' | 'core', Document>;
  let operator: string;
  let game: GameFixture;
  const validators = new Map<string, ReturnType<Ajv2020['compile']>>();
  const checked = new Set<string>();

  /** Validates a real answer against its route's schema for that status; the route and status must be documented. */
  const conforms = (port: 'base' | 'core', method: string, path: string, response: HttpResult): void => {
    const operation = documents[port].paths[path]?.[method.toLowerCase()];
    expect(operation).toBeDefined();
    const documented = operation.responses[String(response.status)];
    expect({ route: `${method} ${path}`, status: response.status, documented: documented !== undefined }).toEqual({ route: `${method} ${path}`, status: response.status, documented: true });
    const [mediaType, media] = (Object.entries(documented.content ?? {})[0] ?? []) as [string | undefined, { schema?: Json } | undefined];
    const schema = media?.schema;
    // NDJSON: each line is one value of the schema (the helper parsed a single line as JSON already).
    const values = mediaType === 'application/x-ndjson' && typeof response.body === 'string' ? response.body.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as unknown) : [response.body];
    if (schema === undefined) {
      expect(response.body).toBeUndefined();
    } else {
      const key = `${port} ${method} ${path} ${response.status}`;
      let validate = validators.get(key);
      if (!validate) {
        const ajv = new Ajv2020({ allErrors: true, strict: false });
        ajv.addSchema({ $id: 'doc', components: documents[port].components });
        validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')) as Json);
        validators.set(key, validate);
      }
      for (const value of values) {
        const valid = validate(value);
        expect({ route: `${method} ${path} ${response.status}`, errors: valid ? null : validate.errors }).toEqual({ route: `${method} ${path} ${response.status}`, errors: null });
      }
    }
    expect(response.headers.get('x-request-id')).toBeTruthy();
    checked.add(`${method} ${path}`);
    if (response.status < 300 && response.body !== undefined) {
      answers[`${method.toLowerCase()} ${path} ${response.status}`] ??= redacted(values[0]);
    }
  };
  /** The first real answer of each documented success, for the documents' examples (`UPDATE_OPENAPI_EXAMPLES=1`). */
  const answers: Record<string, unknown> = {};

  beforeAll(async () => {
    platform = await TestPlatform.start('openapi', { env: { LOG_LEVEL: 'debug' } });
    const [base, core] = await Promise.all([http<Document>('GET', `${platform.baseUrl}/v1/openapi.json`), http<Document>('GET', `${platform.coreUrl}/v1/openapi.json`)]);
    expect([base.status, core.status]).toEqual([200, 200]);
    documents = { base: base.body, core: core.body };
    operator = await consoleToken(platform);
    game = await createGame(platform, operator, 'Documented game');
  });

  afterAll(async () => {
    await platform?.stop();
  });

  it('serves each port its document, without a credential, as the code builds it', async () => {
    expect(documents.base).toEqual(openApiDocument('base'));
    expect(documents.core).toEqual(openApiDocument('core'));
    const response = await fetch(`${platform.coreUrl}/v1/openapi.json`);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('serves documents that validate as OpenAPI 3.1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gwt-openapi-'));
    try {
      const files = (['base', 'core'] as const).map((port) => {
        const file = join(dir, `${port}.json`);
        writeFileSync(file, JSON.stringify(documents[port]));
        return file;
      });
      const output = execFileSync(process.execPath, [join(__dirname, '../../../tools/openapi/validate.mjs'), ...files], { encoding: 'utf8' });
      expect(output).toContain(`valid OpenAPI 3.1: ${files[0]}`);
      expect(output).toContain(`valid OpenAPI 3.1: ${files[1]}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('documents every route the gateway serves, and nothing it does not', () => {
    const mapped = mappedRoutes(platform);
    const documented = (['base', 'core'] as const).flatMap((port) =>
      Object.entries(documents[port].paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${nestPath(path)}`)),
    );
    expect([...new Set(mapped.filter((route) => !NOT_OPERATIONS.includes(route)))].sort()).toEqual([...documented].sort());
  });

  it("answers a route only on the port whose document lists it (404 on the other)", async () => {
    for (const [port, other] of [['base', platform.coreUrl], ['core', platform.baseUrl]] as const) {
      for (const [path, methods] of Object.entries(documents[port].paths)) {
        for (const method of Object.keys(methods)) {
          const url = `${other}${path.replace(/\{\w+\}/g, '0190a0a0-0000-7000-8000-000000000000')}`;
          const response = await http<{ code: string }>(method.toUpperCase(), url, { body: method === 'get' || method === 'delete' ? undefined : {} });
          expect({ route: `${method} ${path} on the other port`, status: response.status, code: response.body.code }).toEqual({
            route: `${method} ${path} on the other port`,
            status: 404,
            code: 'NOT_FOUND',
          });
        }
      }
    }
  });

  it('gives real answers of every route the shape its document describes, successes and errors', async () => {
    const { key } = await createKey(platform, operator, game.gameId, 'documented');
    const base = platform.baseUrl;
    const core = platform.coreUrl;
    // Players (core_url)
    const created = await http<{ id: string; profileId: string; walletId: string }>('POST', `${core}/v1/player/create`, { apiKey: key, body: { uniqueId: 'doc-player', userData: { level: 3 } } });
    conforms('core', 'POST', '/v1/player/create', created);
    conforms('core', 'POST', '/v1/player/create', await http('POST', `${core}/v1/player/create`, { apiKey: key, body: { uniqueId: 'doc-player' } }));
    conforms('core', 'POST', '/v1/player/create', await http('POST', `${core}/v1/player/create`, { apiKey: key, body: { uniqueId: '' } }));
    conforms('core', 'POST', '/v1/player/create', await http('POST', `${core}/v1/player/create`, { body: { uniqueId: 'x' } }));
    conforms('core', 'GET', '/v1/player/{playerId}', await http('GET', `${core}/v1/player/${created.body.id}`, { apiKey: key }));
    conforms('core', 'GET', '/v1/player/{playerId}', await http('GET', `${core}/v1/player/unknown`, { apiKey: key }));
    const { profileId, walletId } = created.body;
    // Profiles and wallets (base_url)
    const token = await http<{ jwt: string }>('POST', `${base}/v1/profile/${profileId}/authenticate`, { apiKey: key, body: { duration: 600 } });
    conforms('base', 'POST', '/v1/profile/{id}/authenticate', token);
    conforms('base', 'POST', '/v1/profile/{id}/authenticate', await http('POST', `${base}/v1/profile/${profileId}/authenticate`, { apiKey: key, body: { duration: 1 } }));
    conforms('base', 'GET', '/v1/wallet/{walletId}', await http('GET', `${base}/v1/wallet/${walletId}?include=profile`, { bearer: token.body.jwt }));
    conforms('base', 'GET', '/v1/wallet/{walletId}', await http('GET', `${base}/v1/wallet/${walletId}?chain=sui`, { apiKey: key }));
    conforms('base', 'GET', '/v1/wallet/{walletId}', await http('GET', `${base}/v1/wallet/${walletId}?chain=btc`, { apiKey: key }));
    conforms('base', 'POST', '/v1/wallet/{walletId}/sign', await http('POST', `${base}/v1/wallet/${walletId}/sign`, { apiKey: key, body: { chain: 'evm', message: 'hello' } }));
    conforms('base', 'POST', '/v1/wallet/{walletId}/sign', await http('POST', `${base}/v1/wallet/${walletId}/sign`, { apiKey: key, body: { chain: 'evm', message: 'hello', extra: 1 } }));
    conforms('base', 'POST', '/v1/wallet/{walletId}/sign-transaction', await http('POST', `${base}/v1/wallet/${walletId}/sign-transaction`, {
      apiKey: key,
      body: { chain: 'evm', transaction: { chainId: 8453, nonce: 0, to: '0x000000000000000000000000000000000000dEaD', value: '1000', gasLimit: 21000, maxFeePerGas: '1000000000', maxPriorityFeePerGas: '1000000' } },
    }));
    conforms('base', 'POST', '/v1/wallet/{walletId}/sign-transaction', await http('POST', `${base}/v1/wallet/${walletId}/sign-transaction`, { bearer: token.body.jwt, body: { chain: 'evm', transaction: { chainId: 1 } } }));
    const typedData = { domain: { name: 'Space Miners', chainId: 8453 }, types: { Claim: [{ name: 'item', type: 'string' }, { name: 'amount', type: 'uint256' }] }, primaryType: 'Claim', message: { item: 'sword', amount: 1 } };
    conforms('base', 'POST', '/v1/wallet/{walletId}/sign-typed-data', await http('POST', `${base}/v1/wallet/${walletId}/sign-typed-data`, { apiKey: key, body: typedData }));
    conforms('base', 'POST', '/v1/wallet/{walletId}/sign-typed-data', await http('POST', `${base}/v1/wallet/${walletId}/sign-typed-data`, { apiKey: key, body: { ...typedData, primaryType: 'Nothing' } }));
    conforms('base', 'POST', '/v1/profile/{id}/revoke', await http('POST', `${base}/v1/profile/${profileId}/revoke`, { apiKey: key }));
    conforms('base', 'GET', '/v1/wallet/{walletId}', await http('GET', `${base}/v1/wallet/${walletId}`, { bearer: token.body.jwt }));
    conforms('base', 'GET', '/v1/.well-known/jwks.json', await http('GET', `${base}/v1/.well-known/jwks.json`));
    conforms('base', 'GET', '/v1/health', await http('GET', `${base}/v1/health`));
    conforms('base', 'GET', '/v1/health/live', await http('GET', `${base}/v1/health/live`));
    conforms('base', 'GET', '/v1/health/services', await http('GET', `${base}/v1/health/services`));
    // Console
    const session = await http<{ token: string }>('POST', `${base}/v1/console/session`, { body: { email: 'nobody@example.com', password: 'wrong password' } });
    conforms('base', 'POST', '/v1/console/session', session);
    const signedIn = await http<{ token: string }>('POST', `${base}/v1/console/session`, { body: { email: TEST_OPERATOR.email, password: TEST_OPERATOR.password } });
    conforms('base', 'POST', '/v1/console/session', signedIn);
    const asOperator = { bearer: signedIn.body.token };
    conforms('base', 'GET', '/v1/console/session', await http('GET', `${base}/v1/console/session`, asOperator));
    conforms('base', 'GET', '/v1/console/endpoints', await http('GET', `${base}/v1/console/endpoints`, asOperator));
    conforms('base', 'GET', '/v1/console/games', await http('GET', `${base}/v1/console/games?limit=1`, asOperator));
    conforms('base', 'GET', '/v1/console/games', await http('GET', `${base}/v1/console/games?limit=0`, asOperator));
    const newGame = await http<{ id: string }>('POST', `${base}/v1/console/games`, { ...asOperator, body: { name: 'Another documented game' } });
    conforms('base', 'POST', '/v1/console/games', newGame);
    conforms('base', 'GET', '/v1/console/games/{gameId}', await http('GET', `${base}/v1/console/games/${newGame.body.id}`, asOperator));
    conforms('base', 'GET', '/v1/console/games/{gameId}', await http('GET', `${base}/v1/console/games/unknown`, asOperator));
    const newKey = await http<{ id: string }>('POST', `${base}/v1/console/games/${game.gameId}/api-keys`, { ...asOperator, body: { name: 'spare' } });
    conforms('base', 'POST', '/v1/console/games/{gameId}/api-keys', newKey);
    conforms('base', 'GET', '/v1/console/games/{gameId}/api-keys', await http('GET', `${base}/v1/console/games/${game.gameId}/api-keys`, asOperator));
    conforms('base', 'PATCH', '/v1/console/games/{gameId}/api-keys/{keyId}', await http('PATCH', `${base}/v1/console/games/${game.gameId}/api-keys/${newKey.body.id}`, { ...asOperator, body: { active: false } }));
    const signingKeys = `${base}/v1/console/games/${game.gameId}/api-keys/${newKey.body.id}/signing-keys`;
    const publicKey = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
    const signingKey = await http<{ id: string }>('POST', signingKeys, { ...asOperator, body: { name: 'build server', publicKey } });
    conforms('base', 'POST', '/v1/console/games/{gameId}/api-keys/{keyId}/signing-keys', signingKey);
    conforms('base', 'POST', '/v1/console/games/{gameId}/api-keys/{keyId}/signing-keys', await http('POST', signingKeys, { ...asOperator, body: { publicKey } }));
    conforms('base', 'PATCH', '/v1/console/games/{gameId}/api-keys/{keyId}', await http('PATCH', `${base}/v1/console/games/${game.gameId}/api-keys/${newKey.body.id}`, { ...asOperator, body: { signedRequests: 'signing' } }));
    conforms('base', 'DELETE', '/v1/console/games/{gameId}/api-keys/{keyId}/signing-keys/{signingKeyId}', await http('DELETE', `${signingKeys}/${signingKey.body.id}`, asOperator));
    await http('PATCH', `${base}/v1/console/games/${game.gameId}/api-keys/${newKey.body.id}`, { ...asOperator, body: { signedRequests: 'off' } });
    conforms('base', 'DELETE', '/v1/console/games/{gameId}/api-keys/{keyId}/signing-keys/{signingKeyId}', await http('DELETE', `${signingKeys}/${signingKey.body.id}`, asOperator));
    conforms('base', 'DELETE', '/v1/console/games/{gameId}/api-keys/{keyId}/signing-keys/{signingKeyId}', await http('DELETE', `${signingKeys}/${signingKey.body.id}`, asOperator));
    conforms('base', 'DELETE', '/v1/console/games/{gameId}/api-keys/{keyId}', await http('DELETE', `${base}/v1/console/games/${game.gameId}/api-keys/${newKey.body.id}?revokeTokens=true`, asOperator));
    conforms('base', 'DELETE', '/v1/console/games/{gameId}/api-keys/{keyId}', await http('DELETE', `${base}/v1/console/games/${game.gameId}/api-keys/${newKey.body.id}`, asOperator));
    conforms('base', 'GET', '/v1/console/games/{gameId}/audit', await http('GET', `${base}/v1/console/games/${game.gameId}/audit`, asOperator));
    conforms('base', 'GET', '/v1/console/games/{gameId}/audit/export', await http('GET', `${base}/v1/console/games/${game.gameId}/audit/export`, asOperator));
    conforms('base', 'GET', '/v1/console/games/{gameId}/audit/export', await http('GET', `${base}/v1/console/games/${game.gameId}/audit/export?since=yesterday`, asOperator));
    // Webhooks: endpoints, their secrets and delivery log
    {
      const hooks = (path = '') => `${base}/v1/console/games/${game.gameId}/webhooks${path}`;
      const endpoint = await http<{ id: string }>('POST', hooks(), { ...asOperator, body: { url: 'http://127.0.0.1:9/documented', eventTypes: ['player.created', 'wallet.signed'], description: 'Documented receiver' } });
      conforms('base', 'POST', '/v1/console/games/{gameId}/webhooks', endpoint);
      conforms('base', 'POST', '/v1/console/games/{gameId}/webhooks', await http('POST', hooks(), { ...asOperator, body: { url: 'ftp://example.com', eventTypes: ['*'] } }));
      conforms('base', 'GET', '/v1/console/games/{gameId}/webhooks', await http('GET', hooks(), asOperator));
      conforms('base', 'PATCH', '/v1/console/games/{gameId}/webhooks/{endpointId}', await http('PATCH', hooks(`/${endpoint.body.id}`), { ...asOperator, body: { eventTypes: ['*'] } }));
      conforms('base', 'PATCH', '/v1/console/games/{gameId}/webhooks/{endpointId}', await http('PATCH', hooks('/01900000-0000-7000-8000-000000000000'), { ...asOperator, body: { enabled: false } }));
      conforms('base', 'POST', '/v1/console/games/{gameId}/webhooks/{endpointId}/rotate-secret', await http('POST', hooks(`/${endpoint.body.id}/rotate-secret`), { ...asOperator, body: { overlapSeconds: 3600 } }));
      const test = await http<{ id: string }>('POST', hooks(`/${endpoint.body.id}/test`), asOperator);
      conforms('base', 'POST', '/v1/console/games/{gameId}/webhooks/{endpointId}/test', test);
      // Nothing listens on port 9: the first attempt fails and the log shows why.
      const attempted = await waitFor(async () => {
        const page = await http<{ items: { id: string; attempts: number }[] }>('GET', hooks(`/${endpoint.body.id}/deliveries`), asOperator);
        return page.body.items.some((delivery) => delivery.id === test.body.id && delivery.attempts > 0) ? page : undefined;
      }, 10_000, 'an attempt of the test event');
      conforms('base', 'GET', '/v1/console/games/{gameId}/webhooks/{endpointId}/deliveries', attempted);
      conforms('base', 'GET', '/v1/console/games/{gameId}/webhooks/{endpointId}/deliveries', await http('GET', hooks(`/${endpoint.body.id}/deliveries?status=lost`), asOperator));
      conforms('base', 'POST', '/v1/console/games/{gameId}/webhooks/{endpointId}/deliveries/{deliveryId}/redeliver', await http('POST', hooks(`/${endpoint.body.id}/deliveries/${test.body.id}/redeliver`), asOperator));
      conforms('base', 'POST', '/v1/console/games/{gameId}/webhooks/{endpointId}/redeliver', await http('POST', hooks(`/${endpoint.body.id}/redeliver`), { ...asOperator, body: { since: '2026-01-01T00:00:00Z' } }));
      conforms('base', 'DELETE', '/v1/console/games/{gameId}/webhooks/{endpointId}', await http('DELETE', hooks(`/${endpoint.body.id}`), asOperator));
      conforms('base', 'DELETE', '/v1/console/games/{gameId}/webhooks/{endpointId}', await http('DELETE', hooks(`/${endpoint.body.id}`), asOperator));
    }
    // Signing policy: rules, versions, dry runs and the draft
    const policyUrl = (path = '') => `${base}/v1/console/games/${game.gameId}/signing-policy${path}`;
    const policy = await http<{ rules: { id: string }[]; version: number }>('GET', policyUrl(), asOperator);
    conforms('base', 'GET', '/v1/console/games/{gameId}/signing-policy', policy);
    const rules = [
      { id: 'shop-purchases', description: 'Purchases at the shop', action: 'accept', operation: 'transaction', chains: ['evm'], credentials: { kinds: ['apiKey'] }, criteria: [{ type: 'evmAddress', operator: 'in', values: ['0x000000000000000000000000000000000000dEaD'] }, { type: 'evmValue', operator: '<=', value: '1000000000000000' }] },
      ...policy.body.rules,
    ];
    conforms('base', 'PUT', '/v1/console/games/{gameId}/signing-policy', await http('PUT', policyUrl(), { ...asOperator, headers: { 'if-match': `"${policy.body.version}"` }, body: { rules } }));
    conforms('base', 'PUT', '/v1/console/games/{gameId}/signing-policy', await http('PUT', policyUrl(), { ...asOperator, headers: { 'if-match': `"${policy.body.version}"` }, body: { rules } }));
    conforms('base', 'PUT', '/v1/console/games/{gameId}/signing-policy', await http('PUT', policyUrl(), { ...asOperator, body: { rules: [{ id: 'no id' }] } }));
    conforms('base', 'PUT', '/v1/console/games/{gameId}/signing-policy', await http('PUT', policyUrl(), { ...asOperator, body: { ...DEFAULT_SIGNING_POLICY, evm: {} } }));
    conforms('base', 'GET', '/v1/console/games/{gameId}/signing-policy/versions', await http('GET', policyUrl('/versions?limit=1'), asOperator));
    conforms('base', 'GET', '/v1/console/games/{gameId}/signing-policy/versions', await http('GET', policyUrl('/versions?limit=x'), asOperator));
    const evaluation = { operation: 'transaction', chain: 'evm', credential: { kind: 'apiKey' }, walletId, payload: { chainId: 8453, to: '0x000000000000000000000000000000000000dEaD', value: '1000', gasLimit: 21000, maxFeePerGas: '1000000000', maxPriorityFeePerGas: '1000000' } };
    conforms('base', 'POST', '/v1/console/games/{gameId}/signing-policy/evaluate', await http('POST', policyUrl('/evaluate'), { ...asOperator, body: evaluation }));
    conforms('base', 'POST', '/v1/console/games/{gameId}/signing-policy/evaluate', await http('POST', policyUrl('/evaluate'), { ...asOperator, body: { ...evaluation, policy: 'draft' } }));
    conforms('base', 'GET', '/v1/console/games/{gameId}/signing-policy/draft', await http('GET', policyUrl('/draft'), asOperator));
    // A draft that refuses the API key's messages, which the active policy accepts: one signature shows a difference.
    const draftRules = rules.filter((rule) => rule.id !== 'shop-purchases' && rule.id !== 'apiKey-message');
    conforms('base', 'PUT', '/v1/console/games/{gameId}/signing-policy/draft', await http('PUT', policyUrl('/draft'), { ...asOperator, body: { rules: draftRules } }));
    conforms('base', 'GET', '/v1/console/games/{gameId}/signing-policy/draft', await http('GET', policyUrl('/draft'), asOperator));
    conforms('base', 'POST', '/v1/console/games/{gameId}/signing-policy/evaluate', await http('POST', policyUrl('/evaluate'), { ...asOperator, body: { ...evaluation, policy: 'draft' } }));
    conforms('base', 'POST', '/v1/wallet/{walletId}/sign', await http('POST', `${base}/v1/wallet/${walletId}/sign`, { apiKey: key, body: { chain: 'sol', message: 'shadowed' } }));
    // The draft is evaluated after the answer: its difference is listed shortly after.
    const differences = await waitFor(async () => {
      const page = await http<{ items: unknown[] }>('GET', policyUrl('/draft/differences?limit=5'), asOperator);
      return page.body.items.length > 0 ? page : undefined;
    }, 10_000, "the draft's difference");
    conforms('base', 'GET', '/v1/console/games/{gameId}/signing-policy/draft/differences', differences);
    conforms('base', 'POST', '/v1/console/games/{gameId}/signing-policy/draft/replay', await http('POST', policyUrl('/draft/replay'), { ...asOperator, body: {} }));
    conforms('base', 'POST', '/v1/console/games/{gameId}/signing-policy/draft/replay', await http('POST', policyUrl('/draft/replay'), { ...asOperator, body: { since: 'yesterday' } }));
    conforms('base', 'POST', '/v1/console/games/{gameId}/signing-policy/draft/activate', await http('POST', policyUrl('/draft/activate'), { ...asOperator, headers: { 'if-match': '"0"' } }));
    conforms('base', 'POST', '/v1/console/games/{gameId}/signing-policy/draft/activate', await http('POST', policyUrl('/draft/activate'), asOperator));
    conforms('base', 'POST', '/v1/console/games/{gameId}/signing-policy/draft/activate', await http('POST', policyUrl('/draft/activate'), asOperator));
    conforms('base', 'PUT', '/v1/console/games/{gameId}/signing-policy/draft', await http('PUT', policyUrl('/draft'), { ...asOperator, body: { rules: [] } }));
    conforms('base', 'DELETE', '/v1/console/games/{gameId}/signing-policy/draft', await http('DELETE', policyUrl('/draft'), asOperator));
    conforms('base', 'DELETE', '/v1/console/games/{gameId}/signing-policy/draft', await http('DELETE', policyUrl('/draft'), asOperator));
    conforms('base', 'GET', '/v1/console/games/{gameId}/players', await http('GET', `${base}/v1/console/games/${game.gameId}/players?uniqueId=doc-player`, asOperator));
    // Two-factor sign-in, step-up and the operator's own account
    const account = (path = '') => `${base}/v1/console/account${path}`;
    conforms('base', 'PATCH', '/v1/console/account', await http('PATCH', account(), { ...asOperator, body: { displayName: 'Documented Operator' } }));
    conforms('base', 'PATCH', '/v1/console/account', await http('PATCH', account(), { ...asOperator, body: {} }));
    conforms('base', 'GET', '/v1/console/account/sessions', await http('GET', account('/sessions'), asOperator));
    const totp = await http<{ secret: string }>('POST', account('/totp'), asOperator);
    conforms('base', 'POST', '/v1/console/account/totp', totp);
    const totpCode = (at: number) => TOTP.generate({ secret: Secret.fromBase32(totp.body.secret), timestamp: at });
    conforms('base', 'POST', '/v1/console/account/totp/confirm', await http('POST', account('/totp/confirm'), { ...asOperator, body: { code: 'abc' } }));
    conforms('base', 'POST', '/v1/console/account/totp/confirm', await http('POST', account('/totp/confirm'), { ...asOperator, body: { code: totpCode(Date.now()) } }));
    const renewed = await http<{ recoveryCodes: string[] }>('POST', account('/recovery-codes'), asOperator);
    conforms('base', 'POST', '/v1/console/account/recovery-codes', renewed);
    conforms('base', 'POST', '/v1/console/session/step-up', await http('POST', `${base}/v1/console/session/step-up`, { ...asOperator, body: { recoveryCode: renewed.body.recoveryCodes[0] } }));
    conforms('base', 'POST', '/v1/console/session/step-up', await http('POST', `${base}/v1/console/session/step-up`, { ...asOperator, body: { password: TEST_OPERATOR.password } }));
    conforms('base', 'POST', '/v1/console/session/step-up/options', await http('POST', `${base}/v1/console/session/step-up/options`, asOperator));
    conforms('base', 'POST', '/v1/console/account/passkeys/options', await http('POST', account('/passkeys/options'), asOperator));
    conforms('base', 'POST', '/v1/console/account/passkeys', await http('POST', account('/passkeys'), { ...asOperator, body: { name: 'Laptop', response: {} } }));
    conforms('base', 'DELETE', '/v1/console/account/passkeys/{passkeyId}', await http('DELETE', account('/passkeys/0190a0a0-0000-7000-8000-000000000000'), asOperator));
    const challenge = await http<{ secondFactor: { challenge: string } }>('POST', `${base}/v1/console/session`, { body: TEST_OPERATOR });
    conforms('base', 'POST', '/v1/console/session', challenge);
    conforms('base', 'POST', '/v1/console/session/second-factor', await http('POST', `${base}/v1/console/session/second-factor`, { body: { challenge: 'unknown', totp: '123456' } }));
    const secondFactor = await http<{ token: string }>('POST', `${base}/v1/console/session/second-factor`, { body: { challenge: challenge.body.secondFactor.challenge, totp: totpCode(Date.now() + 30_000) } });
    conforms('base', 'POST', '/v1/console/session/second-factor', secondFactor);
    const { sessionId: otherSession } = (await http<{ sessionId: string }>('GET', `${base}/v1/console/session`, { bearer: secondFactor.body.token })).body;
    conforms('base', 'DELETE', '/v1/console/account/sessions/{sessionId}', await http('DELETE', account(`/sessions/${otherSession}`), asOperator));
    conforms('base', 'DELETE', '/v1/console/account/sessions/{sessionId}', await http('DELETE', account(`/sessions/${otherSession}`), asOperator));
    conforms('base', 'PUT', '/v1/console/account/password', await http('PUT', account('/password'), { ...asOperator, body: { currentPassword: TEST_OPERATOR.password, newPassword: 'short' } }));
    conforms('base', 'PUT', '/v1/console/account/password', await http('PUT', account('/password'), { ...asOperator, body: { currentPassword: TEST_OPERATOR.password, newPassword: TEST_OPERATOR.password } }));
    conforms('base', 'DELETE', '/v1/console/account/sessions', await http('DELETE', account('/sessions'), asOperator));
    conforms('base', 'DELETE', '/v1/console/account/totp', await http('DELETE', account('/totp'), asOperator));
    conforms('base', 'DELETE', '/v1/console/account/totp', await http('DELETE', account('/totp'), asOperator));
    // ---- the console's team (operators, invitations, settings) ----
    {
      const fresh = { bearer: await consoleToken(platform) };
      const team = (path: string) => `${base}/v1/console${path}`;
      conforms('base', 'GET', '/v1/console/operators', await http('GET', team('/operators'), fresh));
      conforms('base', 'GET', '/v1/console/invitations', await http('GET', team('/invitations'), fresh));
      const invited = await http<{ id: string; link: string }>('POST', team('/invitations'), { ...fresh, body: { email: 'documented@example.com', grants: [{ role: 'viewer', gameId: game.gameId }] } });
      conforms('base', 'POST', '/v1/console/invitations', invited);
      conforms('base', 'POST', '/v1/console/invitations', await http('POST', team('/invitations'), { ...fresh, body: { email: 'not an e-mail', grants: [] } }));
      const inviteToken = invitationToken(invited.body.link);
      conforms('base', 'POST', '/v1/console/invitations/preview', await http('POST', team('/invitations/preview'), { body: { token: inviteToken } }));
      conforms('base', 'POST', '/v1/console/invitations/preview', await http('POST', team('/invitations/preview'), { body: { token: 'unknown' } }));
      const joined = await http<{ token: string }>('POST', team('/invitations/accept'), { body: { token: inviteToken, password: 'documented password', displayName: 'Documented' } });
      conforms('base', 'POST', '/v1/console/invitations/accept', joined);
      conforms('base', 'POST', '/v1/console/invitations/accept', await http('POST', team('/invitations/accept'), { body: { token: inviteToken, password: 'documented password', displayName: 'Documented' } }));
      const joinedId = (await http<{ operator: { id: string } }>('GET', `${base}/v1/console/session`, { bearer: joined.body.token })).body.operator.id;
      conforms('base', 'PATCH', '/v1/console/operators/{operatorId}', await http('PATCH', team(`/operators/${joinedId}`), { ...fresh, body: { grants: [{ role: 'support', gameId: game.gameId }] } }));
      conforms('base', 'PATCH', '/v1/console/operators/{operatorId}', await http('PATCH', team(`/operators/${joinedId}`), { ...fresh, body: {} }));
      const sessions = await http<{ items: { id: string }[] }>('GET', team(`/operators/${joinedId}/sessions`), fresh);
      conforms('base', 'GET', '/v1/console/operators/{operatorId}/sessions', sessions);
      conforms('base', 'DELETE', '/v1/console/operators/{operatorId}/sessions/{sessionId}', await http('DELETE', team(`/operators/${joinedId}/sessions/${sessions.body.items[0].id}`), fresh));
      conforms('base', 'DELETE', '/v1/console/operators/{operatorId}/sessions/{sessionId}', await http('DELETE', team(`/operators/${joinedId}/sessions/${sessions.body.items[0].id}`), fresh));
      conforms('base', 'DELETE', '/v1/console/operators/{operatorId}/sessions', await http('DELETE', team(`/operators/${joinedId}/sessions`), fresh));
      const pending = await http<{ id: string }>('POST', team('/invitations'), { ...fresh, body: { email: 'revoked@example.com', grants: [{ role: 'viewer', gameId: null }] } });
      conforms('base', 'DELETE', '/v1/console/invitations/{invitationId}', await http('DELETE', team(`/invitations/${pending.body.id}`), fresh));
      conforms('base', 'DELETE', '/v1/console/invitations/{invitationId}', await http('DELETE', team(`/invitations/${pending.body.id}`), fresh));
      conforms('base', 'GET', '/v1/console/settings', await http('GET', team('/settings'), fresh));
      conforms('base', 'PUT', '/v1/console/settings', await http('PUT', team('/settings'), { ...fresh, body: { requireTwoFactor: false } }));
      conforms('base', 'PUT', '/v1/console/settings', await http('PUT', team('/settings'), { ...fresh, body: { requireTwoFactor: 'no' } }));
      conforms('base', 'DELETE', '/v1/console/operators/{operatorId}', await http('DELETE', team(`/operators/${joinedId}`), fresh));
      conforms('base', 'DELETE', '/v1/console/operators/{operatorId}', await http('DELETE', team(`/operators/${joinedId}`), fresh));
    }
    conforms('base', 'DELETE', '/v1/console/session', await http('DELETE', `${base}/v1/console/session`, asOperator));
    conforms('base', 'GET', '/v1/console/session', await http('GET', `${base}/v1/console/session`, asOperator));

    if (process.env.UPDATE_OPENAPI_EXAMPLES === '1') {
      writeFileSync(EXAMPLES_FILE, `${JSON.stringify(Object.fromEntries(Object.entries(answers).sort(([a], [b]) => a.localeCompare(b))), null, 2)}\n`);
    }
    // Every success the documents describe has an example taken from such an answer (and it matches its schema).
    const examples = JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(answers).filter((answer) => !(answer in examples))).toEqual([]);
    const every = (['base', 'core'] as const).flatMap((port) => Object.entries(documents[port].paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`)));
    expect(every.filter((route) => !checked.has(route))).toEqual([]);
  });

  it('serves the docs page and its files from this gateway, with the console security headers, on both ports', async () => {
    for (const url of [platform.baseUrl, platform.coreUrl]) {
      const page = await fetch(`${url}/docs`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      const html = await page.text();
      expect(html).not.toMatch(/<script>[^<]/);
      for (const asset of [...html.matchAll(/(?:src|href)="(\/docs\/[^"]+)"/g)].map(([, path]) => path)) {
        const response = await fetch(`${url}${asset}`);
        expect({ asset, status: response.status }).toEqual({ asset, status: 200 });
      }
      expect((await fetch(`${url}/docs/assets/index.html`)).status).toBe(404);
    }
  });
});

import { DEFAULT_SIGNING_POLICY, rulesOfPolicy } from '@game-wallet/contracts';
import {
  GameFixture,
  TestPlatform,
  claimsOf,
  consoleToken,
  createGame,
  createKey,
  createPlayer,
  createProfile,
  createWallet,
  http,
  mappedRoutes,
  profileJwt,
  signWithPlatformKey,
  signWithUnknownKey,
  tamper,
} from '@game-wallet/testing';
import { Agent, request } from 'node:http';
import { openApiDocument } from '../src/openapi/openapi-document';

/**
 * Every public route × every kind of credential → the SPEC status and code. The table is generated from ROUTES, and
 * the suite fails when the gateway serves a route that is in neither ROUTES nor PUBLIC_ROUTES.
 */
/** `signing`: an API key, or the wallet's own profile JWT, which the default signing policy then denies. */
type Access = 'apiKeyOrOwnProfile' | 'apiKeyOnly' | 'signing' | 'console';

interface RouteCase {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** as the gateway maps it (`:param`) */
  route: string;
  origin: 'base' | 'core';
  access: Access;
  /** answered with the right credential */
  success: number;
  body?: unknown;
  /**
   * the route's own target: a fresh profile (revoke), the spare key (PATCH, DELETE), a separate session (sign-out), a
   * draft signing policy (the draft's routes but PUT)
   */
  ownTarget?: 'profile' | 'spareKey' | 'session' | 'draft';
  /** the route acts on the caller's own game only (creation): another game's key simply succeeds in its game */
  anyGame?: boolean;
}

/** The default policy as rules: what a draft of the matrix holds, so that activating it changes nothing. */
const DEFAULT_RULES = rulesOfPolicy(DEFAULT_SIGNING_POLICY).rules;

const ROUTES: RouteCase[] = [
  { method: 'POST', route: '/v1/profile/:id/authenticate', origin: 'base', access: 'apiKeyOrOwnProfile', success: 200, body: {} },
  { method: 'POST', route: '/v1/profile/:id/revoke', origin: 'base', access: 'apiKeyOnly', success: 204, ownTarget: 'profile' },
  { method: 'GET', route: '/v1/console/games', origin: 'base', access: 'console', success: 200 },
  { method: 'POST', route: '/v1/console/games', origin: 'base', access: 'console', success: 201, body: { name: 'Matrix game' } },
  { method: 'GET', route: '/v1/console/games/:gameId', origin: 'base', access: 'console', success: 200 },
  { method: 'GET', route: '/v1/console/games/:gameId/api-keys', origin: 'base', access: 'console', success: 200 },
  { method: 'POST', route: '/v1/console/games/:gameId/api-keys', origin: 'base', access: 'console', success: 201, body: { name: 'matrix' } },
  { method: 'PATCH', route: '/v1/console/games/:gameId/api-keys/:keyId', origin: 'base', access: 'console', success: 200, body: { active: true }, ownTarget: 'spareKey' },
  { method: 'DELETE', route: '/v1/console/games/:gameId/api-keys/:keyId', origin: 'base', access: 'console', success: 204, ownTarget: 'spareKey' },
  { method: 'GET', route: '/v1/console/games/:gameId/audit', origin: 'base', access: 'console', success: 200 },
  { method: 'GET', route: '/v1/console/games/:gameId/signing-policy', origin: 'base', access: 'console', success: 200 },
  // The policy stays the default (the signing routes below rely on it): the first shape, and the same as rules.
  {
    method: 'PUT',
    route: '/v1/console/games/:gameId/signing-policy',
    origin: 'base',
    access: 'console',
    success: 200,
    body: {
      operations: { apiKey: ['message', 'transaction', 'typed-data'], profile: ['message'] },
      evm: { chainIds: null, maxValueWei: null, contracts: null },
      sol: { programs: null, maxLamports: null },
      sui: { packages: null, allowTransfers: true },
    },
  },
  { method: 'GET', route: '/v1/console/games/:gameId/signing-policy/versions', origin: 'base', access: 'console', success: 200 },
  {
    method: 'POST',
    route: '/v1/console/games/:gameId/signing-policy/evaluate',
    origin: 'base',
    access: 'console',
    success: 200,
    body: { operation: 'message', chain: 'evm', credential: { kind: 'profile' }, payload: 'aGk=' },
  },
  { method: 'PUT', route: '/v1/console/games/:gameId/signing-policy/draft', origin: 'base', access: 'console', success: 200, body: { rules: DEFAULT_RULES } },
  { method: 'GET', route: '/v1/console/games/:gameId/signing-policy/draft', origin: 'base', access: 'console', success: 200, ownTarget: 'draft' },
  { method: 'GET', route: '/v1/console/games/:gameId/signing-policy/draft/differences', origin: 'base', access: 'console', success: 200 },
  { method: 'POST', route: '/v1/console/games/:gameId/signing-policy/draft/replay', origin: 'base', access: 'console', success: 200, body: {}, ownTarget: 'draft' },
  { method: 'POST', route: '/v1/console/games/:gameId/signing-policy/draft/activate', origin: 'base', access: 'console', success: 200, ownTarget: 'draft' },
  { method: 'DELETE', route: '/v1/console/games/:gameId/signing-policy/draft', origin: 'base', access: 'console', success: 204, ownTarget: 'draft' },
  { method: 'GET', route: '/v1/wallet/:walletId', origin: 'base', access: 'apiKeyOrOwnProfile', success: 200 },
  { method: 'POST', route: '/v1/wallet/:walletId/sign', origin: 'base', access: 'apiKeyOrOwnProfile', success: 200, body: { chain: 'sol', message: 'hi' } },
  { method: 'POST', route: '/v1/wallet/:walletId/sign-transaction', origin: 'base', access: 'signing', success: 200, body: { chain: 'evm', transaction: { chainId: 1 } } },
  {
    method: 'POST',
    route: '/v1/wallet/:walletId/sign-typed-data',
    origin: 'base',
    access: 'signing',
    success: 200,
    body: { domain: { name: 'Matrix' }, types: { Hello: [{ name: 'text', type: 'string' }] }, primaryType: 'Hello', message: { text: 'hi' } },
  },
  { method: 'POST', route: '/v1/player/create', origin: 'core', access: 'apiKeyOnly', success: 201, body: { uniqueId: 'matrix' }, anyGame: true },
  { method: 'GET', route: '/v1/player/:playerId', origin: 'core', access: 'apiKeyOnly', success: 200 },
  { method: 'GET', route: '/v1/console/games/:gameId/players', origin: 'base', access: 'console', success: 200 },
  { method: 'GET', route: '/v1/console/session', origin: 'base', access: 'console', success: 200 },
  { method: 'GET', route: '/v1/console/endpoints', origin: 'base', access: 'console', success: 200 },
  { method: 'DELETE', route: '/v1/console/session', origin: 'base', access: 'console', success: 204, ownTarget: 'session' },
];

/** Routes of the gateway's internal port (never routed publicly). */
const INTERNAL_ROUTES = ['GET /metrics'];

/** Routes that take no credential at all (the web console's pages are public; its data comes from the console API). */
const PUBLIC_ROUTES = [
  'GET /v1/health',
  'GET /v1/health/live',
  'GET /v1/health/services',
  'GET /v1/.well-known/jwks.json',
  'POST /v1/console/session',
  'GET /console',
  'GET /console/*',
  'GET /v1/openapi.json',
  'GET /docs',
  'GET /docs/init.js',
];

const CREDENTIALS = [
  'none',
  'malformed key',
  'unknown key',
  'deleted key',
  'inactive key',
  "another game's key",
  'own profile JWT',
  "another profile's JWT",
  'expired JWT',
  'tampered JWT',
  'revoked JWT',
  'JWT signed by an unknown key',
  'malformed JWT',
  'console token',
  'own key',
] as const;
type Credential = (typeof CREDENTIALS)[number];

function expected(route: RouteCase, credential: Credential): [number, string | undefined] {
  if (route.access === 'console') {
    switch (credential) {
      case 'console token':
        return [route.success, undefined];
      case 'none':
      case 'malformed key':
      case 'unknown key':
      case 'deleted key':
      case 'inactive key':
      case "another game's key":
      case 'own key':
        return [401, 'UNAUTHENTICATED'];
      default:
        return [401, 'INVALID_TOKEN'];
    }
  }
  switch (credential) {
    case 'none':
      return [401, 'UNAUTHENTICATED'];
    case 'malformed key':
    case 'unknown key':
    case 'deleted key':
      return [401, 'INVALID_API_KEY'];
    case 'inactive key':
      return [403, 'API_KEY_INACTIVE'];
    case "another game's key":
      return route.anyGame ? [route.success, undefined] : [403, 'FORBIDDEN'];
    case 'own key':
      return [route.success, undefined];
    case 'own profile JWT':
      return route.access === 'apiKeyOnly' ? [403, 'API_KEY_REQUIRED'] : route.access === 'signing' ? [403, 'POLICY_DENIED'] : [route.success, undefined];
    case "another profile's JWT":
      return route.access === 'apiKeyOnly' ? [403, 'API_KEY_REQUIRED'] : [403, 'FORBIDDEN'];
    case 'expired JWT':
      return [401, 'TOKEN_EXPIRED'];
    case 'revoked JWT':
      return [401, 'TOKEN_REVOKED'];
    case 'tampered JWT':
    case 'JWT signed by an unknown key':
    case 'malformed JWT':
    case 'console token':
      return [401, 'INVALID_TOKEN'];
  }
}

describe('authorization matrix (every public route × every credential)', () => {
  let platform: TestPlatform;
  let operatorToken: string;
  let own: GameFixture;
  let other: GameFixture;
  const headers = new Map<Credential, Record<string, string>>();
  let targetProfile: string;
  let targetWallet: string;
  let targetPlayer: string;
  let ownJwt: string;

  beforeAll(async () => {
    // Hundreds of deliberate 401s from one address: the per-IP limit on failed authentications has its own suite.
    platform = await TestPlatform.start('matrix', { env: { LOG_LEVEL: 'debug', RATE_LIMIT_AUTH_FAILURES_PER_IP: '100000' } });
    operatorToken = await consoleToken(platform);
    own = await createGame(platform, operatorToken, 'Own game');
    other = await createGame(platform, operatorToken, 'Other game');
    const inactive = await createKey(platform, operatorToken, own.gameId, 'inactive');
    await http('PATCH', `${platform.baseUrl}/v1/console/games/${own.gameId}/api-keys/${inactive.keyId}`, { bearer: operatorToken, body: { active: false } });
    const deleted = await createKey(platform, operatorToken, own.gameId, 'deleted');
    await http('DELETE', `${platform.baseUrl}/v1/console/games/${own.gameId}/api-keys/${deleted.keyId}`, { bearer: operatorToken });
    targetProfile = (await createProfile(platform, own)).id;
    targetWallet = await createWallet(platform, own, targetProfile);
    targetPlayer = (await createPlayer(platform, own.key, 'matrix-target')).id;
    ownJwt = await profileJwt(platform, targetProfile, own.key);
    const otherProfile = (await createProfile(platform, own)).id;
    const revokedProfile = (await createProfile(platform, own)).id;
    const revokedJwt = await profileJwt(platform, revokedProfile, own.key);
    await http('POST', `${platform.baseUrl}/v1/profile/${revokedProfile}/revoke`, { apiKey: own.key });
    const now = Math.floor(Date.now() / 1000);
    const expired = await signWithPlatformKey(platform, { ...claimsOf(ownJwt), iat: now - 7200, exp: now - 3600 });
    const key = (value: string) => ({ 'x-api-key': value });
    const bearer = (value: string) => ({ authorization: `Bearer ${value}` });
    headers.set('none', {});
    headers.set('malformed key', key('not-a-key'));
    headers.set('unknown key', key(`gk_${'x'.repeat(40)}`));
    headers.set('deleted key', key(deleted.key));
    headers.set('inactive key', key(inactive.key));
    headers.set("another game's key", key(other.key));
    headers.set('own key', key(own.key));
    headers.set("another profile's JWT", bearer(await profileJwt(platform, otherProfile, own.key)));
    headers.set('expired JWT', bearer(expired));
    headers.set('tampered JWT', bearer(tamper(ownJwt, { exp: now + 999_999 })));
    headers.set('revoked JWT', bearer(revokedJwt));
    headers.set('JWT signed by an unknown key', bearer(signWithUnknownKey(claimsOf(ownJwt))));
    headers.set('malformed JWT', bearer('not.a.jwt'));
    headers.set('console token', bearer(operatorToken));
  });

  afterAll(async () => {
    await platform.stop();
  });

  /** Each route's own target, made once per route (so a revoke or a delete does not spoil the other routes). */
  const targets = new Map<string, Promise<{ path: string; ownJwt: string; console: string }>>();
  const targetOf = (route: RouteCase): Promise<{ path: string; ownJwt: string; console: string }> => {
    const made = targets.get(route.route + route.method) ?? (async () => {
      let profileId = targetProfile;
      let jwt = ownJwt;
      let keyId = own.keyId;
      let session = operatorToken;
      if (route.ownTarget === 'profile') {
        profileId = (await createProfile(platform, own)).id;
        jwt = await profileJwt(platform, profileId, own.key);
      } else if (route.ownTarget === 'spareKey') {
        keyId = (await createKey(platform, operatorToken, own.gameId, 'spare')).keyId;
      } else if (route.ownTarget === 'session') {
        session = await consoleToken(platform);
      } else if (route.ownTarget === 'draft') {
        const draft = await http('PUT', `${platform.baseUrl}/v1/console/games/${own.gameId}/signing-policy/draft`, { bearer: operatorToken, body: { rules: DEFAULT_RULES } });
        expect(draft.status).toBe(200);
      }
      const path = route.route
        .replace(':id', profileId)
        .replace(':gameId', own.gameId)
        .replace(':keyId', keyId)
        .replace(':walletId', targetWallet)
        .replace(':playerId', targetPlayer);
      return { path, ownJwt: jwt, console: session };
    })();
    targets.set(route.route + route.method, made);
    return made;
  };

  const table = ROUTES.flatMap((route) =>
    CREDENTIALS.map((credential) => {
      const [status, code] = expected(route, credential);
      return [`${route.method} ${route.route}`, credential, status, code ?? '(success)', route] as const;
    }),
  );

  it.each(table)('%s with %s → %i %s', async (_, credential, status, code, route) => {
    const target = await targetOf(route);
    const credentialHeaders =
      credential === 'own profile JWT'
        ? { authorization: `Bearer ${target.ownJwt}` }
        : credential === 'console token'
          ? { authorization: `Bearer ${target.console}` }
          : (headers.get(credential) ?? {});
    const url = `${route.origin === 'base' ? platform.baseUrl : platform.coreUrl}${target.path}`;
    const response = await http<{ code?: string; message?: string }>(route.method, url, { headers: credentialHeaders, body: route.body });
    expect({ status: response.status, code: response.status >= 400 ? response.body?.code : '(success)' }).toEqual({ status, code });
    if (response.status >= 400) {
      // A signing policy's refusal says which rule decided, and why.
      expect(Object.keys(response.body as object).sort()).toEqual(code === 'POLICY_DENIED' ? ['code', 'details', 'message'] : ['code', 'message']);
    }
  });

  it('answers each request on one keep-alive connection by the key that request carries, as the client switches keys', async () => {
    const route = ROUTES.find((candidate) => candidate.route === '/v1/wallet/:walletId') as RouteCase;
    const { path } = await targetOf(route);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<number | undefined>();
    const get = (headers: Record<string, string>) =>
      new Promise<{ status: number; code?: string }>((resolve, reject) => {
        request(`${platform.baseUrl}${path}`, { agent, headers }, (response) => {
          sockets.add(response.socket.localPort);
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, code: response.statusCode === 200 ? undefined : (JSON.parse(text) as { code: string }).code }));
        })
          .on('error', reject)
          .end();
      });
    const sequence: Credential[] = ['own key', "another game's key", 'own key', 'deleted key', 'inactive key', 'own key', 'malformed key', 'unknown key', 'own key'];
    try {
      for (const credential of sequence) {
        const [status, code] = expected(route, credential);
        await expect(get(headers.get(credential) as Record<string, string>)).resolves.toEqual({ status, code });
      }
    } finally {
      agent.destroy();
    }
    expect(sockets.size).toBe(1);
  });

  it("documents every status and code of the table in the route's OpenAPI document", () => {
    type Responses = Record<string, { content?: { 'application/json': { schema: { properties?: { code?: { enum: string[] } } } } } }>;
    const undocumented = table.flatMap(([name, credential, status, code, route]) => {
      const document = openApiDocument(route.origin) as { paths: Record<string, Record<string, { responses: Responses }>> };
      const path = route.route.replace(/:(\w+)/g, '{$1}');
      const answer = document.paths[path]?.[route.method.toLowerCase()]?.responses[String(status)];
      const codes = answer?.content?.['application/json'].schema.properties?.code?.enum;
      const documented = answer !== undefined && (code === '(success)' || (codes ?? []).includes(code));
      return documented ? [] : [`${name} with ${credential} → ${status} ${code}`];
    });
    expect(undocumented).toEqual([]);
  });

  it('covers every route the gateway serves (a new route must be added to the matrix or declared public)', () => {
    const mapped = mappedRoutes(platform);
    expect(mapped.length).toBeGreaterThan(0);
    const known = new Set([...ROUTES.map((route) => `${route.method} ${route.route}`), ...PUBLIC_ROUTES, ...INTERNAL_ROUTES]);
    expect(mapped.filter((route) => !known.has(route))).toEqual([]);
  });
});

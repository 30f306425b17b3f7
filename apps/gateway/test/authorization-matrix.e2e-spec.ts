import { CONSOLE_PERMISSIONS, ConsolePermission, DEFAULT_SIGNING_POLICY, RoleGrant, grantsAllow, rolesFor, rulesOfPolicy } from '@game-wallet/contracts';
import {
  GameFixture,
  TestPlatform,
  claimsOf,
  consoleToken,
  createOperator,
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
  steppedUpCall,
  TEST_OPERATOR,
  tamper,
} from '@game-wallet/testing';
import { Secret, TOTP } from 'otpauth';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { openApiDocument } from '../src/openapi/openapi-document';

/**
 * Every public route × every kind of credential → the SPEC status and code, and every console route × every console
 * role (of the game, of another game) → what the permission table says. The table is generated from ROUTES, and the
 * suite fails when the gateway serves a route that is in neither ROUTES nor PUBLIC_ROUTES.
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
   * the route's own target: a fresh profile (revoke), the spare key (PATCH, DELETE), a spare key with a registered
   * request-signing key (`signingKey`, removed by its route), a separate session (sign-out), a
   * draft signing policy (the draft's routes but PUT); for a console role besides: an operator of its own with the
   * role's grants (`operator`: so that ending its other sessions or changing its password spoils nothing), the same
   * with TOTP being set up or set up, another session of its own (`otherSession`), a teammate with a role in the
   * other game (`teammate`), a pending invitation (`invitation`), a webhook endpoint of its own (`webhook`; the other
   * webhook routes share one endpoint and one delivery of it)
   */
  ownTarget?: 'profile' | 'spareKey' | 'signingKey' | 'session' | 'draft' | 'operator' | 'totpPending' | 'totpEnabled' | 'otherSession' | 'teammate' | 'invitation' | 'webhook';
  /** the route acts on the caller's own game only (creation): another game's key simply succeeds in its game */
  anyGame?: boolean;
  /** a console route's permission (CONSOLE_PERMISSIONS); absent: any signed-in operator may (their own session) */
  permission?: ConsolePermission;
  /** the body, when it names the matrix's games (`own`, `other`: their ids) */
  bodyOf?: (games: { own: string; other: string }) => unknown;
  /**
   * What a console route answers the right credential when the matrix cannot give it what success needs (a passkey's
   * registration needs an authenticator): the refusal past every authorization check.
   */
  refusal?: [number, string];
}

/** A request-signing public key the matrix registers (the API keys it is registered for are each the route's own). */
const SIGNING_PUBLIC_KEY = generateKeyPairSync('ed25519').publicKey.export({ format: 'pem', type: 'spki' }).toString();

/** The default policy as rules: what a draft of the matrix holds, so that activating it changes nothing. */
const DEFAULT_RULES = rulesOfPolicy(DEFAULT_SIGNING_POLICY).rules;

const ROUTES: RouteCase[] = [
  { method: 'POST', route: '/v1/profile/:id/authenticate', origin: 'base', access: 'apiKeyOrOwnProfile', success: 200, body: {} },
  { method: 'POST', route: '/v1/profile/:id/revoke', origin: 'base', access: 'apiKeyOnly', success: 204, ownTarget: 'profile' },
  { method: 'GET', route: '/v1/console/games', origin: 'base', access: 'console', success: 200 },
  { method: 'POST', route: '/v1/console/games', permission: 'games.create', origin: 'base', access: 'console', success: 201, body: { name: 'Matrix game' } },
  { method: 'GET', route: '/v1/console/games/:gameId', permission: 'games.read', origin: 'base', access: 'console', success: 200 },
  { method: 'GET', route: '/v1/console/games/:gameId/api-keys', permission: 'apiKeys.read', origin: 'base', access: 'console', success: 200 },
  { method: 'POST', route: '/v1/console/games/:gameId/api-keys', permission: 'apiKeys.create', origin: 'base', access: 'console', success: 201, body: { name: 'matrix' } },
  { method: 'PATCH', route: '/v1/console/games/:gameId/api-keys/:keyId', permission: 'apiKeys.update', origin: 'base', access: 'console', success: 200, body: { active: true }, ownTarget: 'spareKey' },
  { method: 'DELETE', route: '/v1/console/games/:gameId/api-keys/:keyId', permission: 'apiKeys.delete', origin: 'base', access: 'console', success: 204, ownTarget: 'spareKey' },
  { method: 'POST', route: '/v1/console/games/:gameId/api-keys/:keyId/signing-keys', permission: 'apiKeys.signing', origin: 'base', access: 'console', success: 201, body: { publicKey: SIGNING_PUBLIC_KEY }, ownTarget: 'spareKey' },
  { method: 'DELETE', route: '/v1/console/games/:gameId/api-keys/:keyId/signing-keys/:signingKeyId', permission: 'apiKeys.signing', origin: 'base', access: 'console', success: 204, ownTarget: 'signingKey' },
  { method: 'GET', route: '/v1/console/games/:gameId/webhooks', permission: 'webhooks.read', origin: 'base', access: 'console', success: 200 },
  { method: 'POST', route: '/v1/console/games/:gameId/webhooks', permission: 'webhooks.manage', origin: 'base', access: 'console', success: 201, body: { url: 'http://127.0.0.1:9/matrix', eventTypes: ['*'], enabled: false } },
  { method: 'PATCH', route: '/v1/console/games/:gameId/webhooks/:endpointId', permission: 'webhooks.manage', origin: 'base', access: 'console', success: 200, body: { description: 'matrix' } },
  { method: 'DELETE', route: '/v1/console/games/:gameId/webhooks/:endpointId', permission: 'webhooks.manage', origin: 'base', access: 'console', success: 204, ownTarget: 'webhook' },
  { method: 'POST', route: '/v1/console/games/:gameId/webhooks/:endpointId/rotate-secret', permission: 'webhooks.manage', origin: 'base', access: 'console', success: 200, body: {} },
  { method: 'POST', route: '/v1/console/games/:gameId/webhooks/:endpointId/test', permission: 'webhooks.deliver', origin: 'base', access: 'console', success: 202 },
  { method: 'GET', route: '/v1/console/games/:gameId/webhooks/:endpointId/deliveries', permission: 'webhooks.read', origin: 'base', access: 'console', success: 200 },
  { method: 'POST', route: '/v1/console/games/:gameId/webhooks/:endpointId/deliveries/:deliveryId/redeliver', permission: 'webhooks.deliver', origin: 'base', access: 'console', success: 202 },
  { method: 'POST', route: '/v1/console/games/:gameId/webhooks/:endpointId/redeliver', permission: 'webhooks.deliver', origin: 'base', access: 'console', success: 202, body: { since: '2026-01-01T00:00:00Z' } },
  { method: 'GET', route: '/v1/console/games/:gameId/audit', permission: 'audit.read', origin: 'base', access: 'console', success: 200 },
  { method: 'GET', route: '/v1/console/games/:gameId/audit/export', permission: 'audit.read', origin: 'base', access: 'console', success: 200 },
  { method: 'GET', route: '/v1/console/games/:gameId/signing-policy', permission: 'policy.read', origin: 'base', access: 'console', success: 200 },
  // The policy stays the default (the signing routes below rely on it): the first shape, and the same as rules.
  {
    method: 'PUT',
    route: '/v1/console/games/:gameId/signing-policy',
    permission: 'policy.write',
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
  { method: 'GET', route: '/v1/console/games/:gameId/signing-policy/versions', permission: 'policy.read', origin: 'base', access: 'console', success: 200 },
  {
    method: 'POST',
    route: '/v1/console/games/:gameId/signing-policy/evaluate',
    permission: 'policy.read',
    origin: 'base',
    access: 'console',
    success: 200,
    body: { operation: 'message', chain: 'evm', credential: { kind: 'profile' }, payload: 'aGk=' },
  },
  { method: 'PUT', route: '/v1/console/games/:gameId/signing-policy/draft', permission: 'policy.draft', origin: 'base', access: 'console', success: 200, body: { rules: DEFAULT_RULES } },
  { method: 'GET', route: '/v1/console/games/:gameId/signing-policy/draft', permission: 'policy.read', origin: 'base', access: 'console', success: 200, ownTarget: 'draft' },
  { method: 'GET', route: '/v1/console/games/:gameId/signing-policy/draft/differences', permission: 'policy.read', origin: 'base', access: 'console', success: 200 },
  { method: 'POST', route: '/v1/console/games/:gameId/signing-policy/draft/replay', permission: 'policy.read', origin: 'base', access: 'console', success: 200, body: {}, ownTarget: 'draft' },
  { method: 'POST', route: '/v1/console/games/:gameId/signing-policy/draft/activate', permission: 'policy.write', origin: 'base', access: 'console', success: 200, ownTarget: 'draft' },
  { method: 'DELETE', route: '/v1/console/games/:gameId/signing-policy/draft', permission: 'policy.draft', origin: 'base', access: 'console', success: 204, ownTarget: 'draft' },
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
  { method: 'GET', route: '/v1/console/games/:gameId/players', permission: 'players.read', origin: 'base', access: 'console', success: 200 },
  { method: 'GET', route: '/v1/console/session', origin: 'base', access: 'console', success: 200 },
  { method: 'GET', route: '/v1/console/endpoints', origin: 'base', access: 'console', success: 200 },
  { method: 'DELETE', route: '/v1/console/session', origin: 'base', access: 'console', success: 204, ownTarget: 'session' },
  // The operator's own session and account: any signed-in operator, for themselves.
  { method: 'POST', route: '/v1/console/session/step-up', origin: 'base', access: 'console', success: 200, body: { password: TEST_OPERATOR.password } },
  { method: 'POST', route: '/v1/console/session/step-up/options', origin: 'base', access: 'console', success: 200 },
  { method: 'PATCH', route: '/v1/console/account', origin: 'base', access: 'console', success: 200, body: { displayName: 'Matrix operator' } },
  { method: 'PUT', route: '/v1/console/account/password', origin: 'base', access: 'console', success: 200, body: { currentPassword: TEST_OPERATOR.password, newPassword: TEST_OPERATOR.password }, ownTarget: 'operator' },
  { method: 'GET', route: '/v1/console/account/sessions', origin: 'base', access: 'console', success: 200 },
  { method: 'DELETE', route: '/v1/console/account/sessions', origin: 'base', access: 'console', success: 204, ownTarget: 'operator' },
  { method: 'DELETE', route: '/v1/console/account/sessions/:sessionId', origin: 'base', access: 'console', success: 204, ownTarget: 'otherSession' },
  { method: 'POST', route: '/v1/console/account/totp', origin: 'base', access: 'console', success: 200, ownTarget: 'operator' },
  { method: 'POST', route: '/v1/console/account/totp/confirm', origin: 'base', access: 'console', success: 200, ownTarget: 'totpPending' },
  { method: 'POST', route: '/v1/console/account/recovery-codes', origin: 'base', access: 'console', success: 200, ownTarget: 'totpEnabled' },
  { method: 'DELETE', route: '/v1/console/account/totp', origin: 'base', access: 'console', success: 204, ownTarget: 'totpEnabled' },
  { method: 'POST', route: '/v1/console/account/passkeys/options', origin: 'base', access: 'console', success: 200 },
  { method: 'POST', route: '/v1/console/account/passkeys', origin: 'base', access: 'console', success: 201, body: { name: 'Matrix', response: {} }, refusal: [400, 'VALIDATION_FAILED'] },
  { method: 'DELETE', route: '/v1/console/account/passkeys/:passkeyId', origin: 'base', access: 'console', success: 204, refusal: [404, 'NOT_FOUND'] },
  // The team: owners (of every game, or of the games concerned), and the instance's settings.
  { method: 'GET', route: '/v1/console/operators', origin: 'base', access: 'console', permission: 'operators.read', success: 200 },
  { method: 'PATCH', route: '/v1/console/operators/:operatorId', origin: 'base', access: 'console', permission: 'operators.manage', success: 200, body: { status: 'active' }, ownTarget: 'teammate' },
  { method: 'GET', route: '/v1/console/operators/:operatorId/sessions', origin: 'base', access: 'console', permission: 'operators.read', success: 200, ownTarget: 'teammate' },
  { method: 'DELETE', route: '/v1/console/operators/:operatorId/sessions/:sessionId', origin: 'base', access: 'console', permission: 'operators.manage', success: 204, ownTarget: 'teammate' },
  { method: 'DELETE', route: '/v1/console/operators/:operatorId/sessions', origin: 'base', access: 'console', permission: 'operators.manage', success: 204, ownTarget: 'teammate' },
  { method: 'DELETE', route: '/v1/console/operators/:operatorId', origin: 'base', access: 'console', permission: 'operators.manage', success: 204, ownTarget: 'teammate' },
  { method: 'GET', route: '/v1/console/invitations', origin: 'base', access: 'console', permission: 'operators.read', success: 200 },
  {
    method: 'POST',
    route: '/v1/console/invitations',
    origin: 'base',
    access: 'console',
    permission: 'operators.manage',
    success: 201,
    bodyOf: ({ other }) => ({ email: `invited-${randomUUID()}@example.com`, grants: [{ role: 'viewer', gameId: other }] }),
  },
  { method: 'DELETE', route: '/v1/console/invitations/:invitationId', origin: 'base', access: 'console', permission: 'operators.manage', success: 204, ownTarget: 'invitation' },
  { method: 'GET', route: '/v1/console/settings', origin: 'base', access: 'console', success: 200 },
  { method: 'PUT', route: '/v1/console/settings', origin: 'base', access: 'console', permission: 'settings.manage', success: 200, body: { requireTwoFactor: false } },
];

/** Writes whose success ends the session that made them: sending them again is refused before any kept answer. */
const ENDS_OWN_SESSION = new Set(['DELETE /v1/console/session']);

/** Routes of the gateway's internal port (never routed publicly). */
const INTERNAL_ROUTES = ['GET /metrics'];

/** Routes that take no credential at all (the web console's pages are public; its data comes from the console API). */
const PUBLIC_ROUTES = [
  'GET /v1/health',
  'GET /v1/health/live',
  'GET /v1/health/services',
  'GET /v1/.well-known/jwks.json',
  'POST /v1/console/session',
  'POST /v1/console/session/second-factor',
  'POST /v1/console/invitations/preview',
  'POST /v1/console/invitations/accept',
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
  'admin of the game',
  'developer of the game',
  'support of the game',
  'viewer of the game',
  'owner of another game',
] as const;
type Credential = (typeof CREDENTIALS)[number];

/**
 * The console roles of the matrix, each an operator invited by the owner of every game (the `console token`) with
 * these grants: `own`/`other` stand for the two games' ids.
 */
const ROLE_GRANTS = {
  'admin of the game': [{ role: 'admin', gameId: 'own' }],
  'developer of the game': [{ role: 'developer', gameId: 'own' }],
  'support of the game': [{ role: 'support', gameId: 'own' }],
  'viewer of the game': [{ role: 'viewer', gameId: 'own' }],
  'owner of another game': [{ role: 'owner', gameId: 'other' }],
} as const satisfies Partial<Record<Credential, readonly RoleGrant[]>>;
type RoleCredential = keyof typeof ROLE_GRANTS;
const isRole = (credential: Credential): credential is RoleCredential => Object.hasOwn(ROLE_GRANTS, credential);

/** What the permission table answers a console role on the own game: success, 404 outside its games, 403 without the permission. */
function roleExpected(route: RouteCase, credential: RoleCredential | 'console token'): [number, string | undefined] {
  if (route.permission === undefined) {
    return route.refusal ?? [route.success, undefined];
  }
  const grants: RoleGrant[] = credential === 'console token' ? [{ role: 'owner', gameId: null }] : ROLE_GRANTS[credential].map((grant) => ({ ...grant }));
  if (CONSOLE_PERMISSIONS[route.permission].scope === 'game' && rolesFor(grants, 'own').size === 0) {
    return [404, 'GAME_NOT_FOUND'];
  }
  return grantsAllow(grants, route.permission, 'own') ? (route.refusal ?? [route.success, undefined]) : [403, 'FORBIDDEN'];
}

function expected(route: RouteCase, credential: Credential): [number, string | undefined] {
  if (route.access === 'console' && isRole(credential)) {
    return roleExpected(route, credential);
  }
  if (isRole(credential)) {
    return [401, 'INVALID_TOKEN'];
  }
  if (route.access === 'console') {
    switch (credential) {
      case 'console token':
        return roleExpected(route, credential);
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
  const roleOperators = new Map<RoleCredential, { email: string; password: string; token: string }>();

  beforeAll(async () => {
    // Hundreds of deliberate 401s from one address, and every signing route with every credential on one wallet within
    // seconds: the per-IP limit on failed authentications and the per-wallet signing limit have suites of their own.
    platform = await TestPlatform.start('matrix', { env: { LOG_LEVEL: 'debug', RATE_LIMIT_AUTH_FAILURES_PER_IP: '100000', RATE_LIMIT_SIGN_PER_WALLET_RPS: '1000' } });
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
    for (const [credential, grants] of Object.entries(ROLE_GRANTS) as [RoleCredential, readonly RoleGrant[]][]) {
      const gameIds = { own: own.gameId, other: other.gameId } as Record<string, string>;
      const operator = await createOperator(platform, operatorToken, grants.map((grant) => ({ role: grant.role, gameId: gameIds[grant.gameId as string] })), { password: TEST_OPERATOR.password });
      roleOperators.set(credential, operator);
      headers.set(credential, bearer(operator.token));
    }
  });

  afterAll(async () => {
    await platform.stop();
  });

  /**
   * Each route's own target, made once per route (so a revoke or a delete does not spoil the other routes), and once
   * per console role besides (each role that may delete a key deletes a key of its own).
   */
  type Target = { path: string; ownJwt: string; console: string; body?: unknown };
  /** An endpoint of the own game (turned off: nothing is sent) with one delivery, its test event. */
  const newWebhook = async (): Promise<{ endpointId: string; deliveryId: string }> => {
    const hooks = `${platform.baseUrl}/v1/console/games/${own.gameId}/webhooks`;
    const endpoint = await steppedUpCall<{ id: string }>(platform, operatorToken, 'POST', hooks, { url: 'http://127.0.0.1:9/matrix', eventTypes: ['*'], enabled: false });
    expect(endpoint.status).toBe(201);
    const test = await http<{ id: string }>('POST', `${hooks}/${endpoint.body.id}/test`, { bearer: operatorToken });
    expect(test.status).toBe(202);
    return { endpointId: endpoint.body.id, deliveryId: test.body.id };
  };
  let shared: Promise<{ endpointId: string; deliveryId: string }> | undefined;
  const sharedWebhook = (): Promise<{ endpointId: string; deliveryId: string }> => (shared ??= newWebhook());
  const targets = new Map<string, Promise<Target>>();
  const signIn = async (email: string, password: string): Promise<string> =>
    (await http<{ token: string }>('POST', `${platform.baseUrl}/v1/console/session`, { body: { email, password } })).body.token;
  const totpCode = (secret: string): string => TOTP.generate({ secret: Secret.fromBase32(secret) });
  const targetOf = (route: RouteCase, credential: Credential): Promise<Target> => {
    const role = isRole(credential) ? roleOperators.get(credential) : undefined;
    const consoleCredential = role !== undefined || credential === 'console token';
    const name = `${route.method} ${route.route}${consoleCredential ? ` ${credential}` : ''}`;
    const made = targets.get(name) ?? (async () => {
      let profileId = targetProfile;
      let jwt = ownJwt;
      let keyId = own.keyId;
      let session = role?.token ?? operatorToken;
      let operatorId: string = randomUUID();
      let sessionId: string = randomUUID();
      let invitationId: string = randomUUID();
      let { endpointId, deliveryId } = await sharedWebhook();
      let signingKeyId: string = 'A'.repeat(43);
      let body: unknown = route.bodyOf?.({ own: own.gameId, other: other.gameId }) ?? route.body;
      const grants: RoleGrant[] = isRole(credential)
        ? ROLE_GRANTS[credential].map((grant) => ({ role: grant.role, gameId: grant.gameId === 'own' ? own.gameId : other.gameId }))
        : [{ role: 'owner', gameId: null }];
      if (route.ownTarget === 'profile') {
        profileId = (await createProfile(platform, own)).id;
        jwt = await profileJwt(platform, profileId, own.key);
      } else if (route.ownTarget === 'spareKey') {
        keyId = (await createKey(platform, operatorToken, own.gameId, 'spare')).keyId;
      } else if (route.ownTarget === 'signingKey') {
        keyId = (await createKey(platform, operatorToken, own.gameId, 'spare')).keyId;
        const registered = await steppedUpCall<{ id: string }>(platform, operatorToken, 'POST', `${platform.baseUrl}/v1/console/games/${own.gameId}/api-keys/${keyId}/signing-keys`, {
          publicKey: SIGNING_PUBLIC_KEY,
        });
        expect(registered.status).toBe(201);
        signingKeyId = registered.body.id;
      } else if (route.ownTarget === 'session') {
        session = role === undefined ? await consoleToken(platform) : await signIn(role.email, role.password);
      } else if (route.ownTarget === 'draft') {
        const draft = await http('PUT', `${platform.baseUrl}/v1/console/games/${own.gameId}/signing-policy/draft`, { bearer: operatorToken, body: { rules: DEFAULT_RULES } });
        expect(draft.status).toBe(200);
      } else if (route.ownTarget === 'operator' || route.ownTarget === 'totpPending' || route.ownTarget === 'totpEnabled') {
        session = (await createOperator(platform, operatorToken, grants, { password: TEST_OPERATOR.password })).token;
        if (route.ownTarget !== 'operator') {
          const started = await http<{ secret: string }>('POST', `${platform.baseUrl}/v1/console/account/totp`, { bearer: session });
          expect(started.status).toBe(200);
          if (route.ownTarget === 'totpPending') {
            body = { code: totpCode(started.body.secret) };
          } else {
            const confirmed = await http('POST', `${platform.baseUrl}/v1/console/account/totp/confirm`, { bearer: session, body: { code: totpCode(started.body.secret) } });
            expect(confirmed.status).toBe(200);
          }
        }
      } else if (route.ownTarget === 'otherSession') {
        sessionId = String(claimsOf(role === undefined ? await consoleToken(platform) : await signIn(role.email, role.password)).jti);
      } else if (route.ownTarget === 'teammate') {
        const teammate = await createOperator(platform, operatorToken, [{ role: 'viewer', gameId: other.gameId }], { password: TEST_OPERATOR.password });
        operatorId = teammate.operatorId;
        sessionId = String(claimsOf(teammate.token).jti);
      } else if (route.ownTarget === 'invitation') {
        const invitation = await steppedUpCall<{ id: string }>(platform, operatorToken, 'POST', `${platform.baseUrl}/v1/console/invitations`, {
          email: `pending-${randomUUID()}@example.com`,
          grants: [{ role: 'viewer', gameId: other.gameId }],
        });
        expect(invitation.status).toBe(201);
        invitationId = invitation.body.id;
      } else if (route.ownTarget === 'webhook') {
        ({ endpointId, deliveryId } = await newWebhook());
      }
      const path = route.route
        .replace(':id', profileId)
        .replace(':gameId', own.gameId)
        .replace(':keyId', keyId)
        .replace(':signingKeyId', signingKeyId)
        .replace(':walletId', targetWallet)
        .replace(':playerId', targetPlayer)
        .replace(':operatorId', operatorId)
        .replace(':sessionId', sessionId)
        .replace(':invitationId', invitationId)
        .replace(':passkeyId', randomUUID())
        .replace(':endpointId', endpointId)
        .replace(':deliveryId', deliveryId);
      return { path, ownJwt: jwt, console: session, body };
    })();
    targets.set(name, made);
    return made;
  };

  const table = ROUTES.flatMap((route) =>
    CREDENTIALS.map((credential) => {
      const [status, code] = expected(route, credential);
      return [`${route.method} ${route.route}`, credential, status, code ?? '(success)', route] as const;
    }),
  );

  it.each(table)('%s with %s → %i %s', async (_, credential, status, code, route) => {
    const target = await targetOf(route, credential);
    const credentialHeaders =
      credential === 'own profile JWT'
        ? { authorization: `Bearer ${target.ownJwt}` }
        : credential === 'console token' || (isRole(credential) && route.access === 'console')
          ? { authorization: `Bearer ${target.console}` }
          : (headers.get(credential) ?? {});
    const url = `${route.origin === 'base' ? platform.baseUrl : platform.coreUrl}${target.path}`;
    // Every write carries an Idempotency-Key: it changes no decision, and a success sent again is its kept answer.
    const write = route.method !== 'GET';
    const idempotency: Record<string, string> = write ? { 'idempotency-key': `"${randomUUID()}"` } : {};
    const response = await http<{ code?: string; message?: string }>(route.method, url, { headers: { ...credentialHeaders, ...idempotency }, body: target.body });
    expect({ status: response.status, code: response.status >= 400 ? response.body?.code : '(success)' }).toEqual({ status, code });
    if (write && response.status < 300 && !ENDS_OWN_SESSION.has(`${route.method} ${route.route}`)) {
      const again = await http(route.method, url, { headers: { ...credentialHeaders, ...idempotency }, body: target.body });
      expect({ status: again.status, replayed: again.headers.get('idempotent-replayed'), body: again.body }).toEqual({ status: response.status, replayed: 'true', body: response.body });
    }
    if (response.status >= 400) {
      // A signing policy's refusal says which rule decided, and why.
      expect(Object.keys(response.body as object).sort()).toEqual(code === 'POLICY_DENIED' ? ['code', 'details', 'message'] : ['code', 'message']);
    }
  });

  it('answers each request on one keep-alive connection by the key that request carries, as the client switches keys', async () => {
    const route = ROUTES.find((candidate) => candidate.route === '/v1/wallet/:walletId') as RouteCase;
    const { path } = await targetOf(route, 'own key');
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
      const codes = answer?.content?.['application/json']?.schema.properties?.code?.enum;
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

import { CHAIN_NAMES, ConsolePermission, ErrorCode } from '@game-wallet/contracts';
import { z } from 'zod';
import { addSigningKeyBody, createGameBody, createKeyBody, deleteKeyQuery, playersQuery, updateKeyBody } from '../console/console-games.controller';
import { auditExportQuery } from '../console/audit-export';
import { changePasswordBody, confirmTotpBody, registerPasskeyBody, secondFactorBody, stepUpBody, updateAccountBody } from '../console/account-input';
import { signInBody } from '../console/console-session.controller';
import { acceptInvitationBody, createInvitationBody, previewInvitationBody, updateOperatorBody, updateSettingsBody } from '../console/console-team.controller';
import { evaluationBody, putSigningPolicyBody, replayBody, signingRulesBody } from '../console/signing-policy-input';
import { createPlayerBody } from '../players/player-input';
import { authenticateBody } from '../profiles/authenticate-body';
import { pageQuery } from '../validation';
import { WEBHOOK_ROUTES } from './webhook-routes';
import { signBody, signTransactionBody, signTypedDataBody, walletQuery } from '../wallets/wallet-input';

/** The gateway's public ports: `base_url` and `core_url` (SPEC §1). */
export type ApiPort = 'base' | 'core';

/**
 * Who may call a route (SPEC §3), which names its security schemes and the authentication errors it can answer:
 * an API key; an API key or the resource's own profile JWT; a console session; anybody.
 */
export type RouteAccess = 'apiKey' | 'apiKeyOrProfile' | 'console' | 'public';

export interface RouteResponse {
  status: number;
  description: string;
  /** a component of `view-schemas.json`; absent for an empty answer */
  schema?: string;
  /** `etag`: the answer carries the version it shows as a strong `ETag` */
  etag?: boolean;
  /** the answer's media type, when not `application/json` (`application/x-ndjson`: one `schema` per line) */
  mediaType?: string;
}

/** One public route: what the OpenAPI document says of it. Validators are the ones the controllers run. */
export interface ApiRoute {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI form: `/v1/wallet/{walletId}` */
  path: string;
  port: ApiPort;
  tag: string;
  operationId: string;
  summary: string;
  description?: string;
  access: RouteAccess;
  query?: z.ZodObject;
  body?: z.ZodType;
  responses: RouteResponse[];
  /** the route's own error answers, beyond those of its access, body and the services behind it */
  errors?: ErrorCode[];
  /** false for routes the gateway answers alone (no service behind: no 503/504 from a service) */
  callsServices?: boolean;
  /** idempotent beyond GET: a retry after a timeout or a 503 is safe */
  idempotent?: boolean;
  /** takes `If-Match` with a version's ETag: 412 `PRECONDITION_FAILED` when another version is current */
  ifMatch?: boolean;
  /**
   * A console route's permission (CONSOLE_PERMISSIONS): the roles that may call it are listed in its description, and
   * its refusals (403 `FORBIDDEN`, 404 `GAME_NOT_FOUND` outside the operator's games, 401 `STEP_UP_REQUIRED`) are
   * documented from the table. Absent: any signed-in operator (their own session and account).
   */
  permission?: ConsolePermission;
}


/** A route of a game's signing policy: on base_url, for console operators, under `/v1/console/games/{gameId}/signing-policy`. */
function policyRoute(
  method: ApiRoute['method'],
  path: string,
  operationId: string,
  summary: string,
  description: string,
  route: Omit<ApiRoute, 'method' | 'path' | 'port' | 'tag' | 'operationId' | 'summary' | 'description' | 'access'>,
): ApiRoute {
  return { method, path: `/v1/console/games/{gameId}/signing-policy${path}`, port: 'base', tag: 'Signing policy', operationId, summary, description, access: 'console', ...route };
}

/** A list of a game's signing policy, newest first, a page at a time (`limit`, `cursor`). */
function policyList(path: string, operationId: string, summary: string, description: string, page: RouteResponse): ApiRoute {
  return policyRoute('get', path, operationId, summary, description, { permission: 'policy.read', query: pageQuery, responses: [page], errors: ['INVALID_QUERY', 'GAME_NOT_FOUND'] });
}

/** A route of the console's team (operators, invitations, settings): on base_url, for console operators. */
function teamRoute(method: ApiRoute['method'], path: string, operationId: string, summary: string, description: string, route: Pick<ApiRoute, 'responses'> & Partial<ApiRoute>): ApiRoute {
  return { method, path: `/v1/console${path}`, port: 'base', tag: 'Console team', operationId, summary, description, access: 'console', ...route };
}

const STEP_UP = 'Owners only, with a second factor (or, without one, the password) given in the last 5 minutes: else 401 `STEP_UP_REQUIRED`.';

/** The console's team: operators and their roles, sessions, invitations, the instance's console settings. */
const TEAM_ROUTES: ApiRoute[] = [
  teamRoute('get', '/operators', 'listOperators', 'The team: operators, their roles and second factors', 'Owners only (403 `FORBIDDEN` for other roles). An owner of every game sees every operator; an owner of listed games sees the operators with a role in one of their games, and only those roles. Removed operators are not listed.', {
    permission: 'operators.read',
    responses: [{ status: 200, description: 'The operators, oldest first', schema: 'OperatorList' }],
    errors: ['FORBIDDEN'],
  }),
  teamRoute('patch', '/operators/{operatorId}', 'updateOperator', "Change an operator's roles or status", `${STEP_UP} \`grants\` replaces the roles the caller reaches (an owner of listed games gives and takes roles in their games only; 403 otherwise; the operator's other roles stay). \`status: suspended\` ends every session of theirs on every gateway within 1 s and refuses their sign-ins until \`active\` again; it needs every game they have a role in, and nobody suspends themselves. Nobody may suspend or demote the last active owner of every game (403). Recorded as \`operator.updated\` with the roles and status before and after.`, {
    permission: 'operators.manage',
    body: updateOperatorBody,
    responses: [{ status: 200, description: 'The operator as the caller sees them', schema: 'OperatorView' }],
    errors: ['FORBIDDEN', 'STEP_UP_REQUIRED', 'NOT_FOUND'],
    idempotent: true,
  }),
  teamRoute('delete', '/operators/{operatorId}', 'removeOperator', 'Remove an operator', `${STEP_UP} Ends every session of theirs on every gateway within 1 s and refuses their sign-ins; their pending invitations are revoked. The operator's record stays (status removed) so ended sessions stay refused; their e-mail may be invited again. Needs every game they have a role in; nobody removes themselves, nor the last active owner of every game (403). Recorded as \`operator.removed\`.`, {
    permission: 'operators.manage',
    responses: [{ status: 204, description: 'Removed' }],
    errors: ['FORBIDDEN', 'STEP_UP_REQUIRED', 'NOT_FOUND'],
  }),
  teamRoute('get', '/operators/{operatorId}/sessions', 'listOperatorSessions', "An operator's open console sessions", 'Owners only: created, last seen, client address and user agent of each open session, newest first.', {
    permission: 'operators.read',
    responses: [{ status: 200, description: 'The open sessions', schema: 'OperatorSessionList' }],
    errors: ['FORBIDDEN', 'NOT_FOUND'],
  }),
  teamRoute('delete', '/operators/{operatorId}/sessions', 'endOperatorSessions', "End every session of an operator's", `${STEP_UP} Every gateway refuses them within 1 s; the operator can sign in again. Recorded as \`operator.sessions_ended\`.`, {
    permission: 'operators.manage',
    responses: [{ status: 204, description: 'Ended' }],
    errors: ['FORBIDDEN', 'STEP_UP_REQUIRED', 'NOT_FOUND'],
    idempotent: true,
  }),
  teamRoute('delete', '/operators/{operatorId}/sessions/{sessionId}', 'endOperatorSession', "End one session of an operator's", `${STEP_UP} 404 \`NOT_FOUND\` when the session is not open.`, {
    permission: 'operators.manage',
    responses: [{ status: 204, description: 'Ended' }],
    errors: ['FORBIDDEN', 'STEP_UP_REQUIRED', 'NOT_FOUND'],
  }),
  teamRoute('get', '/invitations', 'listInvitations', 'Invitations, newest first', 'Owners only: the latest 500 with their state (`pending`, `accepted`, `revoked`, `expired`); an owner of listed games sees those with a role in their games. Links are never shown again.', {
    permission: 'operators.read',
    responses: [{ status: 200, description: 'The invitations', schema: 'InvitationList' }],
    errors: ['FORBIDDEN'],
  }),
  teamRoute('post', '/invitations', 'createInvitation', 'Invite an operator', `${STEP_UP} The answer holds the single-use link (\`{PUBLIC_BASE_URL or this address}/console/invitation#token=…\`), shown this once: it works for 72 hours, until accepted or revoked. With \`SMTP_URL\` set on identity it is mailed too (\`mailed: true\`; a mail that fails does not fail the invitation). Roles only within the games the caller owns (403). An e-mail that belongs to an active or suspended operator: 400. Recorded as \`operator.invited\` (never with the link).`, {
    permission: 'operators.manage',
    body: createInvitationBody,
    responses: [{ status: 201, description: 'The invitation and its link', schema: 'CreatedInvitationView' }],
    errors: ['FORBIDDEN', 'STEP_UP_REQUIRED'],
  }),
  teamRoute('delete', '/invitations/{invitationId}', 'revokeInvitation', 'Revoke an invitation', `${STEP_UP} Its link stops working at once; 404 \`NOT_FOUND\` when it is no longer pending. Recorded as \`invitation.revoked\`.`, {
    permission: 'operators.manage',
    responses: [{ status: 204, description: 'Revoked' }],
    errors: ['FORBIDDEN', 'STEP_UP_REQUIRED', 'NOT_FOUND'],
  }),
  teamRoute('post', '/invitations/preview', 'previewInvitation', 'What an invitation link offers', 'No credential: the token of the link. 404 `NOT_FOUND` for a link that is unknown, used, revoked or expired; each such answer counts against the client address as a failed authentication (past the limit: 429).', {
    access: 'public',
    body: previewInvitationBody,
    responses: [{ status: 200, description: 'The e-mail, the roles and until when the link works', schema: 'InvitationPreview' }],
    errors: ['NOT_FOUND', 'RATE_LIMITED'],
    idempotent: true,
  }),
  teamRoute('post', '/invitations/accept', 'acceptInvitation', 'Accept an invitation: set a password and sign in', 'No credential: the token of the link, a password (12 to 1024 characters) and a display name. Creates the operator with the invitation\'s roles, marks the invitation accepted (a link works once: a second accept answers 404) and signs them in as `POST /v1/console/session` does (the `console_session` cookie and a token). 404 `NOT_FOUND` for a link that is unknown, used, revoked or expired (counted as a failed authentication: past the limit, 429); 400 when the e-mail has become an operator\'s meanwhile. Recorded as `invitation.accepted`.', {
    access: 'public',
    body: acceptInvitationBody,
    responses: [{ status: 200, description: 'Signed in', schema: 'ConsoleSessionView' }],
    errors: ['NOT_FOUND', 'RATE_LIMITED'],
  }),
  teamRoute('get', '/settings', 'getConsoleSettings', "The instance's console settings", 'Any signed-in operator.', {
    responses: [{ status: 200, description: 'The settings', schema: 'ConsoleSettingsView' }],
  }),
  teamRoute('put', '/settings', 'putConsoleSettings', "Change the instance's console settings", `Owners of every game only, with a fresh second factor (401 \`STEP_UP_REQUIRED\`). \`requireTwoFactor: true\`: every operator must have a second factor; one without can only set one up. Recorded as \`settings.updated\`.`, {
    permission: 'settings.manage',
    body: updateSettingsBody,
    responses: [{ status: 200, description: 'The settings', schema: 'ConsoleSettingsView' }],
    errors: ['FORBIDDEN', 'STEP_UP_REQUIRED'],
    idempotent: true,
  }),
];

/** Every public route, by port. A test checks this list against the routes the gateway really serves. */
export const API_ROUTES: ApiRoute[] = [
  // ---- core_url: players ----
  {
    method: 'post',
    path: '/v1/player/create',
    port: 'core',
    tag: 'Players',
    operationId: 'createPlayer',
    summary: 'Create a player, with its profile and wallet',
    description:
      'Idempotent by `uniqueId` within the game: a repeat answers 200 with the existing player, unchanged, and concurrent creates of one uniqueId yield exactly one player.',
    access: 'apiKey',
    body: createPlayerBody,
    responses: [
      { status: 201, description: 'The new player', schema: 'PlayerView' },
      { status: 200, description: 'The player this game already has with this uniqueId', schema: 'PlayerView' },
    ],
    idempotent: true,
  },
  {
    method: 'get',
    path: '/v1/player/{playerId}',
    port: 'core',
    tag: 'Players',
    operationId: 'getPlayer',
    summary: 'Read a player',
    access: 'apiKey',
    responses: [{ status: 200, description: 'The player', schema: 'PlayerView' }],
    errors: ['PLAYER_NOT_FOUND'],
  },
  // ---- base_url: profiles ----
  {
    method: 'post',
    path: '/v1/profile/{id}/authenticate',
    port: 'base',
    tag: 'Profiles',
    operationId: 'authenticateProfile',
    summary: 'Issue a profile JWT',
    description:
      'With an API key: a token of up to 30 days. With the profile\'s own JWT: a refreshed token whose expiry is never later than the presented one\'s.',
    access: 'apiKeyOrProfile',
    body: authenticateBody,
    responses: [{ status: 200, description: 'The token and when it expires', schema: 'IssuedToken' }],
    errors: ['INVALID_DURATION', 'PROFILE_NOT_FOUND'],
  },
  {
    method: 'post',
    path: '/v1/profile/{id}/revoke',
    port: 'base',
    tag: 'Profiles',
    operationId: 'revokeProfile',
    summary: "Revoke every token of a profile issued until now",
    description: 'Every gateway refuses them within 1 s with 401 `TOKEN_REVOKED`, across restarts.',
    access: 'apiKey',
    responses: [{ status: 204, description: 'Revoked' }],
    errors: ['PROFILE_NOT_FOUND'],
    idempotent: true,
  },
  // ---- base_url: wallets ----
  {
    method: 'get',
    path: '/v1/wallet/{walletId}',
    port: 'base',
    tag: 'Wallets',
    operationId: 'getWallet',
    summary: 'Read a wallet and its addresses',
    access: 'apiKeyOrProfile',
    query: walletQuery,
    responses: [{ status: 200, description: 'The wallet', schema: 'WalletWithProfileView' }],
    errors: ['INVALID_QUERY', 'WALLET_NOT_FOUND', 'PROFILE_NOT_FOUND'],
  },
  {
    method: 'post',
    path: '/v1/wallet/{walletId}/sign',
    port: 'base',
    tag: 'Wallets',
    operationId: 'signMessage',
    summary: 'Sign a message with the wallet',
    description: `evm: EIP-191 personal_sign; sol: Ed25519 over the message bytes (refused when they are a transaction); sui: a personal-message signature. Chains: ${CHAIN_NAMES.join(', ')}. At most 4 KiB once decoded.`,
    access: 'apiKeyOrProfile',
    body: signBody,
    responses: [{ status: 200, description: 'The signature', schema: 'SignatureView' }],
    errors: ['MESSAGE_IS_TRANSACTION', 'WALLET_NOT_FOUND', 'KEY_INTEGRITY_FAILED'],
  },
  {
    method: 'post',
    path: '/v1/wallet/{walletId}/sign-transaction',
    port: 'base',
    tag: 'Wallets',
    operationId: 'signTransaction',
    summary: 'Sign a transaction with the wallet (evm, sol, sui)',
    description:
      'evm: EIP-1559 (type 2) or legacy (type 0, EIP-155; chosen when `gasPrice` is given): the raw signed transaction and its hash. sol: a legacy or v0 transaction in wire format, base64; the wallet must be one of its required signers (else 400 `NOT_A_SIGNER`); the answer holds the signature and the transaction with it in the wallet\'s slot, other signatures kept. sui: TransactionData (BCS, base64) whose sender is the wallet (else 400 `SENDER_MISMATCH`); the answer is Sui\'s serialized signature over the transaction intent. Nonces, fees and broadcasting stay with the caller. The default signing policy lets API keys sign transactions and profile JWTs not (403 `POLICY_DENIED`).',
    access: 'apiKeyOrProfile',
    body: signTransactionBody,
    responses: [{ status: 200, description: 'The signed transaction', schema: 'SignedTransactionView' }],
    errors: ['NOT_A_SIGNER', 'SENDER_MISMATCH', 'POLICY_DENIED', 'WALLET_NOT_FOUND', 'KEY_INTEGRITY_FAILED'],
  },
  {
    method: 'post',
    path: '/v1/wallet/{walletId}/sign-typed-data',
    port: 'base',
    tag: 'Wallets',
    operationId: 'signTypedData',
    summary: 'Sign EIP-712 typed data with the wallet',
    description: 'As `eth_signTypedData_v4`: `0x` r ‖ s ‖ v. The default signing policy lets API keys sign typed data and profile JWTs not (403 `POLICY_DENIED`).',
    access: 'apiKeyOrProfile',
    body: signTypedDataBody,
    responses: [{ status: 200, description: 'The signature', schema: 'SignatureView' }],
    errors: ['POLICY_DENIED', 'WALLET_NOT_FOUND', 'KEY_INTEGRITY_FAILED'],
  },
  // ---- base_url: keys and health ----
  {
    method: 'get',
    path: '/v1/.well-known/jwks.json',
    port: 'base',
    tag: 'Tokens',
    operationId: 'getJwks',
    summary: 'Public keys of profile JWTs (RFC 7517)',
    access: 'public',
    responses: [{ status: 200, description: 'The current and the previous signing key', schema: 'Jwks' }],
    callsServices: false,
    errors: ['SERVICE_UNAVAILABLE'],
  },
  {
    method: 'get',
    path: '/v1/health',
    port: 'base',
    tag: 'Health',
    operationId: 'getHealth',
    summary: "The gateway's database and Redis",
    access: 'public',
    responses: [
      { status: 200, description: 'Every dependency is up', schema: 'HealthReportView' },
      { status: 503, description: 'A dependency is down (or the gateway is shutting down)', schema: 'HealthReportView' },
    ],
    callsServices: false,
  },
  {
    method: 'get',
    path: '/v1/health/live',
    port: 'base',
    tag: 'Health',
    operationId: 'getLiveness',
    summary: 'The process runs',
    access: 'public',
    responses: [{ status: 200, description: 'Alive', schema: 'LivenessView' }],
    callsServices: false,
  },
  {
    method: 'get',
    path: '/v1/health/services',
    port: 'base',
    tag: 'Health',
    operationId: 'getServicesHealth',
    summary: 'A transport ping to identity, wallet and core',
    access: 'public',
    responses: [
      { status: 200, description: 'Every service answers', schema: 'HealthReportView' },
      { status: 503, description: 'A service does not answer within 1 s', schema: 'HealthReportView' },
    ],
    callsServices: false,
  },
  // ---- base_url: console API ----
  {
    method: 'post',
    path: '/v1/console/session',
    port: 'base',
    tag: 'Console',
    operationId: 'signIn',
    summary: 'Sign in to the console',
    description:
      'Sets the `console_session` cookie and returns a console token for scripts. An operator with a second factor gets `{secondFactor}` instead (no cookie, no token): send it back with the factor to `POST /v1/console/session/second-factor`. More than 10 failures a minute per e-mail or address: 429 — but a clean address may still sign in to the second factor with the right password when only the e-mail is locked (see docs/console-sign-in.md).',
    access: 'public',
    body: signInBody,
    responses: [{ status: 200, description: 'Signed in (`{token, expiresAt}`), or the second-factor challenge (`{secondFactor}`)', schema: 'ConsoleSignInView' }],
    errors: ['INVALID_CREDENTIALS', 'RATE_LIMITED'],
  },
  {
    method: 'get',
    path: '/v1/console/session',
    port: 'base',
    tag: 'Console',
    operationId: 'getSession',
    summary: 'The signed-in operator',
    access: 'console',
    responses: [{ status: 200, description: 'The operator and when the session ends', schema: 'ConsoleSessionInfo' }],
  },
  {
    method: 'delete',
    path: '/v1/console/session',
    port: 'base',
    tag: 'Console',
    operationId: 'signOut',
    summary: 'Sign out',
    access: 'console',
    responses: [{ status: 204, description: 'Signed out; the session token is refused from now on' }],
  },
  // ---- base_url: two-factor sign-in, step-up and the operator's own account (workstream 2fa) ----
  ...accountRoutes(),
  {
    method: 'get',
    path: '/v1/console/endpoints',
    port: 'base',
    tag: 'Console',
    operationId: 'getEndpoints',
    summary: 'The public addresses of the platform',
    access: 'console',
    responses: [{ status: 200, description: 'base_url and core_url', schema: 'ConsoleEndpointsView' }],
    callsServices: false,
  },
  {
    method: 'get',
    path: '/v1/console/games',
    port: 'base',
    tag: 'Console',
    operationId: 'listGames',
    summary: 'List games, newest first',
    description:
      "The games the operator has a role in (every game for a grant on every game). 403 `FORBIDDEN` when the instance requires two factors and the operator has not set one up: they can then only use their own account.",
    access: 'console',
    query: pageQuery,
    responses: [{ status: 200, description: 'A page of games', schema: 'GamePage' }],
    errors: ['INVALID_QUERY', 'FORBIDDEN'],
  },
  {
    method: 'post',
    path: '/v1/console/games',
    port: 'base',
    tag: 'Console',
    operationId: 'createGame',
    permission: 'games.create',
    summary: 'Create a game',
    access: 'console',
    body: createGameBody,
    responses: [{ status: 201, description: 'The new game', schema: 'GameView' }],
  },
  {
    method: 'get',
    path: '/v1/console/games/{gameId}',
    port: 'base',
    tag: 'Console',
    operationId: 'getGame',
    permission: 'games.read',
    summary: 'Read a game',
    access: 'console',
    responses: [{ status: 200, description: 'The game', schema: 'GameView' }],
    errors: ['GAME_NOT_FOUND'],
  },
  {
    method: 'get',
    path: '/v1/console/games/{gameId}/api-keys',
    port: 'base',
    tag: 'Console',
    operationId: 'listApiKeys',
    permission: 'apiKeys.read',
    summary: "List a game's API keys",
    access: 'console',
    responses: [{ status: 200, description: 'Every key of the game (secrets are never shown again)', schema: 'ApiKeyList' }],
    errors: ['GAME_NOT_FOUND'],
  },
  {
    method: 'post',
    path: '/v1/console/games/{gameId}/api-keys',
    port: 'base',
    tag: 'Console',
    operationId: 'createApiKey',
    permission: 'apiKeys.create',
    summary: 'Create an API key',
    description: 'The answer holds the secret (`key`): the only time it is ever shown.',
    access: 'console',
    body: createKeyBody,
    responses: [{ status: 201, description: 'The new key with its secret', schema: 'CreatedApiKeyView' }],
    errors: ['GAME_NOT_FOUND'],
  },
  {
    method: 'patch',
    path: '/v1/console/games/{gameId}/api-keys/{keyId}',
    port: 'base',
    tag: 'Console',
    operationId: 'updateApiKey',
    permission: 'apiKeys.update',
    summary: 'Activate or deactivate an API key; require signed requests',
    description:
      'Every gateway applies the change within 1 s. `active` turns the key on or off. `signedRequests` sets which of its requests must carry an RFC 9421 signature by one of its signing keys: `off`; `signing` (sign, sign-transaction, sign-typed-data, and a profile\'s authenticate, which mints a JWT that can sign); `all`. Requiring them needs a registered signing key (else 409 `SIGNING_KEY_REQUIRED`) and the permission `apiKeys.signing`, with a second factor given within the last 5 minutes.',
    access: 'console',
    body: updateKeyBody,
    responses: [{ status: 200, description: 'The key', schema: 'ApiKeyView' }],
    errors: ['GAME_NOT_FOUND', 'API_KEY_NOT_FOUND', 'SIGNING_KEY_REQUIRED', 'STEP_UP_REQUIRED'],
    idempotent: true,
  },
  {
    method: 'post',
    path: '/v1/console/games/{gameId}/api-keys/{keyId}/signing-keys',
    port: 'base',
    tag: 'Console',
    operationId: 'addSigningKey',
    permission: 'apiKeys.signing',
    summary: "Register a public key an API key's requests may be signed with",
    description:
      'An Ed25519 or P-256 public key, as a PEM (`-----BEGIN PUBLIC KEY-----`) or a JWK. Its `id` is its RFC 7638 thumbprint: the fingerprint the console shows and the `keyid` signatures name. At most 3 per API key; a private key is refused (400) and never echoed.',
    access: 'console',
    body: addSigningKeyBody,
    responses: [{ status: 201, description: 'The registered key', schema: 'SigningKeyView' }],
    errors: ['GAME_NOT_FOUND', 'API_KEY_NOT_FOUND', 'SIGNING_KEY_LIMIT', 'SIGNING_KEY_EXISTS'],
  },
  {
    method: 'delete',
    path: '/v1/console/games/{gameId}/api-keys/{keyId}/signing-keys/{signingKeyId}',
    port: 'base',
    tag: 'Console',
    operationId: 'removeSigningKey',
    permission: 'apiKeys.signing',
    summary: 'Remove a request-signing key',
    description: 'Requests signed with it are refused within 1 s. The last key cannot go while the API key requires signed requests (409 `SIGNING_KEY_REQUIRED`).',
    access: 'console',
    responses: [{ status: 204, description: 'Removed' }],
    errors: ['GAME_NOT_FOUND', 'API_KEY_NOT_FOUND', 'SIGNING_KEY_NOT_FOUND', 'SIGNING_KEY_REQUIRED'],
  },
  {
    method: 'delete',
    path: '/v1/console/games/{gameId}/api-keys/{keyId}',
    port: 'base',
    tag: 'Console',
    operationId: 'deleteApiKey',
    permission: 'apiKeys.delete',
    summary: 'Delete an API key',
    description: 'Final. With `revokeTokens=true`, every profile JWT the key issued is revoked too (401 `TOKEN_REVOKED`).',
    access: 'console',
    query: deleteKeyQuery,
    responses: [{ status: 204, description: 'Deleted' }],
    errors: ['INVALID_QUERY', 'GAME_NOT_FOUND', 'API_KEY_NOT_FOUND'],
  },
  {
    method: 'get',
    path: '/v1/console/games/{gameId}/audit',
    port: 'base',
    tag: 'Console',
    operationId: 'listAudit',
    permission: 'audit.read',
    summary: "A game's audit trail, newest first",
    access: 'console',
    query: pageQuery,
    responses: [{ status: 200, description: 'A page of audit entries', schema: 'AuditPage' }],
    errors: ['INVALID_QUERY', 'GAME_NOT_FOUND'],
  },
  {
    method: 'get',
    path: '/v1/console/games/{gameId}/audit/export',
    port: 'base',
    tag: 'Console',
    operationId: 'exportAudit',
    permission: 'audit.read',
    summary: "A game's audit trail as NDJSON, with its hash chains",
    description:
      "Every audit row of the game written in [`since`, `until`) (both optional, ISO 8601), one JSON object per line, each service's chain in its own order and the two interleaved by the time each row was written: the row as stored (`entry`), and its place in its service's hash chain for the game (`chain`: `identity` or `wallet`; `seq` from 1; `hash` = SHA-256 of `prevHash` and the RFC 8785 canonical JSON of `entry`). Streamed; `npm run audit:verify -- FILE` (in the identity image `node cli/audit-verify.js FILE`) checks a file and names the first row changed, removed or reordered.",
    access: 'console',
    query: auditExportQuery,
    responses: [{ status: 200, description: 'The rows, one AuditExportLineView per line', schema: 'AuditExportLineView', mediaType: 'application/x-ndjson' }],
    errors: ['INVALID_QUERY', 'GAME_NOT_FOUND'],
  },
  policyRoute('get', '', 'getSigningPolicy', "A game's signing policy: its ordered rules", 'The active version, with `ETag: "<version>"` (send it back as `If-Match` to change exactly this version). A game that never set one has version 0, the default as rules: API keys may sign messages, transactions and typed data; profile JWTs messages only.', {
    permission: 'policy.read',
    responses: [{ status: 200, description: 'The active policy', schema: 'SigningPolicyView', etag: true }],
    errors: ['GAME_NOT_FOUND'],
  }),
  policyRoute('put', '', 'putSigningPolicy', "Save the next version of a game's signing policy", 'The whole policy as ordered rules (`{rules}`): the first rule whose operation, chains and credentials match and whose criteria all hold decides; none that matches refuses. The first policy shape (operations per credential kind, limits per chain) is still taken but deprecated: it is converted to the rules that decide as it did, and the answer shows them. With `If-Match: "<version>"` (as GET gave it; `*`: any) the change is made only over that version, else 412 `PRECONDITION_FAILED`. The shape is checked here (400 naming the field); what the criteria mean (an ABI fragment that parses, a pattern within its bounds, criteria that fit the rule\'s operation and chains, velocity only in accept rules) is checked by the wallet service, also 400 `VALIDATION_FAILED`. Every wallet service replica applies it within a second. A signing request it refuses answers 403 `POLICY_DENIED` with `details` (the rule, why, the observed value) and is recorded in the audit trail as `wallet.signing_denied`; each change is recorded there as `signing_policy.updated`, with the operator, their address and the rules before and after.', {
    permission: 'policy.write',
    ifMatch: true,
    body: putSigningPolicyBody,
    responses: [{ status: 200, description: 'The policy now in force, a new version', schema: 'SigningPolicyView', etag: true }],
    errors: ['GAME_NOT_FOUND', 'PRECONDITION_FAILED'],
    idempotent: true,
  }),
  policyList('/versions', 'listSigningPolicyVersions', "Every version of a game's signing policy, newest first", 'Each with its rules, when and by whom it was made, and how (`put`, `put-v1`: the first shape converted, `migrated`, `draft`: a draft activated).', { status: 200, description: 'A page of versions', schema: 'SigningPolicyVersionPage' }),
  policyRoute('post', '/evaluate', 'evaluateSigningPolicy', 'Dry run: what the policy decides for a signing request', 'The decision the signing route would make (the deciding rule, why, the observed value) and the facts the rules read of the request, without signing and without counting velocity. `payload` is what the signing route takes: for `message`, the message in base64 (as `/sign` with `encoding: base64`); for `transaction`, EVM\'s transaction fields or a Solana or Sui transaction in base64 (as `/sign-transaction`); for `typed-data`, the typed data (as `/sign-typed-data`). With `walletId`, the wallet\'s velocity counts are read (and its address checked against the transaction: 400 `NOT_A_SIGNER`, `SENDER_MISMATCH`). `policy: draft` evaluates the draft (404 `NOT_FOUND` when there is none).', {
    permission: 'policy.read',
    body: evaluationBody,
    responses: [{ status: 200, description: 'The decision and the facts read', schema: 'PolicyEvaluationView' }],
    errors: ['GAME_NOT_FOUND', 'WALLET_NOT_FOUND', 'FORBIDDEN', 'NOT_FOUND', 'MESSAGE_IS_TRANSACTION', 'NOT_A_SIGNER', 'SENDER_MISMATCH'],
    idempotent: true,
  }),
  policyRoute('get', '/draft', 'getSigningPolicyDraft', "A game's draft signing policy", 'Rules evaluated beside the active policy on every signing attempt, deciding nothing; 404 `NOT_FOUND` when the game has no draft.', {
    permission: 'policy.read',
    responses: [{ status: 200, description: 'The draft', schema: 'SigningPolicyDraftView' }],
    errors: ['GAME_NOT_FOUND', 'NOT_FOUND'],
  }),
  policyRoute('put', '/draft', 'putSigningPolicyDraft', "Replace a game's draft signing policy", 'From now on, every signing attempt is also evaluated against the draft, after its answer; where the draft decides otherwise, the attempt is listed in `…/draft/differences`. Checked as `PUT …/signing-policy` checks rules. Recorded in the audit trail as `signing_policy.draft_updated`.', {
    permission: 'policy.draft',
    body: signingRulesBody,
    responses: [{ status: 200, description: 'The draft', schema: 'SigningPolicyDraftView' }],
    errors: ['GAME_NOT_FOUND'],
    idempotent: true,
  }),
  policyRoute('delete', '/draft', 'deleteSigningPolicyDraft', "Delete a game's draft signing policy", 'Recorded in the audit trail as `signing_policy.draft_deleted`; 404 `NOT_FOUND` when the game has no draft.', {
    permission: 'policy.draft',
    responses: [{ status: 204, description: 'Deleted' }],
    errors: ['GAME_NOT_FOUND', 'NOT_FOUND'],
  }),
  policyRoute('post', '/draft/replay', 'replaySigningPolicyDraft', 'The draft over past signing attempts', 'Evaluates the draft over the facts stored with the game\'s past attempts (since `since`, at most the last 100,000): how many it evaluated, how many decisions it changes each way, how many it cannot decide from stored facts (a message pattern reads the message, which is never stored), and the newest changes (at most 100). Changes nothing. 404 `NOT_FOUND` when the game has no draft.', {
    permission: 'policy.read',
    body: replayBody,
    responses: [{ status: 200, description: 'What the draft would change', schema: 'PolicyReplayView' }],
    errors: ['GAME_NOT_FOUND', 'NOT_FOUND'],
    idempotent: true,
  }),
  policyList('/draft/differences', 'listSigningPolicyDifferences', 'Signing attempts the draft decided otherwise, newest first', 'Recorded shortly after each attempt (the draft is evaluated off the answer\'s path): the attempt, its wallet, operation and chain, and both decisions with their rules.', { status: 200, description: 'A page of differences', schema: 'PolicyDifferencePage' }),
  policyRoute('post', '/draft/activate', 'activateSigningPolicyDraft', 'Make the draft the next version of the policy', 'The draft\'s rules become the active policy (a new version, `origin: draft`) and the draft is removed. With `If-Match: "<version>"`, only when that version is still the active one (else 412 `PRECONDITION_FAILED`). The wallet service checks the rules again (400 `VALIDATION_FAILED`). 404 `NOT_FOUND` when the game has no draft.', {
    permission: 'policy.write',
    ifMatch: true,
    responses: [{ status: 200, description: 'The policy now in force', schema: 'SigningPolicyView', etag: true }],
    errors: ['GAME_NOT_FOUND', 'NOT_FOUND', 'PRECONDITION_FAILED', 'VALIDATION_FAILED'],
  }),
  {
    method: 'get',
    path: '/v1/console/games/{gameId}/players',
    port: 'base',
    tag: 'Console',
    operationId: 'listPlayers',
    permission: 'players.read',
    summary: "A game's players with their addresses",
    access: 'console',
    query: pageQuery.extend(playersQuery.shape),
    responses: [{ status: 200, description: 'A page of players', schema: 'ConsolePlayerPage' }],
    errors: ['INVALID_QUERY', 'GAME_NOT_FOUND'],
  },
  ...WEBHOOK_ROUTES,
  ...TEAM_ROUTES,
];

/** A route of the signed-in operator's own session or account (tag Account, any role). */
function accountRoute(route: Omit<ApiRoute, 'port' | 'tag' | 'access'> & { access?: RouteAccess }): ApiRoute {
  return { port: 'base', tag: 'Account', access: 'console', ...route };
}

/** Two-factor sign-in, step-up, and the operator's own account, sessions and second factors. */
function accountRoutes(): ApiRoute[] {
  const STEP_UP = ' Needs a second factor given in the last 5 minutes (401 `STEP_UP_REQUIRED`: `POST /v1/console/session/step-up`, then again).';
  return [
    accountRoute({
      method: 'post',
      path: '/v1/console/session/second-factor',
      operationId: 'completeSignIn',
      summary: 'Complete a sign-in with a second factor',
      description:
        'The `challenge` of `POST /v1/console/session` and exactly one of `totp` (6 digits), `recoveryCode` (single use) or `passkey` (the WebAuthn assertion to `secondFactor.passkey`). Sets the `console_session` cookie. A challenge lasts 5 minutes, signs in once and takes at most 5 factors; failures also count against the client address (10 a minute, 429).',
      access: 'public',
      body: secondFactorBody,
      responses: [{ status: 200, description: 'Signed in', schema: 'ConsoleSessionView' }],
      errors: ['INVALID_CREDENTIALS', 'RATE_LIMITED'],
    }),
    accountRoute({
      method: 'post',
      path: '/v1/console/session/step-up',
      operationId: 'stepUp',
      summary: 'Give a second factor again for the step-up actions',
      description:
        'Exactly one of `totp`, `recoveryCode`, `passkey` (an assertion to `POST /v1/console/session/step-up/options`) or `password` (only for an operator without a second factor). The step-up actions (API keys, the signing policy, the team, second factors) are then open for 5 minutes. Failures: 5 per session in 5 minutes, 10 a minute per address (429).',
      body: stepUpBody,
      responses: [{ status: 200, description: 'Until when step-up actions are open', schema: 'StepUpView' }],
      errors: ['INVALID_CREDENTIALS', 'VALIDATION_FAILED'],
    }),
    accountRoute({
      method: 'post',
      path: '/v1/console/session/step-up/options',
      operationId: 'stepUpOptions',
      summary: 'WebAuthn options for a step-up with a passkey',
      responses: [{ status: 200, description: 'Request options (null without a passkey); the challenge works once, for 2 minutes', schema: 'StepUpOptionsView' }],
    }),
    accountRoute({
      method: 'patch',
      path: '/v1/console/account',
      operationId: 'updateAccount',
      summary: 'Change your display name',
      body: updateAccountBody,
      responses: [{ status: 200, description: 'Your account', schema: 'ConsoleAccountView' }],
      idempotent: true,
    }),
    accountRoute({
      method: 'put',
      path: '/v1/console/account/password',
      operationId: 'changePassword',
      summary: 'Change your password',
      description: 'The new password: 12 to 1024 characters. Every other session of yours ends, on every gateway within 1 s. A wrong current password counts as a failed sign-in.',
      body: changePasswordBody,
      responses: [{ status: 200, description: 'Changed', schema: 'PasswordChangedView' }],
      errors: ['INVALID_CREDENTIALS'],
    }),
    accountRoute({
      method: 'get',
      path: '/v1/console/account/sessions',
      operationId: 'listOwnSessions',
      summary: 'Your open sessions',
      responses: [{ status: 200, description: 'Newest first, the one asking marked `current`', schema: 'ConsoleSessionEntryList' }],
    }),
    accountRoute({
      method: 'delete',
      path: '/v1/console/account/sessions',
      operationId: 'endOtherSessions',
      summary: 'End every other session of yours',
      description: 'Every gateway refuses them within 1 s, and after any restart.',
      responses: [{ status: 204, description: 'Ended' }],
      idempotent: true,
    }),
    accountRoute({
      method: 'delete',
      path: '/v1/console/account/sessions/{sessionId}',
      operationId: 'endOwnSession',
      summary: 'End one session of yours',
      description: 'Every gateway refuses it within 1 s, and after any restart.',
      responses: [{ status: 204, description: 'Ended' }],
      errors: ['NOT_FOUND'],
    }),
    accountRoute({
      method: 'post',
      path: '/v1/console/account/totp',
      operationId: 'startTotp',
      summary: 'Start setting up an authenticator app (TOTP)',
      description: `A new secret (and its \`otpauth://\` URI for a QR code), pending until \`POST /v1/console/account/totp/confirm\`.${STEP_UP}`,
      responses: [{ status: 200, description: 'The secret, shown this once', schema: 'TotpEnrollmentView' }],
      errors: ['FORBIDDEN', 'STEP_UP_REQUIRED'],
    }),
    accountRoute({
      method: 'post',
      path: '/v1/console/account/totp/confirm',
      operationId: 'confirmTotp',
      summary: 'Confirm the authenticator app with a code from it',
      description: `TOTP is then a second factor of yours; the answer holds 10 new single-use recovery codes, shown this once.${STEP_UP}`,
      body: confirmTotpBody,
      responses: [{ status: 200, description: 'Your recovery codes', schema: 'RecoveryCodesView' }],
      errors: ['INVALID_CREDENTIALS', 'NOT_FOUND', 'FORBIDDEN', 'STEP_UP_REQUIRED'],
    }),
    accountRoute({
      method: 'delete',
      path: '/v1/console/account/totp',
      operationId: 'removeTotp',
      summary: 'Remove the authenticator app',
      description: `Recovery codes go too when no passkey is left.${STEP_UP}`,
      responses: [{ status: 204, description: 'Removed' }],
      errors: ['NOT_FOUND', 'STEP_UP_REQUIRED'],
    }),
    accountRoute({
      method: 'post',
      path: '/v1/console/account/recovery-codes',
      operationId: 'renewRecoveryCodes',
      summary: 'New recovery codes',
      description: `Ten new single-use codes, shown this once; the old ones stop working.${STEP_UP}`,
      responses: [{ status: 200, description: 'Your recovery codes', schema: 'RecoveryCodesView' }],
      errors: ['FORBIDDEN', 'STEP_UP_REQUIRED'],
    }),
    accountRoute({
      method: 'post',
      path: '/v1/console/account/passkeys/options',
      operationId: 'passkeyOptions',
      summary: 'WebAuthn options to register a passkey',
      description: `For \`navigator.credentials.create\`; the challenge works once, for 2 minutes.${STEP_UP}`,
      responses: [{ status: 200, description: 'Creation options (PublicKeyCredentialCreationOptionsJSON)', schema: 'PasskeyCreationOptionsView' }],
      errors: ['FORBIDDEN', 'STEP_UP_REQUIRED'],
    }),
    accountRoute({
      method: 'post',
      path: '/v1/console/account/passkeys',
      operationId: 'registerPasskey',
      summary: 'Register a passkey as a second factor',
      description: `\`response\`: the authenticator's answer (RegistrationResponseJSON) to the options of \`POST /v1/console/account/passkeys/options\`.${STEP_UP}`,
      body: registerPasskeyBody,
      responses: [{ status: 201, description: 'The passkey', schema: 'PasskeyView' }],
      errors: ['STEP_UP_REQUIRED'],
    }),
    accountRoute({
      method: 'delete',
      path: '/v1/console/account/passkeys/{passkeyId}',
      operationId: 'removePasskey',
      summary: 'Remove a passkey',
      description: `Recovery codes go too when no other second factor is left.${STEP_UP}`,
      responses: [{ status: 204, description: 'Removed' }],
      errors: ['NOT_FOUND', 'STEP_UP_REQUIRED'],
    }),
  ];
}

import { CONSOLE_PERMISSIONS, ERROR_STATUS, ErrorCode } from '@game-wallet/contracts';
import VIEW_SCHEMAS from '@game-wallet/contracts/view-schemas';
import { z } from 'zod';
import { API_ROUTES, ApiPort, ApiRoute, RouteAccess } from './api-routes';
import EXAMPLES from './examples.json';
import { WEBHOOK_DATA_SCHEMAS, webhooksSection } from './webhook-events';

type Json = Record<string, unknown>;

/** Errors every route can answer, by what it takes: credentials, a body, a service behind it. */
const ACCESS_ERRORS: Record<RouteAccess, ErrorCode[]> = {
  apiKey: ['UNAUTHENTICATED', 'INVALID_API_KEY', 'INVALID_TOKEN', 'TOKEN_EXPIRED', 'TOKEN_REVOKED', 'API_KEY_INACTIVE', 'FORBIDDEN', 'API_KEY_REQUIRED', 'RATE_LIMITED', 'SIGNATURE_REQUIRED', 'INVALID_SIGNATURE'],
  apiKeyOrProfile: ['UNAUTHENTICATED', 'INVALID_API_KEY', 'INVALID_TOKEN', 'TOKEN_EXPIRED', 'TOKEN_REVOKED', 'API_KEY_INACTIVE', 'FORBIDDEN', 'RATE_LIMITED', 'SIGNATURE_REQUIRED', 'INVALID_SIGNATURE'],
  // 429: a client address past its failed authentications is refused before its credential is looked at.
  console: ['UNAUTHENTICATED', 'INVALID_TOKEN', 'TOKEN_EXPIRED', 'TOKEN_REVOKED', 'RATE_LIMITED'],
  public: [],
};
const BODY_ERRORS: ErrorCode[] = ['VALIDATION_FAILED', 'MALFORMED_JSON'];
/** A body sent with any method but GET is parsed before routing, even to a route that takes none. */
const PARSED_BODY_ERRORS: ErrorCode[] = ['MALFORMED_JSON'];
const SERVICE_ERRORS: ErrorCode[] = ['SERVICE_UNAVAILABLE', 'GATEWAY_TIMEOUT'];
/** A write sent with an `Idempotency-Key`: its first request still running, or the key used with another body. */
const IDEMPOTENCY_ERRORS: ErrorCode[] = ['IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED'];
/**
 * Errors of every route, whatever it takes: what HTTP itself refuses before routing (a control character in a header,
 * a bad percent-encoding, no `Host`, headers past 16 KiB, an unknown `Expect`, headers that never end), the body checks
 * every port makes before routing (413, 415), a fault (500) and an instance that is shutting down (503).
 */
const EVERY_ROUTE_ERRORS: ErrorCode[] = [
  'BAD_REQUEST',
  'REQUEST_TIMEOUT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'EXPECTATION_FAILED',
  'HEADERS_TOO_LARGE',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
];
/** A path id longer than the router takes (100 characters). */
const PATH_ID_ERRORS: ErrorCode[] = ['URI_TOO_LONG'];

const SECURITY: Record<RouteAccess, Json[]> = {
  apiKey: [{ 'api-key': [] }],
  apiKeyOrProfile: [{ 'api-key': [] }, { 'jwt-core': [] }],
  console: [{ 'console-token': [] }, { 'console-cookie': [] }],
  public: [],
};

const SECURITY_SCHEMES: Json = {
  'api-key': {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description:
      "A game's API key (`gk_` + 40 characters): the whole API for that game. A key may require signed requests (RFC 9421): then `Signature-Input` and `Signature` by one of its registered Ed25519 or P-256 keys, covering `@method`, `@target-uri`, `x-api-key` and `content-digest` (RFC 9530) when there is a body, with `created` within 5 minutes, a `nonce` used once and `keyid` naming the key; else 401 `SIGNATURE_REQUIRED` or `INVALID_SIGNATURE`.",
  },
  'jwt-core': { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A profile JWT (ES256): its own profile, wallet and signatures only.' },
  'console-token': { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The console token from `POST /v1/console/session`.' },
  'console-cookie': { type: 'apiKey', in: 'cookie', name: 'console_session', description: 'The console session cookie.' },
};

const HEADERS: Json = {
  'x-request-id': { description: 'The request id: the one sent (≤ 128 printable characters) or a generated one.', schema: { type: 'string' } },
  'retry-after': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 0 } },
  'ratelimit-limit': { description: 'Requests allowed in a burst.', schema: { type: 'integer' } },
  'ratelimit-remaining': { description: 'Requests left in the current burst.', schema: { type: 'integer' } },
  'ratelimit-reset': { description: 'Seconds until the burst is full again.', schema: { type: 'integer' } },
  'idempotent-replayed': {
    description: '`true` on an answer replayed for a repeated `Idempotency-Key`: the request did not run again.',
    schema: { type: 'string', enum: ['true'] },
  },
  etag: { description: 'The version shown, as a strong entity tag: `"<version>"`. Send it back as `If-Match` to change exactly that version.', schema: { type: 'string', pattern: '^"[0-9]+"$' } },
};

/** `If-Match` of the routes that change a versioned resource (a signing policy). */
const IF_MATCH: Json = {
  name: 'if-match',
  in: 'header',
  required: false,
  description:
    'The `ETag` a GET answered (`"<version>"`): the change is made only while that version is current, else 412 `PRECONDITION_FAILED`. `*` or absent: any version. Anything else (a weak or unquoted tag, a list) is 400 `VALIDATION_FAILED`.',
  schema: { type: 'string' },
};

/** `Idempotency-Key` of every write with a credential (IETF httpapi draft). */
const IDEMPOTENCY_KEY: Json = {
  name: 'idempotency-key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the first request with a key runs and its answer (unless a 5xx) is kept 24 h for this credential and route; the same key and body again get that answer with `Idempotent-Replayed: true`; another body 422 `IDEMPOTENCY_KEY_REUSED`; while the first runs 409 `IDEMPOTENCY_IN_PROGRESS` with `Retry-After`. 1–255 printable ASCII characters, as a structured-field string (`"…"`) or bare; else 400 `VALIDATION_FAILED`.',
  schema: { type: 'string', minLength: 1, maxLength: 257 },
};

/** The headers of a signed request (RFC 9421, RFC 9530), required by an API key set to require them. */
const SIGNATURE_HEADERS: Json[] = [
  {
    name: 'signature-input',
    in: 'header',
    required: false,
    description:
      'RFC 9421: e.g. `sig=("@method" "@target-uri" "x-api-key" "content-digest");created=1767225600;nonce="…";keyid="<key fingerprint>";alg="ed25519"`. Required when the API key requires signed requests for this route.',
    schema: { type: 'string' },
  },
  { name: 'signature', in: 'header', required: false, description: 'RFC 9421: `sig=:<base64 signature>:` (Ed25519, or P-256 r‖s).', schema: { type: 'string' } },
  { name: 'content-digest', in: 'header', required: false, description: 'RFC 9530: `sha-256=:<base64 SHA-256 of the body>:`, covered by the signature when the request has a body.', schema: { type: 'string' } },
];

const isWrite = (route: ApiRoute): boolean => route.method !== 'get';
/** Writes made with a credential take an `Idempotency-Key` (a sign-in or an invitation has none to keep it for). */
const takesIdempotencyKey = (route: ApiRoute): boolean => isWrite(route) && route.access !== 'public';
const takesApiKey = (route: ApiRoute): boolean => route.access === 'apiKey' || route.access === 'apiKeyOrProfile';

const ref = (section: string, name: string): Json => ({ $ref: `#/components/${section}/${name}` });

/** JSON Schema (2020-12, what OpenAPI 3.1 uses) of a request validator, as clients send it. */
function inputSchema(schema: z.ZodType): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;
  return rest;
}

function parameters(route: ApiRoute): Json[] {
  const path = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    description: 'A UUID; a malformed one is simply not found (404), one longer than 100 characters is 414 `URI_TOO_LONG`.',
    schema: { type: 'string' },
  }));
  const query = route.query
    ? Object.entries((inputSchema(route.query).properties ?? {}) as Record<string, Json>).map(([name, schema]) => {
        const { description, ...rest } = schema;
        return { name, in: 'query', required: false, ...(description ? { description } : {}), schema: rest };
      })
    : [];
  return [
    ...path,
    ...query,
    ...(route.ifMatch ? [IF_MATCH] : []),
    ...(takesIdempotencyKey(route) ? [IDEMPOTENCY_KEY] : []),
    ...(takesApiKey(route) ? SIGNATURE_HEADERS : []),
  ];
}

/**
 * A console route's refusals by the permission table: 403 when the operator's role does not allow it (or the instance
 * requires a second factor they have not set up), 404 for a game outside their grants, 401 without a fresh second factor.
 */
function permissionErrors(route: ApiRoute): ErrorCode[] {
  if (route.permission === undefined) {
    return [];
  }
  const rule = CONSOLE_PERMISSIONS[route.permission];
  return ['FORBIDDEN', ...(rule.scope === 'game' ? (['GAME_NOT_FOUND'] as const) : []), ...(rule.stepUp ? (['STEP_UP_REQUIRED'] as const) : [])];
}

/** "Who may" of a console route, from the permission table, after its own description. */
export function permissionNote(route: ApiRoute): string | undefined {
  if (route.permission === undefined) {
    return undefined;
  }
  const rule = CONSOLE_PERMISSIONS[route.permission];
  const scope = rule.scope === 'game' ? 'for every game or for this game' : rule.scope === 'instance' ? 'for every game' : 'for every game, or for the games concerned';
  const stepUp = rule.stepUp ? ' It needs a second factor given within the last 5 minutes (else 401 `STEP_UP_REQUIRED`; `POST /v1/console/session/step-up`).' : '';
  return `Roles: ${rule.roles.join(', ')} (${scope}; permission \`${route.permission}\`).${stepUp}`;
}

/** The error codes a route can answer with, grouped by status. */
export function routeErrors(route: ApiRoute): Map<number, ErrorCode[]> {
  const codes = new Set<ErrorCode>([
    ...ACCESS_ERRORS[route.access],
    ...(route.body || route.query ? (route.body ? BODY_ERRORS : ['INVALID_QUERY' as const]) : []),
    ...(route.method === 'get' ? [] : PARSED_BODY_ERRORS),
    ...(route.path.includes('{') ? PATH_ID_ERRORS : []),
    ...(route.callsServices === false ? [] : SERVICE_ERRORS),
    ...(takesIdempotencyKey(route) ? IDEMPOTENCY_ERRORS : []),
    ...EVERY_ROUTE_ERRORS,
    ...permissionErrors(route),
    ...(route.errors ?? []),
  ]);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

function responses(route: ApiRoute): Json {
  const answers: Json = {};
  const rateLimited = route.access === 'apiKey' || route.access === 'apiKeyOrProfile';
  for (const response of route.responses) {
    answers[String(response.status)] = {
      description: response.description,
      headers: {
        'x-request-id': ref('headers', 'x-request-id'),
        ...(response.etag ? { etag: ref('headers', 'etag') } : {}),
        ...(rateLimited ? rateLimitHeaders() : {}),
        ...(takesIdempotencyKey(route) ? { 'idempotent-replayed': ref('headers', 'idempotent-replayed') } : {}),
      },
      ...(response.schema ? { content: { [response.mediaType ?? 'application/json']: { schema: ref('schemas', response.schema), ...example(route, response.status) } } } : {}),
    };
  }
  for (const [status, codes] of routeErrors(route)) {
    if (answers[String(status)] !== undefined) {
      continue; // a documented answer of its own (a health report's 503)
    }
    answers[String(status)] = {
      description: `Error: ${codes.map((code) => `\`${code}\``).join(', ')}`,
      headers: {
        'x-request-id': ref('headers', 'x-request-id'),
        ...(status === 429 || status === 503 || (status === 409 && codes.includes('IDEMPOTENCY_IN_PROGRESS')) ? { 'retry-after': ref('headers', 'retry-after') } : {}),
        ...(status === 429 && rateLimited ? rateLimitHeaders() : {}),
      },
      content: { 'application/json': { schema: errorSchema(codes) } },
    };
  }
  return answers;
}

/**
 * The error body of one status, with the codes it may carry. `details` comes with 403 `POLICY_DENIED` only (the rule
 * that decided, why, and the observed value): where a status may carry other codes too, it is there when the code is
 * that one.
 */
function errorSchema(codes: ErrorCode[]): Json {
  const schema: Json = { allOf: [ref('schemas', 'ErrorBody')], properties: { code: { enum: codes } } };
  if (!codes.includes('POLICY_DENIED')) {
    return schema;
  }
  return {
    ...schema,
    if: { properties: { code: { const: 'POLICY_DENIED' } } },
    then: { required: ['details'], properties: { details: ref('schemas', 'PolicyDeniedDetails') } },
    else: { not: { required: ['details'] } },
  };
}

/** A real answer of the route (recorded by the OpenAPI end-to-end suite against a running platform). */
function example(route: ApiRoute, status: number): Json {
  const recorded = (EXAMPLES as Record<string, unknown>)[`${route.method} ${route.path} ${status}`];
  return recorded === undefined ? {} : { example: recorded };
}

function rateLimitHeaders(): Json {
  return {
    'ratelimit-limit': ref('headers', 'ratelimit-limit'),
    'ratelimit-remaining': ref('headers', 'ratelimit-remaining'),
    'ratelimit-reset': ref('headers', 'ratelimit-reset'),
  };
}

function operation(route: ApiRoute): Json {
  const params = parameters(route);
  return {
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    ...(route.description || route.permission ? { description: [route.description, permissionNote(route)].filter((text) => text !== undefined).join('\n\n') } : {}),
    security: SECURITY[route.access],
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: inputSchema(route.body) } } } } : {}),
    responses: responses(route),
    ...(route.idempotent ? { 'x-idempotent': true } : {}),
  };
}

/** What every operation may answer before it runs, said once for the reader (each operation lists the codes too). */
const BEFORE_ROUTING =
  'Before any route runs, HTTP itself may refuse a request, in the same shape: 400 `BAD_REQUEST` (a control character in a header, raw non-ASCII or a bad percent-encoding in the path, no `Host`, broken body framing), 408 `REQUEST_TIMEOUT` (headers that never end), 413 `PAYLOAD_TOO_LARGE` and 415 `UNSUPPORTED_MEDIA_TYPE` (a body over 64 KiB or not JSON, with any method), 414 `URI_TOO_LONG` (an id longer than 100 characters), 417 `EXPECTATION_FAILED` (an `Expect` other than `100-continue`), 431 `HEADERS_TOO_LARGE` (request line and headers over 16 KiB).';

const TITLES: Record<ApiPort, { title: string; description: string }> = {
  base: {
    title: 'Game Wallet Platform — base_url',
    description: `Profiles (JWTs), wallets (addresses and signatures), health, the JWKS and the console API. Errors are always \`{message, code}\` (a 403 \`POLICY_DENIED\` adds \`details\`: the rule that decided, why, and the observed value); every answer carries \`x-request-id\`. Players are on core_url (its own document). ${BEFORE_ROUTING}`,
  },
  core: {
    title: 'Game Wallet Platform — core_url',
    description: `Players: create (idempotent by uniqueId) and read, with an API key. Errors are always \`{message, code}\`; every answer carries \`x-request-id\`. ${BEFORE_ROUTING}`,
  },
};

/** The schemas a document's routes refer to, and those they refer to in turn. */
function reachableSchemas(roots: string[]): Json {
  const all = VIEW_SCHEMAS as Record<string, Json>;
  const found = new Set<string>();
  const visit = (name: string): void => {
    if (found.has(name) || all[name] === undefined) {
      return;
    }
    found.add(name);
    for (const [, inner] of JSON.stringify(all[name]).matchAll(/#\/components\/schemas\/([A-Za-z0-9._-]+)/g)) {
      visit(inner);
    }
  };
  roots.forEach(visit);
  return Object.fromEntries([...found].sort().map((name) => [name, all[name]]));
}

/** The OpenAPI 3.1 document of one public port: only the routes that port serves. */
export function openApiDocument(port: ApiPort, serverUrl = '/'): Json {
  const routes = API_ROUTES.filter((route) => route.port === port);
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    paths[route.path] = { ...(paths[route.path] ?? {}), [route.method]: operation(route) };
  }
  const roots = [
    'ErrorBody',
    ...routes.flatMap((route) => route.responses.flatMap((response) => (response.schema ? [response.schema] : []))),
    ...(port === 'base' ? WEBHOOK_DATA_SCHEMAS : []),
  ];
  return {
    openapi: '3.1.0',
    info: { ...TITLES[port], version: 'v1' },
    servers: [{ url: serverUrl }],
    tags: [...new Set(routes.map((route) => route.tag))].map((name) => ({ name })),
    paths,
    // The events a game's webhook endpoints receive (the console API's endpoints, on base_url, send them).
    ...(port === 'base' ? { webhooks: webhooksSection() } : {}),
    components: { schemas: reachableSchemas(roots), securitySchemes: SECURITY_SCHEMES, headers: HEADERS },
  };
}

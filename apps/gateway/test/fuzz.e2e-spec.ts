import { createHash, generateKeyPairSync } from 'node:crypto';
import {
  GameFixture,
  HOSTILE,
  JsonPlace,
  PROTOTYPE_NAMES,
  Random,
  RawRequest,
  RawResponse,
  TEST_OPERATOR,
  TestPlatform,
  anyHostile,
  consoleToken,
  createGame,
  createKey,
  createPlayer,
  describeValue,
  fuzzSeed,
  hostileKey,
  http,
  jsonPlaces,
  pathText,
  profileJwt,
  rawHttp,
  steppedUpCall,
  tamper,
  toJsonText,
  waitFor,
  withChange,
  withMember,
} from '@game-wallet/testing';
import type { AppName } from '@game-wallet/testing';
import type { PlayerView } from '@game-wallet/contracts';
import Ajv2020 from 'ajv/dist/2020';

type Json = Record<string, unknown>;
type Port = 'base' | 'core';
interface Parameter {
  name: string;
  in: 'path' | 'query';
  schema: { enum?: string[] };
}
interface Operation {
  operationId: string;
  security?: Record<string, unknown>[];
  parameters?: Parameter[];
  requestBody?: unknown;
  responses: Record<string, { content?: { 'application/json': { schema: Json } } }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: Json;
}
interface Target {
  port: Port;
  method: string;
  path: string;
  operation: Operation;
}

/** A request-signing public key the run registers (on spare keys only) and its RFC 7638 thumbprint. */
const FUZZ_SIGNING_JWK = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
const FUZZ_SIGNING_KEY = { kty: 'OKP', crv: 'Ed25519', x: String(FUZZ_SIGNING_JWK.x) };
const FUZZ_SIGNING_KEY_ID = createHash('sha256').update(JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x: FUZZ_SIGNING_KEY.x })).digest('base64url');
/** One request of the run and what it changes from a valid one. */
interface Case {
  target: Target;
  what: string;
  request: RawRequest;
}
interface Finding {
  request: number;
  operation: string;
  what: string;
  answer: string;
}

/**
 * Fuzzing every operation of the OpenAPI documents the gateway serves: a few hundred requests from a seeded PRNG (the
 * seed is printed; `FUZZ_SEED=<n>` replays a run), each a valid request (credentials of each kind the operation takes,
 * real ids) with one part made hostile: its JSON body at one place (wrong types, edge and 78-digit numbers, NUL, lone
 * surrogates, `Object.prototype` names as keys and values, nesting 5,000 deep, unknown fields), the body's format,
 * a path id, the query, or the headers. Every answer must come, must not be a 5xx, must be exactly `{message, code}`
 * when it is an error, must be a status (and code) the document lists for the operation, and must match the
 * document's schema when it succeeds; no app may die, and every health check answers 200 afterwards. A request that
 * stops an app is reported and the app started again, so one run reports every failure it finds.
 */
describe('fuzzing every operation of the OpenAPI documents', () => {
  const seed = fuzzSeed();
  const random = new Random(seed);
  let platform: TestPlatform;
  let documents: Record<Port, Document>;
  let operator: string;
  let sessions: string[];
  let main: GameFixture;
  let other: GameFixture;
  let player: PlayerView;
  let victim: PlayerView;
  let stranger: PlayerView;
  let jwt: string;
  let spareKeys: string[];
  /** A webhook endpoint of the main game (turned off: nothing is sent) and its one delivery, a test event. */
  let webhook: { endpointId: string; deliveryId: string };
  let policy: Json;

  beforeAll(async () => {
    process.stdout.write(`fuzz seed ${seed} (replay with FUZZ_SEED=${seed})\n`);
    const unlimited = '1000000';
    platform = await TestPlatform.start('fuzz', {
      env: {
        RATE_LIMIT_API_KEY_RPS: unlimited,
        RATE_LIMIT_API_KEY_BURST: unlimited,
        RATE_LIMIT_JWT_RPS: unlimited,
        RATE_LIMIT_AUTH_FAILURES_PER_IP: unlimited,
        RATE_LIMIT_SIGN_PER_WALLET_RPS: unlimited,
      },
    });
    const [base, core] = await Promise.all([http<Document>('GET', `${platform.baseUrl}/v1/openapi.json`), http<Document>('GET', `${platform.coreUrl}/v1/openapi.json`)]);
    documents = { base: base.body, core: core.body };
    operator = await consoleToken(platform);
    // Sessions only the sign-out requests use, so signing out never ends the one the other console requests use.
    sessions = [await consoleToken(platform), await consoleToken(platform)];
    main = await createGame(platform, operator, 'Fuzzed game');
    other = await createGame(platform, operator, 'Another game');
    player = await createPlayer(platform, main.key, 'fuzz-player');
    victim = await createPlayer(platform, main.key, 'fuzz-victim');
    stranger = await createPlayer(platform, other.key, 'fuzz-stranger');
    jwt = await profileJwt(platform, player.profileId, main.key);
    spareKeys = [];
    for (let i = 0; i < 3; i += 1) {
      spareKeys.push((await createKey(platform, operator, main.gameId, `spare ${i}`)).keyId);
    }
    const endpoint = await steppedUpCall<{ id: string }>(platform, operator, 'POST', `${platform.baseUrl}/v1/console/games/${main.gameId}/webhooks`, { url: 'https://hooks.example.com/fuzz', eventTypes: ['*'], enabled: false });
    const test = await http<{ id: string }>('POST', `${platform.baseUrl}/v1/console/games/${main.gameId}/webhooks/${endpoint.body.id}/test`, { bearer: operator });
    webhook = { endpointId: endpoint.body.id, deliveryId: test.body.id };
    policy = {
      operations: { apiKey: ['message', 'transaction', 'typed-data'], profile: ['message'] },
      evm: { chainIds: ['8453'], maxValueWei: '1000000', maxFeeWei: null, contracts: null, typedDataPrimaryTypes: ['Claim'] },
      sol: { programs: null, maxLamports: '5000', maxPriorityMicroLamports: null },
      sui: { packages: ['0x2'], allowTransfers: true, maxGasBudget: null },
    };
  });

  afterAll(async () => {
    await platform?.stop();
  });

  // ---- what a valid request of each operation looks like ----

  /** A valid body of each operation that takes one (the run fails for an operation that has none here). */
  const validBody = (operationId: string): unknown =>
    ({
      createPlayer: { uniqueId: `fuzz-${random.int(1e9)}`, image: 'https://cdn.example.com/p.png', userData: { username: 'Ada', level: 3, tags: ['miner', 'pilot'], profile: { guild: 'north' } } },
      authenticateProfile: { duration: 900 },
      signMessage: { chain: random.pick(['evm', 'sol', 'sui']), message: 'Sign in: nonce 42', encoding: 'utf8' },
      signTransaction: {
        chain: 'evm',
        transaction: { chainId: 8453, nonce: 0, to: '0x000000000000000000000000000000000000dEaD', value: '1000', gasLimit: 21000, maxFeePerGas: '1000000000', maxPriorityFeePerGas: '1000000' },
      },
      signTypedData: {
        domain: { name: 'Space Miners', version: '1', chainId: 8453 },
        types: { Claim: [{ name: 'item', type: 'string' }, { name: 'amount', type: 'uint256' }] },
        primaryType: 'Claim',
        message: { item: 'sword', amount: 1 },
      },
      signIn: { email: TEST_OPERATOR.email, password: TEST_OPERATOR.password },
      createGame: { name: 'Fuzzed game' },
      createApiKey: { name: 'fuzzed key' },
      updateApiKey: { active: true },
      addSigningKey: { name: 'fuzzed signing key', publicKey: FUZZ_SIGNING_KEY },
      putSigningPolicy: policy,
      putSigningPolicyDraft: { rules: [{ id: 'claims', action: 'accept', operation: 'message', criteria: [{ type: 'messageLength', operator: '<=', value: '64' }] }] },
      evaluateSigningPolicy: { operation: 'message', chain: 'evm', credential: { kind: 'apiKey' }, payload: Buffer.from('Sign in: nonce 42').toString('base64') },
      replaySigningPolicyDraft: { since: '2026-01-01T00:00:00Z' },
      completeSignIn: { challenge: 'fuzz-challenge-00000000000000000000000000', totp: '123456' },
      stepUp: { password: TEST_OPERATOR.password },
      updateAccount: { displayName: 'Fuzzed operator' },
      // The same password again: a change that changes nothing (it still ends the operator's other sessions).
      changePassword: { currentPassword: TEST_OPERATOR.password, newPassword: TEST_OPERATOR.password },
      confirmTotp: { code: '123456' },
      registerPasskey: { name: 'Fuzzed key', response: { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON: 'e30', attestationObject: 'oA' } } },
      // Another game's roles, for an operator id that does not exist: the run never changes who may do what.
      updateOperator: { grants: [{ role: 'viewer', gameId: other.gameId }] },
      createInvitation: { email: `fuzz-${random.int(1e9)}@example.com`, grants: [{ role: 'viewer', gameId: other.gameId }] },
      previewInvitation: { token: 'A'.repeat(43) },
      acceptInvitation: { token: 'A'.repeat(43), password: 'fuzzed password 1', displayName: 'Fuzzed' },
      putConsoleSettings: { requireTwoFactor: false },
      createWebhookEndpoint: { url: 'https://hooks.example.com/fuzzed', eventTypes: ['player.created', 'wallet.signed'], description: 'Fuzzed', enabled: false },
      updateWebhookEndpoint: { url: 'https://hooks.example.com/fuzz', eventTypes: ['*'], description: 'Fuzzed', enabled: false },
      rotateWebhookSecret: { overlapSeconds: 3600 },
      redeliverFailedWebhooks: { since: '2026-01-01T00:00:00Z' },
    })[operationId];

  /** Real ids for each path parameter, by operation where it matters, and ids of another game's resources. */
  const realId = (operationId: string, name: string): string => {
    switch (name) {
      case 'walletId':
        return player.walletId;
      case 'playerId':
        return player.id;
      case 'id':
        // Revoking ends a profile's tokens: revoke another profile than the one whose token the run uses.
        return operationId === 'revokeProfile' ? victim.profileId : player.profileId;
      case 'gameId':
        // A policy the run writes could refuse the signatures it asks for: write another game's.
        return ['putSigningPolicy', 'putSigningPolicyDraft', 'deleteSigningPolicyDraft', 'activateSigningPolicyDraft'].includes(operationId) ? other.gameId : main.gameId;
      case 'keyId':
        // Never the key the run uses: a deactivated or deleted key would refuse the rest of the run.
        return random.pick(spareKeys);
      case 'endpointId':
        return webhook.endpointId;
      case 'signingKeyId':
        return FUZZ_SIGNING_KEY_ID;
      case 'deliveryId':
        return webhook.deliveryId;
      case 'operatorId':
      case 'sessionId':
      case 'invitationId':
      case 'passkeyId':
        // Never the operator or session the run uses: an id of nothing, so the run cannot end or remove its own.
        return randomUuid();
      default:
        throw new Error(`no real id for the path parameter ${name}`);
    }
  };
  const foreignId = (name: string): string =>
    ({ walletId: stranger.walletId, playerId: stranger.id, id: stranger.profileId, gameId: other.gameId, keyId: other.keyId })[name] ?? randomUuid();
  const randomUuid = (): string => {
    const hex = Array.from({ length: 32 }, () => '0123456789abcdef'[random.int(16)]).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20)}`;
  };

  /** The credential headers of one kind the operation takes (none for a public one). */
  const credential = (target: Target): [string, string][] => {
    const kinds = (target.operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
    if (kinds.length === 0) {
      return [];
    }
    const token = target.operation.operationId === 'signOut' ? random.pick(sessions) : operator;
    switch (random.pick(kinds)) {
      case 'api-key':
        return [['x-api-key', main.key]];
      case 'jwt-core':
        return [['authorization', `Bearer ${jwt}`]];
      case 'console-cookie':
        return [['cookie', `console_session=${token}`]];
      default:
        return [['authorization', `Bearer ${token}`]];
    }
  };

  const parameters = (target: Target, place: 'path' | 'query'): Parameter[] => (target.operation.parameters ?? []).filter((parameter) => parameter.in === place);
  const validQuery = (target: Target): [string, string][] =>
    parameters(target, 'query').flatMap((parameter): [string, string][] => {
      if (parameter.schema.enum && random.chance(0.7)) {
        return [[parameter.name, random.pick(parameter.schema.enum)]];
      }
      return parameter.name === 'limit' && random.chance(0.5) ? [['limit', String(1 + random.int(100))]] : [];
    });

  /** A valid request of the operation; `change` edits its parts before they are put together. */
  const request = (
    target: Target,
    change: { path?: Record<string, string>; query?: [string, string][]; headers?: [string, string][]; replaceHeaders?: boolean; body?: { text: string | Buffer; type?: string | null } | null; host?: string | null } = {},
  ): RawRequest => {
    const path = target.path.replace(/\{(\w+)\}/g, (_, name: string) => change.path?.[name] ?? realId(target.operation.operationId, name));
    const query = change.query ?? validQuery(target);
    const seedBody = validBody(target.operation.operationId);
    const body = change.body === undefined ? (target.operation.requestBody ? { text: toJsonText(seedBody) } : null) : change.body;
    const contentType: [string, string][] = body === null || body.type === null ? [] : [['content-type', body.type ?? 'application/json']];
    return {
      method: target.method.toUpperCase(),
      target: query.length === 0 ? path : `${path}?${query.map(([name, value]) => `${name}=${value}`).join('&')}`,
      headers: [...(change.replaceHeaders ? [] : credential(target)), ...(change.headers ?? []), ...contentType],
      body: body?.text,
      host: change.host,
    };
  };

  // ---- the hostile requests ----

  /** A path segment as it goes on the request line (percent-encoded unless it is meant to be raw). */
  const encoded = (text: string): string => {
    try {
      return encodeURIComponent(text);
    } catch {
      return '%ED%B0%80'; // a lone surrogate cannot be encoded: its UTF-8-like bytes, which are not UTF-8
    }
  };
  const hostileSegment = (name: string): [string, string] =>
    random.pick<() => [string, string]>([
      () => ['a random id', randomUuid()],
      () => ["another game's id", foreignId(name)],
      () => ['an Object.prototype name', encoded(HOSTILE.prototypeName(random))],
      () => ['a bad percent-encoding', random.pick(['%ZZ', '%C0%AF', '%ED%B0%80', '%', '%E0%80'])],
      () => ['an id of 101+ characters', 'a'.repeat(101 + random.int(300))],
      () => ['raw non-ASCII', 'été'],
      () => ['an encoded NUL', `${randomUuid()}%00`],
      () => ['an encoded slash', '..%2F..%2Fhealth'],
      () => ['dots', '..'],
      () => ['an upper-case id', randomUuid().toUpperCase()],
      () => ['a hostile string', encoded(String(random.pick(['0', '-1', '1e400', 'null', 'undefined', ' ', '😀', "' OR 1=1 --"])))],
    ])();

  const hostileQueryValue = (): [string, string] =>
    random.pick<() => [string, string]>([
      () => ['an empty value', ''],
      () => ['an Object.prototype name', encoded(HOSTILE.prototypeName(random))],
      () => ['a huge number', random.pick(['1e400', '99999999999999999999', '-1', '0', '101', '1.5', 'NaN', '0x10'])],
      () => ['a NUL', '%00'],
      () => ['a lone surrogate', '%ED%B0%80'],
      () => ['a bad percent-encoding', '%ZZ'],
      () => ['a long value', 'x'.repeat(5000)],
      () => ['a hostile string', encoded(String(HOSTILE.string(random)).slice(0, 2000))],
    ])();

  const queryCases = (target: Target): Case[] => {
    const names = parameters(target, 'query').map((parameter) => parameter.name);
    const count = names.length > 0 ? 2 : random.chance(0.3) ? 1 : 0;
    return Array.from({ length: count }, (): Case => {
      const [what, value] = hostileQueryValue();
      return random.pick<() => Case>([
        () => {
          const name = names.length > 0 ? random.pick(names) : 'unknown';
          return { target, what: `query ${name}: ${what}`, request: request(target, { query: [[name, value]] }) };
        },
        () => {
          const name = names.length > 0 ? random.pick(names) : 'unknown';
          return { target, what: `query ${name} twice: ${what}`, request: request(target, { query: [[name, value], [name, value]] }) };
        },
        () => {
          const name = random.pick(['__proto__', 'constructor[prototype][admin]', 'toString', '__proto__[admin]', 'hasOwnProperty']);
          return { target, what: `query parameter ${name}`, request: request(target, { query: [[name, value], ...validQuery(target)] }) };
        },
      ])();
    });
  };

  const headerCases = (target: Target): Case[] => {
    const credentialCase = random.pick<() => Case>([
      () => ({ target, what: 'no credential', request: request(target, { replaceHeaders: true }) }),
      () => ({ target, what: "another game's API key", request: request(target, { replaceHeaders: true, headers: [['x-api-key', other.key]] }) }),
      () => ({ target, what: 'an unknown API key', request: request(target, { replaceHeaders: true, headers: [['x-api-key', `gk_${'A'.repeat(40)}`]] }) }),
      () => ({ target, what: 'a malformed API key', request: request(target, { replaceHeaders: true, headers: [['x-api-key', random.pick(['gk_', 'x'.repeat(300), ' gk_x', 'gk_é'])]] }) }),
      () => ({ target, what: 'a profile JWT', request: request(target, { replaceHeaders: true, headers: [['authorization', `Bearer ${jwt}`]] }) }),
      () => ({ target, what: 'a console token', request: request(target, { replaceHeaders: true, headers: [['authorization', `Bearer ${operator}`]] }) }),
      () => ({ target, what: 'a tampered JWT', request: request(target, { replaceHeaders: true, headers: [['authorization', `Bearer ${tamper(jwt, { sub: randomUuid(), app: other.gameId })}`]] }) }),
      () => ({
        target,
        what: 'a malformed Authorization',
        request: request(target, { replaceHeaders: true, headers: [['authorization', random.pick(['Bearer', 'Bearer a.b.c', 'Basic dXNlcjpwYXNz', `Bearer ${'x'.repeat(8000)}`, 'Bearer \u00e9'])]] }),
      }),
      () => ({ target, what: 'a control character in x-api-key', request: request(target, { replaceHeaders: true, headers: [['x-api-key', `gk_\u0001${'A'.repeat(38)}`]] }) }),
      () => ({ target, what: 'a NUL in the session cookie', request: request(target, { replaceHeaders: true, headers: [['cookie', 'console_session=a\u0000b']] }) }),
      () => ({ target, what: 'a garbage session cookie', request: request(target, { replaceHeaders: true, headers: [['cookie', `console_session=${random.pick(['', 'x', '%ZZ', 'a;b', '"'])}`]] }) }),
      () => ({ target, what: 'two API keys', request: request(target, { replaceHeaders: true, headers: [['x-api-key', main.key], ['x-api-key', other.key]] }) }),
    ])();
    const otherCase = (): Case =>
      random.pick<() => Case>([
        () => ({ target, what: 'a request id of 129 characters', request: request(target, { headers: [['x-request-id', 'r'.repeat(129)]] }) }),
        () => ({ target, what: 'a control character in x-request-id', request: request(target, { headers: [['x-request-id', 'a\u0001b']] }) }),
        () => ({ target, what: 'non-ASCII in x-request-id', request: request(target, { headers: [['x-request-id', 'idé']] }) }),
        () => ({ target, what: 'headers of 60 KB', request: request(target, { headers: [['x-filler', 'a'.repeat(60_000)]] }) }),
        () => ({ target, what: 'no Host', request: request(target, { host: null }) }),
        () => {
          const host = random.pick(['', 'evil.example', '[', 'a:b:c', '[::1]:99999', 'x'.repeat(300), '%00', 'é.example']);
          return { target, what: `Host: ${JSON.stringify(host).slice(0, 40)}`, request: request(target, { host }) };
        },
        () => ({ target, what: 'Expect: teapot', request: request(target, { headers: [['expect', 'teapot']] }) }),
        () => ({ target, what: 'Accept: text/html', request: request(target, { headers: [['accept', 'text/html']] }) }),
        () => ({ target, what: 'a forged X-Forwarded-For', request: request(target, { headers: [['x-forwarded-for', random.pick(['not-an-ip', '127.0.0.1', '::1, 10.0.0.1'])]] }) }),
        () => ({ target, what: 'a header name with a space', request: request(target, { headers: [['x bad', '1']] }) }),
      ])();
    return [credentialCase, otherCase(), otherCase()];
  };

  const pathCases = (target: Target): Case[] => {
    const names = parameters(target, 'path').map((parameter) => parameter.name);
    return names.length === 0
      ? []
      : Array.from({ length: 3 }, (): Case => {
          const name = random.pick(names);
          const [what, value] = hostileSegment(name);
          return { target, what: `path ${name}: ${what}`, request: request(target, { path: { [name]: value } }) };
        });
  };

  const FORMATS: ((seedText: string) => { what: string; text: string | Buffer; type?: string | null })[] = [
    () => ({ what: 'an empty JSON body', text: '' }),
    () => ({ what: 'a body of spaces', text: '   ' }),
    () => ({ what: 'truncated JSON', text: '{"a":' }),
    () => ({ what: 'JSON null', text: 'null' }),
    () => ({ what: 'a JSON array', text: '[]' }),
    () => ({ what: 'a JSON string', text: '"x"' }),
    () => ({ what: 'a JSON number', text: '1' }),
    () => ({ what: 'two JSON documents', text: '{}{}' }),
    () => ({ what: 'a trailing comma', text: '{"a":1,}' }),
    (seedText) => ({ what: 'a byte order mark', text: `\ufeff${seedText}` }),
    (seedText) => ({ what: 'text/plain', text: seedText, type: 'text/plain' }),
    () => ({ what: 'a form', text: 'a=1', type: 'application/x-www-form-urlencoded' }),
    (seedText) => ({ what: 'no content type', text: seedText, type: null }),
    (seedText) => ({ what: 'JSON in UTF-16, said', text: seedText, type: 'application/json; charset=utf-16' }),
    (seedText) => ({ what: 'application/jsonx', text: seedText, type: 'application/jsonx' }),
    () => ({ what: 'a body over 64 KiB', text: JSON.stringify({ a: 'x'.repeat(70_000) }) }),
    () => ({ what: 'a __proto__ key', text: '{"__proto__":{"admin":true}}' }),
    () => ({ what: 'a constructor.prototype key', text: '{"constructor":{"prototype":{"admin":true}}}' }),
    () => ({ what: 'bytes that are not UTF-8', text: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0x22, 0x7d]) }),
    () => ({ what: 'NUL bytes', text: Buffer.from([0x7b, 0x00, 0x7d]) }),
  ];

  const formatCases = (target: Target): Case[] => {
    const seedText = target.operation.requestBody ? toJsonText(validBody(target.operation.operationId)) : '{}';
    return random.sample(FORMATS, target.operation.requestBody ? 3 : 2).map((format): Case => {
      const { what, text, type } = format(seedText);
      return { target, what: `body: ${what}`, request: request(target, { body: { text, type } }) };
    });
  };

  /** Values for one place of the body: every hostile kind that place is most likely to mishandle, and one of any kind. */
  const valuesFor = (place: JsonPlace): [string, (value: unknown) => unknown][] => {
    const replace = (what: string, value: unknown): [string, (current: unknown) => unknown] => [`${what} ${describeValue(value)}`, () => value];
    const any = anyHostile(random);
    if (place.container) {
      const array = Array.isArray(place.value);
      const deepKey = random.pick(['x', 'a', '0']);
      const deep = HOSTILE.deep(random);
      const key = hostileKey(random);
      const value = anyHostile(random);
      return [
        [array ? `with an item ${deep.label}` : `with ${JSON.stringify(deepKey)} set to ${deep.label}`, (container) => withMember(container, deepKey, deep)],
        [array ? `with an item ${describeValue(value)}` : `with the key ${describeValue(key)} set to ${describeValue(value)}`, (container) => withMember(container, key, value)],
        random.pick<() => [string, (current: unknown) => unknown]>([
          () => replace('replaced by', anyHostile(random)),
          () => replace('replaced by', HOSTILE.wide(random)),
          () => ['emptied', (container) => (Array.isArray(container) ? [] : {})],
          () => ['removed', () => undefined],
          () => {
            const name = random.pick(PROTOTYPE_NAMES);
            const inner = random.pick<unknown>([{}, [], 'x', 1]);
            return [`with the key ${name} set to ${describeValue(inner)}`, (container) => withMember(container, name, inner)];
          },
        ])(),
      ];
    }
    const numeric = typeof place.value === 'number' || (typeof place.value === 'string' && /^\d+$/.test(place.value));
    if (numeric) {
      return [replace('set to', HOSTILE.digits78(random)), replace('set to', HOSTILE.number(random)), replace('set to', any)];
    }
    if (typeof place.value === 'string') {
      return [replace('set to', HOSTILE.nul(random)), replace('set to', HOSTILE.loneSurrogate(random)), replace('set to', HOSTILE.prototypeName(random)), replace('set to', any)];
    }
    return [replace('set to', HOSTILE.wrongType(random)), replace('set to', any)];
  };

  const bodyCases = (target: Target): Case[] => {
    if (!target.operation.requestBody) {
      return [];
    }
    const seedBody = validBody(target.operation.operationId);
    if (seedBody === undefined) {
      throw new Error(`No valid body for ${target.operation.operationId}: add one to validBody`);
    }
    const places = jsonPlaces(seedBody);
    const chosen = [...random.sample(places.filter((place) => place.container), 6), ...random.sample(places.filter((place) => !place.container), 8)];
    return chosen.flatMap((place) =>
      valuesFor(place).map(([what, change]): Case => {
        const body = withChange(seedBody, place.path, change);
        return { target, what: `${pathText(place.path)} ${what}`, request: request(target, { body: { text: body === undefined ? '' : toJsonText(body) } }) };
      }),
    );
  };

  // ---- the checks ----

  const validators = new Map<string, ReturnType<Ajv2020['compile']>>();
  const successSchemaErrors = (target: Target, status: number, body: unknown): string | undefined => {
    const schema = target.operation.responses[String(status)]?.content?.['application/json']?.schema;
    if (schema === undefined) {
      return body === undefined ? undefined : 'a body where the document describes none';
    }
    const key = `${target.port} ${target.method} ${target.path} ${status}`;
    let validate = validators.get(key);
    if (!validate) {
      const ajv = new Ajv2020({ allErrors: true, strict: false });
      ajv.addSchema({ $id: 'doc', components: documents[target.port].components });
      validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')) as Json);
      validators.set(key, validate);
    }
    return validate(body) ? undefined : `not the documented schema: ${JSON.stringify(validate.errors?.slice(0, 2))}`;
  };

  /** What is wrong with an answer (nothing: an empty list). */
  const problems = (target: Target, response: RawResponse): string[] => {
    const found: string[] = [];
    const documented = target.operation.responses[String(response.status)];
    if (response.status >= 500) {
      found.push('a 5xx');
    }
    if (response.headers['x-request-id'] === undefined) {
      found.push('no x-request-id');
    }
    if (response.status >= 400) {
      const body = response.json as Record<string, unknown> | undefined;
      const shaped =
        response.headers['content-type']?.startsWith('application/json') === true &&
        body !== null &&
        typeof body === 'object' &&
        // {message, code}; 403 POLICY_DENIED also carries `details` (the rule that decided, why, the observed value).
        (Object.keys(body).sort().join() === 'code,message' || (body.code === 'POLICY_DENIED' && Object.keys(body).sort().join() === 'code,details,message' && typeof body.details === 'object')) &&
        typeof body.message === 'string' &&
        typeof body.code === 'string' &&
        /^[A-Z][A-Z0-9_]*$/.test(body.code);
      const code = shaped ? (body.code as string) : undefined;
      const codes = (documented?.content?.['application/json']?.schema.properties as { code?: { enum?: string[] } } | undefined)?.code?.enum;
      if (!shaped) {
        found.push('an error not in the shape {message, code} (and details with POLICY_DENIED)');
      }
      if (documented === undefined || (code !== undefined && codes !== undefined && !codes.includes(code))) {
        found.push(`a status or code the document does not list (${response.status} ${code ?? ''})`);
      }
      return found;
    }
    if (documented === undefined) {
      found.push(`a status the document does not list (${response.status})`);
      return found;
    }
    const schemaProblem = successSchemaErrors(target, response.status, response.json);
    return schemaProblem === undefined ? found : [...found, schemaProblem];
  };

  const APPS: AppName[] = ['gateway', 'identity', 'wallet', 'core'];
  /** Apps that died: reported, then started again so the run goes on. */
  const restartDead = async (): Promise<string[]> => {
    const dead = APPS.filter((app) => !platform.process(app).running);
    for (const app of dead) {
      await platform.startApp(app);
    }
    return dead.map((app) => `${app} died`);
  };

  it('answers a few hundred hostile requests over every operation without a 5xx, outside the error shape, or undocumented, and every app stays up', async () => {
    const targets: Target[] = (['base', 'core'] as const).flatMap((port) =>
      Object.entries(documents[port].paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ port, method, path, operation }))),
    );
    const perTarget = targets.map((target) => [
      { target, what: 'valid', request: request(target) },
      ...headerCases(target),
      ...pathCases(target),
      ...queryCases(target),
      ...formatCases(target),
      ...bodyCases(target),
    ]);
    const cases = random.shuffle(perTarget.flat());
    const findings: Finding[] = [];
    const started = Date.now();
    for (const [index, fuzzCase] of cases.entries()) {
      const { target, what } = fuzzCase;
      const operation = `${target.method.toUpperCase()} ${target.path}`;
      let answer: string | undefined;
      try {
        const response = await rawHttp(target.port === 'base' ? platform.ports.base : platform.ports.core, fuzzCase.request, 10_000);
        const wrong = problems(target, response);
        answer = wrong.length === 0 ? undefined : `${wrong.join(', ')}: ${response.status} ${response.text.slice(0, 200)}`;
      } catch (error) {
        answer = `no answer (${(error as Error).message})`;
        // An app stopped by the request takes a moment to exit.
        await waitFor(() => APPS.some((app) => !platform.process(app).running) || undefined, 2000, 'an app to exit').catch(() => undefined);
      }
      const dead = await restartDead();
      if (answer !== undefined || dead.length > 0) {
        findings.push({ request: index, operation, what, answer: [answer, ...dead].filter(Boolean).join('; ') });
      }
    }
    process.stdout.write(`fuzz seed ${seed}: ${cases.length} requests over ${targets.length} operations in ${Date.now() - started} ms, ${findings.length} findings\n`);

    // Every operation was fuzzed, and the platform is whole afterwards.
    expect(new Set(perTarget.filter((list) => list.length >= 4).map((list) => list[0].target.operation.operationId)).size).toBe(targets.length);
    const health = await Promise.all([
      fetch(`${platform.baseUrl}/v1/health`).then((response) => response.status),
      fetch(`${platform.baseUrl}/v1/health/services`).then((response) => response.status),
      ...(['identity', 'wallet', 'core'] as const).map((app) => fetch(`${platform.internalUrl(app)}/v1/health`).then((response) => response.status)),
    ]);
    expect({ seed, health, running: APPS.filter((app) => platform.process(app).running) }).toEqual({ seed, health: [200, 200, 200, 200, 200], running: APPS });
    expect({ seed, findings }).toEqual({ seed, findings: [] });
  }, 240_000);
});

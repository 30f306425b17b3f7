import { webcrypto } from 'node:crypto';
import { GameFixture, TestPlatform, consoleToken, createGame, createPlayer, http, stepUp } from '@game-wallet/testing';
import { API_ROUTES } from '../src/openapi/api-routes';

/**
 * Signed requests (RFC 9421 with RFC 9530 Content-Digest), checked against signatures this suite builds by hand with
 * WebCrypto: its own signature base, its own thumbprint, none of the SDK's or the gateway's code.
 */
const subtle = webcrypto.subtle;
const b64 = (bytes: ArrayBuffer | Uint8Array) => Buffer.from(bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes).toString('base64');
const b64url = (bytes: ArrayBuffer) => Buffer.from(new Uint8Array(bytes)).toString('base64url');

interface TestKey {
  pair: webcrypto.CryptoKeyPair;
  jwk: webcrypto.JsonWebKey;
  keyid: string;
  alg: 'ed25519' | 'ecdsa-p256-sha256';
}

async function makeKey(alg: TestKey['alg']): Promise<TestKey> {
  const pair = (alg === 'ed25519'
    ? await subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])
    : await subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const jwk = await subtle.exportKey('jwk', pair.publicKey);
  // RFC 7638 §3.2: the required members, lexicographic order, no whitespace.
  const members = alg === 'ed25519' ? `{"crv":"${jwk.crv}","kty":"${jwk.kty}","x":"${jwk.x}"}` : `{"crv":"${jwk.crv}","kty":"${jwk.kty}","x":"${jwk.x}","y":"${jwk.y}"}`;
  return { pair, jwk, alg, keyid: b64url(await subtle.digest('SHA-256', Buffer.from(members))) };
}

async function pemOf(key: TestKey): Promise<string> {
  const der = b64(await subtle.exportKey('spki', key.pair.publicKey));
  return `-----BEGIN PUBLIC KEY-----\n${der.match(/.{1,64}/g)?.join('\n')}\n-----END PUBLIC KEY-----\n`;
}

interface SignOptions {
  method: string;
  url: string;
  apiKey: string;
  body?: unknown;
  key: TestKey;
  /** what to change after signing, or in the signed parameters */
  created?: number;
  nonce?: string;
  keyid?: string;
  coverDigest?: boolean;
  sendDigest?: boolean;
  signedMethod?: string;
  signedUrl?: string;
  signedBody?: unknown;
}

/** Headers of a request signed by hand: RFC 9421 §2.5 signature base, WebCrypto signature. */
async function signedHeaders(options: SignOptions): Promise<Record<string, string>> {
  const created = options.created ?? Math.floor(Date.now() / 1000);
  const nonce = options.nonce ?? b64url(webcrypto.getRandomValues(new Uint8Array(16)).buffer as ArrayBuffer);
  const hasBody = options.body !== undefined;
  const signedBodyText = JSON.stringify(options.signedBody ?? options.body);
  const digest = hasBody ? `sha-256=:${b64(await subtle.digest('SHA-256', Buffer.from(signedBodyText)))}:` : undefined;
  const covered = ['"@method"', '"@target-uri"', '"x-api-key"', ...(hasBody && options.coverDigest !== false ? ['"content-digest"'] : [])];
  const params = `(${covered.join(' ')});created=${created};nonce="${nonce}";keyid="${options.keyid ?? options.key.keyid}";alg="${options.key.alg}"`;
  const lines = [
    `"@method": ${options.signedMethod ?? options.method}`,
    `"@target-uri": ${options.signedUrl ?? options.url}`,
    `"x-api-key": ${options.apiKey}`,
    ...(hasBody && options.coverDigest !== false ? [`"content-digest": ${digest}`] : []),
    `"@signature-params": ${params}`,
  ];
  const data = Buffer.from(lines.join('\n'));
  const signature =
    options.key.alg === 'ed25519'
      ? await subtle.sign({ name: 'Ed25519' }, options.key.pair.privateKey, data)
      : await subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, options.key.pair.privateKey, data);
  return {
    'x-api-key': options.apiKey,
    'signature-input': `sig=${params}`,
    signature: `sig=:${b64(signature)}:`,
    ...(digest !== undefined && options.sendDigest !== false ? { 'content-digest': digest } : {}),
  };
}

/** The routes that sign, or mint a credential that can: what `signedRequests: 'signing'` names. */
const SIGNING_ROUTES = new Set([
  'post /v1/wallet/{walletId}/sign',
  'post /v1/wallet/{walletId}/sign-transaction',
  'post /v1/wallet/{walletId}/sign-typed-data',
  'post /v1/profile/{id}/authenticate',
]);
/** Every route of both OpenAPI documents an API key may call. */
const API_KEY_ROUTES = API_ROUTES.filter((route) => route.access === 'apiKey' || route.access === 'apiKeyOrProfile');

async function signedCall<T = unknown>(options: SignOptions) {
  const headers = await signedHeaders(options);
  return http<T>(options.method, options.url, { body: options.body, headers });
}

describe('signed requests', () => {
  let platform: TestPlatform;
  let second: { baseUrl: string; coreUrl: string };
  let token: string;
  let game: GameFixture;
  let walletId: string;
  /** a player whose ids fill the route table's paths (made before signatures are required) */
  let tablePlayer: { id: string; walletId: string; profileId: string };
  let ed: TestKey;
  let p256: TestKey;
  const keyUrl = () => `${platform.baseUrl}/v1/console/games/${game.gameId}/api-keys/${game.keyId}`;
  const setRequirement = (signedRequests: string) => http<{ signedRequests: string; code?: string }>('PATCH', keyUrl(), { bearer: token, body: { signedRequests } });

  /** Every API-key route of the OpenAPI documents, plain: refused with SIGNATURE_REQUIRED exactly where `setting` names it. */
  const refusesPlainRequestsWhereNamed = (setting: 'signing' | 'all'): void => {
    it.each(API_KEY_ROUTES.map((route) => [`${route.method.toUpperCase()} ${route.path}`, route] as const))('refuses a plain %s exactly when the setting names it', async (_name, route) => {
      const path = route.path.replace('{walletId}', tablePlayer.walletId).replace('{playerId}', tablePlayer.id).replace('{id}', tablePlayer.profileId);
      const origin = route.port === 'base' ? platform.baseUrl : platform.coreUrl;
      const body = route.method === 'get' ? undefined : { uniqueId: `table-${Math.random()}`, chain: 'evm', message: 'x' };
      const response = await http<{ code?: string }>(route.method.toUpperCase(), `${origin}${path}`, { apiKey: game.key, body });
      const named = setting === 'all' || SIGNING_ROUTES.has(`${route.method} ${route.path}`);
      expect({ route: route.path, refused: response.body?.code === 'SIGNATURE_REQUIRED' }).toEqual({ route: route.path, refused: named });
    });
  };

  beforeAll(async () => {
    platform = await TestPlatform.start('signed-requests');
    second = await platform.startSecondGateway();
    token = await consoleToken(platform);
    await stepUp(platform, token);
    game = await createGame(platform, token, 'Signed game');
    walletId = (await createPlayer(platform, game.key)).walletId;
    tablePlayer = await createPlayer(platform, game.key);
    [ed, p256] = await Promise.all([makeKey('ed25519'), makeKey('ecdsa-p256-sha256')]);
  });

  afterAll(async () => {
    await platform.stop();
  });

  it('refuses to require signed requests of a key with no signing key: 409 SIGNING_KEY_REQUIRED', async () => {
    const response = await setRequirement('signing');
    expect(response.status).toBe(409);
    expect(response.body.code).toBe('SIGNING_KEY_REQUIRED');
  });

  it('registers an Ed25519 key as a JWK (as WebCrypto exports it) and a P-256 key as a PEM, each named by its RFC 7638 thumbprint', async () => {
    expect(ed.jwk).toEqual(expect.objectContaining({ ext: true, key_ops: ['verify'] }));
    const fromJwk = await http<{ id: string; algorithm: string }>('POST', `${keyUrl()}/signing-keys`, { bearer: token, body: { name: 'build server', publicKey: ed.jwk } });
    expect(fromJwk.status).toBe(201);
    expect(fromJwk.body).toMatchObject({ id: ed.keyid, algorithm: 'ed25519', name: 'build server', lastUsedAt: null });
    const fromPem = await http<{ id: string; algorithm: string }>('POST', `${keyUrl()}/signing-keys`, { bearer: token, body: { publicKey: await pemOf(p256) } });
    expect(fromPem.status).toBe(201);
    expect(fromPem.body).toMatchObject({ id: p256.keyid, algorithm: 'ecdsa-p256-sha256' });
    const again = await http<{ code: string }>('POST', `${keyUrl()}/signing-keys`, { bearer: token, body: { publicKey: await pemOf(ed) } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('SIGNING_KEY_EXISTS');
    const listed = await http<{ items: { id: string; signedRequests: string; signingKeys: { id: string }[] }[] }>('GET', `${platform.baseUrl}/v1/console/games/${game.gameId}/api-keys`, { bearer: token });
    const mine = listed.body.items.find((item) => item.id === game.keyId);
    expect(mine?.signedRequests).toBe('off');
    expect(mine?.signingKeys.map((key) => key.id).sort()).toEqual([ed.keyid, p256.keyid].sort());
  });

  it('refuses a fourth signing key with 409 SIGNING_KEY_LIMIT, and a private key with 400 without echoing it', async () => {
    const third = await makeKey('ed25519');
    expect((await http('POST', `${keyUrl()}/signing-keys`, { bearer: token, body: { publicKey: await pemOf(third) } })).status).toBe(201);
    const fourth = await http<{ code: string }>('POST', `${keyUrl()}/signing-keys`, { bearer: token, body: { publicKey: await pemOf(await makeKey('ed25519')) } });
    expect(fourth.status).toBe(409);
    expect(fourth.body.code).toBe('SIGNING_KEY_LIMIT');
    const privateJwk = await subtle.exportKey('jwk', third.pair.privateKey);
    const leaked = await http<{ code: string; message: string }>('POST', `${keyUrl()}/signing-keys`, { bearer: token, body: { publicKey: { kty: privateJwk.kty, crv: privateJwk.crv, x: privateJwk.x, d: privateJwk.d } } });
    expect(leaked.status).toBe(400);
    expect(leaked.body.message).toContain('private key');
    expect(JSON.stringify(leaked.body)).not.toContain(String(privateJwk.d));
    expect((await http('DELETE', `${keyUrl()}/signing-keys/${third.keyid}`, { bearer: token })).status).toBe(204);
  });

  describe('required for signing routes', () => {
    beforeAll(async () => {
      expect((await setRequirement('signing')).body.signedRequests).toBe('signing');
    });

    it.each([
      ['sign', 'POST', '/sign', { chain: 'evm', message: 'hello' }],
      ['sign-transaction', 'POST', '/sign-transaction', { chain: 'sol', transaction: 'AA==' }],
      ['sign-typed-data', 'POST', '/sign-typed-data', { domain: {}, types: {}, primaryType: 'X', message: {} }],
    ])('refuses a plain %s with 401 SIGNATURE_REQUIRED', async (_name, method, path, body) => {
      const response = await http<{ code: string }>(method, `${platform.baseUrl}/v1/wallet/${walletId}${path}`, { apiKey: game.key, body });
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('SIGNATURE_REQUIRED');
    });

    it('refuses a plain authenticate (it mints a JWT that can sign) with 401 SIGNATURE_REQUIRED', async () => {
      const player = await createPlayer(platform, game.key);
      const response = await http<{ code: string }>('POST', `${platform.baseUrl}/v1/profile/${player.profileId}/authenticate`, { apiKey: game.key, body: {} });
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('SIGNATURE_REQUIRED');
    });


    refusesPlainRequestsWhereNamed('signing');

    it('lets plain reads and player creation through: the setting names signing routes only', async () => {
      expect((await http('GET', `${platform.baseUrl}/v1/wallet/${walletId}`, { apiKey: game.key })).status).toBe(200);
      expect((await http('POST', `${platform.coreUrl}/v1/player/create`, { apiKey: game.key, body: { uniqueId: 'plain-create' } })).status).toBe(201);
    });

    it.each([['ed25519'], ['ecdsa-p256-sha256']])('signs with a request signed by the %s key', async (alg) => {
      const key = alg === 'ed25519' ? ed : p256;
      const response = await signedCall<{ signature: string }>({ method: 'POST', url: `${platform.baseUrl}/v1/wallet/${walletId}/sign`, apiKey: game.key, body: { chain: 'evm', message: `signed by ${alg}` }, key });
      expect(response.status).toBe(200);
      expect(response.body.signature).toMatch(/^0x[0-9a-f]{130}$/);
    });

    it('takes a signed authenticate', async () => {
      const player = await createPlayer(platform, game.key);
      const response = await signedCall({ method: 'POST', url: `${second.baseUrl}/v1/profile/${player.profileId}/authenticate`, apiKey: game.key, body: {}, key: ed });
      expect(response.status).toBe(200);
    });

    const signUrl = () => `${platform.baseUrl}/v1/wallet/${walletId}/sign`;
    const body = { chain: 'evm', message: 'tamper with me' };
    it.each<[string, () => Partial<SignOptions>, string]>([
      ['a changed body (digest sent for the signed body)', () => ({ signedBody: { ...body, message: 'other' }, body }), 'Content-Digest does not match'],
      ['a changed path', () => ({ signedUrl: `${platform.baseUrl}/v1/wallet/${walletId}/sign-typed-data` }), 'does not verify'],
      ['a changed method', () => ({ signedMethod: 'PUT' }), 'does not verify'],
      ['a stale created', () => ({ created: Math.floor(Date.now() / 1000) - 301 }), 'created'],
      ['an unknown keyid', () => ({ keyid: 'A'.repeat(43) }), 'keyid'],
      ['a body not covered by content-digest', () => ({ coverDigest: false }), 'content-digest'],
      ['a covered Content-Digest left out', () => ({ sendDigest: false }), 'Content-Digest is missing'],
    ])('refuses %s with 401 INVALID_SIGNATURE saying which part failed', async (_what, change, says) => {
      const response = await signedCall<{ code: string; message: string }>({ method: 'POST', url: signUrl(), apiKey: game.key, body, key: ed, ...change() });
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('INVALID_SIGNATURE');
      expect(response.body.message).toContain(says);
      expect(response.body.message).not.toContain(game.key);
    });

    it('refuses a changed body sent with its own digest: the signature covers the digest of the body signed', async () => {
      const headers = await signedHeaders({ method: 'POST', url: signUrl(), apiKey: game.key, body, key: ed });
      const changed = { ...body, message: 'changed after signing' };
      headers['content-digest'] = `sha-256=:${b64(await subtle.digest('SHA-256', Buffer.from(JSON.stringify(changed))))}:`;
      const response = await http<{ code: string; message: string }>('POST', signUrl(), { body: changed, headers });
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ code: 'INVALID_SIGNATURE', message: expect.stringContaining('does not verify') });
    });

    it('refuses a captured request sent again, on the same gateway or another: 401 INVALID_SIGNATURE (nonce used before)', async () => {
      const headers = await signedHeaders({ method: 'POST', url: signUrl(), apiKey: game.key, body, key: p256 });
      expect((await http('POST', signUrl(), { body, headers })).status).toBe(200);
      const replayed = await http<{ code: string; message: string }>('POST', signUrl(), { body, headers });
      expect(replayed.status).toBe(401);
      expect(replayed.body).toMatchObject({ code: 'INVALID_SIGNATURE', message: expect.stringContaining('nonce') });
      const secondHeaders = await signedHeaders({ method: 'POST', url: `${second.baseUrl}/v1/wallet/${walletId}/sign`, apiKey: game.key, body, key: p256, nonce: 'same-nonce-twice-0001' });
      expect((await http('POST', `${second.baseUrl}/v1/wallet/${walletId}/sign`, { body, headers: secondHeaders })).status).toBe(200);
      const elsewhere = await signedHeaders({ method: 'POST', url: signUrl(), apiKey: game.key, body, key: p256, nonce: 'same-nonce-twice-0001' });
      expect((await http<{ code: string }>('POST', signUrl(), { body, headers: elsewhere })).body.code).toBe('INVALID_SIGNATURE');
    });

    it('records when each signing key was last used', async () => {
      let used: string | null | undefined = null;
      for (let attempt = 0; attempt < 40 && !used; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const listed = await http<{ items: { id: string; signingKeys: { id: string; lastUsedAt: string | null }[] }[] }>('GET', `${platform.baseUrl}/v1/console/games/${game.gameId}/api-keys`, { bearer: token });
        used = listed.body.items.find((item) => item.id === game.keyId)?.signingKeys.find((key) => key.id === ed.keyid)?.lastUsedAt;
      }
      expect(used).toEqual(expect.any(String));
    }, 60_000);
  });

  describe('required for every route', () => {
    beforeAll(async () => {
      expect((await setRequirement('all')).body.signedRequests).toBe('all');
    });


    refusesPlainRequestsWhereNamed('all');

    it('refuses a plain read and a plain player creation with 401 SIGNATURE_REQUIRED', async () => {
      expect((await http<{ code: string }>('GET', `${platform.baseUrl}/v1/wallet/${walletId}`, { apiKey: game.key })).body.code).toBe('SIGNATURE_REQUIRED');
      expect((await http<{ code: string }>('POST', `${platform.coreUrl}/v1/player/create`, { apiKey: game.key, body: { uniqueId: 'plain' } })).body.code).toBe('SIGNATURE_REQUIRED');
    });

    it('takes a signed read (no body, no digest) and a signed player creation on core_url', async () => {
      expect((await signedCall({ method: 'GET', url: `${platform.baseUrl}/v1/wallet/${walletId}?chain=evm`, apiKey: game.key, key: ed })).status).toBe(200);
      expect((await signedCall({ method: 'POST', url: `${platform.coreUrl}/v1/player/create`, apiKey: game.key, body: { uniqueId: 'signed' }, key: p256 })).status).toBe(201);
    });

    it('keeps the last signing key while signatures are required (409 SIGNING_KEY_REQUIRED), and plain requests work again once off', async () => {
      expect((await http('DELETE', `${keyUrl()}/signing-keys/${p256.keyid}`, { bearer: token })).status).toBe(204);
      const last = await http<{ code: string }>('DELETE', `${keyUrl()}/signing-keys/${ed.keyid}`, { bearer: token });
      expect(last.status).toBe(409);
      expect(last.body.code).toBe('SIGNING_KEY_REQUIRED');
      expect((await setRequirement('off')).status).toBe(200);
      expect((await http('GET', `${platform.baseUrl}/v1/wallet/${walletId}`, { apiKey: game.key })).status).toBe(200);
    });

    it('audits every change of the signing settings', async () => {
      const audit = await http<{ items: { action: string; details: Record<string, unknown> }[] }>('GET', `${platform.baseUrl}/v1/console/games/${game.gameId}/audit?limit=50`, { bearer: token });
      const changes = audit.body.items.filter((item) => item.action === 'api_key.updated').map((item) => item.details);
      expect(changes).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ signingKeyAdded: ed.keyid }),
          expect.objectContaining({ signingKeyAdded: p256.keyid }),
          expect.objectContaining({ signingKeyRemoved: p256.keyid }),
          expect.objectContaining({ signedRequests: 'signing' }),
          expect.objectContaining({ signedRequests: 'all' }),
          expect.objectContaining({ signedRequests: 'off' }),
        ]),
      );
    });
  });
});

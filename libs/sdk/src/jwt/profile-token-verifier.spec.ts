import { KeyObject, generateKeyPairSync, sign } from 'node:crypto';
import { GameWalletError } from '../errors';
import { fakeFetch } from '../testing/fake-fetch';
import { ProfileTokenVerifier, ProfileTokenVerifierOptions, verifyProfileJwt } from './profile-token-verifier';

interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  jwk: Record<string, unknown>;
}

function signingKey(kid: string): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { kid, privateKey, jwk: { ...publicKey.export({ format: 'jwk' }), kid, alg: 'ES256', use: 'sig' } };
}

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A compact ES256 JWS, signed by node:crypto (not by the code under test). */
function jwt(key: SigningKey, claims: Record<string, unknown>, header: Record<string, unknown> = {}): string {
  const signingInput = `${encode({ alg: 'ES256', kid: key.kid, typ: 'JWT', ...header })}.${encode(claims)}`;
  const signature = sign('sha256', Buffer.from(signingInput), { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
  return `${signingInput}.${signature.toString('base64url')}`;
}

const now = () => Math.floor(Date.now() / 1000);
/** The game whose tokens the verifiers under test accept. */
const GAME = '0190a000-0000-7000-8000-000000000002';
const OTHER_GAME = '0190a000-0000-7000-8000-0000000000aa';
const claims = (change: Record<string, unknown> = {}) => ({
  iss: 'game-wallet',
  aud: 'game-wallet:profile',
  sub: '0190a000-0000-7000-8000-000000000001',
  app: GAME,
  iat: now(),
  exp: now() + 600,
  jti: '0190a000-0000-7000-8000-000000000003',
  akid: '0190a000-0000-7000-8000-000000000004',
  ...change,
});

const jwks = (...keys: SigningKey[]) => ({ status: 200, body: { keys: keys.map((key) => key.jwk) } });

async function rejection(promise: Promise<unknown>): Promise<GameWalletError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(GameWalletError);
  return error as GameWalletError;
}

describe(ProfileTokenVerifier.name, () => {
  const current = signingKey('current');
  const previous = signingKey('previous');

  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('returns the claims of a token signed by a JWKS key, current or previous', async () => {
    const fetch = fakeFetch(jwks(current, previous));
    const verifier = new ProfileTokenVerifier({ app: GAME, baseUrl: 'https://api.test/', issuer: 'game-wallet', fetch });
    const expected = claims();
    await expect(verifier.verify(jwt(current, expected))).resolves.toEqual(expected);
    await expect(verifier.verify(jwt(previous, expected))).resolves.toEqual(expected);
    expect(fetch.requests.map((request) => request.url)).toEqual(['https://api.test/v1/.well-known/jwks.json']);
  });

  it.each([
    ['is expired', claims({ exp: now() - 10 }), 'TOKEN_EXPIRED'],
    ['is for another audience', claims({ aud: 'game-wallet:console' }), 'INVALID_TOKEN'],
    ['comes from another issuer', claims({ iss: 'someone-else' }), 'INVALID_TOKEN'],
    ['is not valid yet (nbf)', claims({ nbf: now() + 60 }), 'INVALID_TOKEN'],
    ['is issued in the future (iat)', claims({ iat: now() + 60 }), 'INVALID_TOKEN'],
    ['has no exp', claims({ exp: undefined }), 'INVALID_TOKEN'],
    ['has no sub', claims({ sub: undefined }), 'INVALID_TOKEN'],
    ['is for another game', claims({ app: OTHER_GAME }), 'INVALID_TOKEN'],
    ['has no app', claims({ app: undefined }), 'INVALID_TOKEN'],
  ])('refuses a token that %s with %s', async (_, tokenClaims, code) => {
    const verifier = new ProfileTokenVerifier({ app: GAME, jwksUrl: 'https://api.test/jwks', issuer: 'game-wallet', fetch: fakeFetch(jwks(current)) });
    const error = await rejection(verifier.verify(jwt(current, tokenClaims)));
    expect([error.status, error.code]).toEqual([0, code]);
  });

  it('allows clockToleranceSec of skew (5 s by default)', async () => {
    const verifier = (clockToleranceSec?: number) => new ProfileTokenVerifier({ app: GAME, jwksUrl: 'https://api.test/jwks', clockToleranceSec, fetch: fakeFetch(jwks(current)) });
    await expect(verifier().verify(jwt(current, claims({ exp: now() - 2, iat: now() + 2 })))).resolves.toBeDefined();
    expect((await rejection(verifier(0).verify(jwt(current, claims({ exp: now() - 2 }))))).code).toBe('TOKEN_EXPIRED');
    await expect(verifier(120).verify(jwt(current, claims({ exp: now() - 60 })))).resolves.toBeDefined();
  });

  it('checks the issuer only when one is configured, and accepts an audience array containing its audience', async () => {
    const verifier = new ProfileTokenVerifier({ app: GAME, jwksUrl: 'https://api.test/jwks', fetch: fakeFetch(jwks(current)) });
    await expect(verifier.verify(jwt(current, claims({ iss: 'self-hosted', aud: ['x', 'game-wallet:profile'] })))).resolves.toMatchObject({ iss: 'self-hosted' });
    const custom = new ProfileTokenVerifier({ app: GAME, jwksUrl: 'https://api.test/jwks', audience: 'my-audience', fetch: fakeFetch(jwks(current)) });
    expect((await rejection(custom.verify(jwt(current, claims())))).code).toBe('INVALID_TOKEN');
  });

  describe('the game (app claim)', () => {
    const verifier = (expected: Partial<ProfileTokenVerifierOptions>) =>
      new ProfileTokenVerifier({ jwksUrl: 'https://api.test/jwks', fetch: fakeFetch(jwks(current)), ...expected } as ProfileTokenVerifierOptions);

    it("refuses a token the platform issued for another game's player, naming the expected game", async () => {
      const error = await rejection(verifier({ app: GAME }).verify(jwt(current, claims({ app: OTHER_GAME }))));
      expect([error.status, error.code, error.message]).toEqual([0, 'INVALID_TOKEN', `The token is not for game ${GAME}`]);
      await expect(verifier({ app: OTHER_GAME }).verify(jwt(current, claims({ app: OTHER_GAME })))).resolves.toMatchObject({ app: OTHER_GAME });
    });

    it('accepts any of the games of a list, and only those', async () => {
      const both = verifier({ app: [OTHER_GAME, GAME] });
      await expect(both.verify(jwt(current, claims()))).resolves.toMatchObject({ app: GAME });
      await expect(both.verify(jwt(current, claims({ app: OTHER_GAME })))).resolves.toMatchObject({ app: OTHER_GAME });
      const third = await rejection(both.verify(jwt(current, claims({ app: 'a-third-game' }))));
      expect([third.code, third.message]).toEqual(['INVALID_TOKEN', `The token is not for any of the games ${OTHER_GAME}, ${GAME}`]);
    });

    it('accepts every game only when told so with acceptAnyApp: true', async () => {
      await expect(verifier({ acceptAnyApp: true }).verify(jwt(current, claims({ app: OTHER_GAME })))).resolves.toMatchObject({ app: OTHER_GAME });
      expect((await rejection(verifier({ acceptAnyApp: true }).verify(jwt(current, claims({ app: undefined }))))).code).toBe('INVALID_TOKEN');
    });

    it.each([
      ['no app', {}],
      ['an empty app', { app: '' }],
      ['an empty list', { app: [] }],
      ['a list with a non-string', { app: [GAME, 7] }],
      ['acceptAnyApp false', { acceptAnyApp: false }],
      ['app with acceptAnyApp: true', { app: GAME, acceptAnyApp: true }],
    ])('will not be made with %s (a TypeError, before any token)', (_, expected) => {
      expect(() => verifier(expected as Partial<ProfileTokenVerifierOptions>)).toThrow(TypeError);
      expect(() => verifyProfileJwt('a.b.c', { jwksUrl: 'https://api.test/jwks', ...expected } as Parameters<typeof verifyProfileJwt>[1])).toThrow(TypeError);
    });
  });

  it('refuses a token signed by another key under a listed kid', async () => {
    const impostor = { ...signingKey('current') };
    const verifier = new ProfileTokenVerifier({ app: GAME, jwksUrl: 'https://api.test/jwks', fetch: fakeFetch(jwks(current)) });
    const error = await rejection(verifier.verify(jwt(impostor, claims())));
    expect([error.code, error.message]).toEqual(['INVALID_TOKEN', 'The token signature does not verify']);
  });

  it('refuses a tampered token: a changed claim with the original signature', async () => {
    const verifier = new ProfileTokenVerifier({ app: GAME, jwksUrl: 'https://api.test/jwks', fetch: fakeFetch(jwks(current)) });
    const [header, , signature] = jwt(current, claims()).split('.');
    const forged = `${header}.${encode(claims({ sub: '0190a000-0000-7000-8000-0000000000ff' }))}.${signature}`;
    expect((await rejection(verifier.verify(forged))).code).toBe('INVALID_TOKEN');
  });

  it.each([
    ['not a JWT', 'hello'],
    ['a JWT with four parts', 'a.b.c.d'],
    ['alg none', `${encode({ alg: 'none', kid: 'current' })}.${encode(claims())}.`],
    ['alg HS256', `${encode({ alg: 'HS256', kid: 'current' })}.${encode(claims())}.${Buffer.alloc(32).toString('base64url')}`],
    ['no kid', `${encode({ alg: 'ES256' })}.${encode(claims())}.${Buffer.alloc(64).toString('base64url')}`],
    ['a DER signature', `${encode({ alg: 'ES256', kid: 'current' })}.${encode(claims())}.${Buffer.alloc(70).toString('base64url')}`],
    ['a header that is not JSON', `${Buffer.from('{').toString('base64url')}.${encode(claims())}.${Buffer.alloc(64).toString('base64url')}`],
    ['a critical extension', 'crit'],
  ])('refuses %s with INVALID_TOKEN', async (_, token) => {
    const fetch = fakeFetch(jwks(current));
    const verifier = new ProfileTokenVerifier({ app: GAME, jwksUrl: 'https://api.test/jwks', fetch });
    const value = token === 'crit' ? jwt(current, claims(), { crit: ['b64'], b64: false }) : token;
    expect((await rejection(verifier.verify(value))).code).toBe('INVALID_TOKEN');
  });

  it('refetches the JWKS once for an unknown kid (a rotation), then verifies with the new key', async () => {
    const rotated = signingKey('rotated');
    const fetch = fakeFetch(jwks(current), jwks(rotated, current));
    const verifier = new ProfileTokenVerifier({ app: GAME, jwksUrl: 'https://api.test/jwks', fetch });
    await verifier.verify(jwt(current, claims()));
    await expect(verifier.verify(jwt(rotated, claims()))).resolves.toBeDefined();
    await expect(verifier.verify(jwt(current, claims()))).resolves.toBeDefined();
    expect(fetch.requests).toHaveLength(2);
  });

  it('refetches for unknown kids at most once per jwksCooldownSec, and refuses them meanwhile', async () => {
    const fetch = fakeFetch(jwks(current));
    const verifier = new ProfileTokenVerifier({ app: GAME, jwksUrl: 'https://api.test/jwks', jwksCooldownSec: 30, fetch });
    const start = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(start);
    await verifier.verify(jwt(current, claims()));
    const unknown = () => verifier.verify(jwt(signingKey(`forged-${Math.random()}`), claims()));
    expect((await rejection(unknown())).message).toBe('The token is signed by a key the JWKS does not list');
    await rejection(unknown());
    expect(fetch.requests).toHaveLength(2);
    clock.mockReturnValue(start + 29_000);
    await rejection(unknown());
    expect(fetch.requests).toHaveLength(2);
    clock.mockReturnValue(start + 30_000);
    await rejection(unknown());
    await rejection(unknown());
    expect(fetch.requests).toHaveLength(3);
    await expect(verifier.verify(jwt(current, claims()))).resolves.toBeDefined();
  });

  it('fetches the JWKS again once jwksCacheSec has passed (300 s by default)', async () => {
    const fetch = fakeFetch(jwks(current));
    const verifier = new ProfileTokenVerifier({ app: GAME, jwksUrl: 'https://api.test/jwks', fetch });
    const start = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(start);
    await verifier.verify(jwt(current, claims()));
    clock.mockReturnValue(start + 299_000);
    await verifier.verify(jwt(current, claims()));
    expect(fetch.requests).toHaveLength(1);
    clock.mockReturnValue(start + 300_000);
    await verifier.verify(jwt(current, claims()));
    expect(fetch.requests).toHaveLength(2);
  });

  it('stops accepting a key the refetched JWKS no longer lists', async () => {
    const fetch = fakeFetch(jwks(current, previous), jwks(current));
    const verifier = new ProfileTokenVerifier({ app: GAME, jwksUrl: 'https://api.test/jwks', jwksCacheSec: 60, fetch });
    const start = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(start);
    await verifier.verify(jwt(previous, claims()));
    clock.mockReturnValue(start + 61_000);
    expect((await rejection(verifier.verify(jwt(previous, claims())))).code).toBe('INVALID_TOKEN');
  });

  it('shares one JWKS fetch among concurrent verifications', async () => {
    const fetch = fakeFetch(jwks(current));
    const verifier = new ProfileTokenVerifier({ app: GAME, jwksUrl: 'https://api.test/jwks', fetch });
    await Promise.all(Array.from({ length: 5 }, () => verifier.verify(jwt(current, claims()))));
    expect(fetch.requests).toHaveLength(1);
  });

  it('reports an unreachable JWKS as the network error, not as a bad token', async () => {
    const verifier = new ProfileTokenVerifier({ app: GAME, jwksUrl: 'https://api.test/jwks', retries: 0, fetch: fakeFetch(new TypeError('fetch failed')) });
    expect((await rejection(verifier.verify(jwt(current, claims())))).code).toBe('NETWORK_ERROR');
  });

  it('keeps verifying with the last keys while a refetch fails', async () => {
    const fetch = fakeFetch(jwks(current), new TypeError('fetch failed'));
    const verifier = new ProfileTokenVerifier({ app: GAME, jwksUrl: 'https://api.test/jwks', retries: 0, fetch });
    const start = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(start);
    await verifier.verify(jwt(current, claims()));
    clock.mockReturnValue(start + 400_000);
    await expect(verifier.verify(jwt(current, claims({ iat: now(), exp: now() + 60 })))).resolves.toBeDefined();
    expect(fetch.requests).toHaveLength(2);
  });
});

describe(verifyProfileJwt.name, () => {
  it('verifies with a JWKS cache shared by calls for the same URL', async () => {
    const key = signingKey('shared');
    const fetch = fakeFetch(jwks(key));
    const token = jwt(key, claims());
    await expect(verifyProfileJwt(token, { app: GAME, baseUrl: 'https://shared.test', fetch })).resolves.toMatchObject({ sub: claims().sub });
    await expect(verifyProfileJwt(token, { app: GAME, jwksUrl: 'https://shared.test/v1/.well-known/jwks.json', issuer: 'game-wallet', fetch })).resolves.toBeDefined();
    expect(fetch.requests).toHaveLength(1);
    expect((await rejection(verifyProfileJwt(token, { app: GAME, baseUrl: 'https://shared.test', audience: 'other', fetch }))).code).toBe('INVALID_TOKEN');
    expect((await rejection(verifyProfileJwt(token, { app: OTHER_GAME, baseUrl: 'https://shared.test', fetch }))).message).toBe(`The token is not for game ${OTHER_GAME}`);
    await expect(verifyProfileJwt(token, { acceptAnyApp: true, baseUrl: 'https://shared.test', fetch })).resolves.toMatchObject({ app: GAME });
  });
});

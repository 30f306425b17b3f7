import { GameFixture, TestPlatform, consoleToken, createGame, createProfile, http, profileJwt, spawnNode } from '@game-wallet/testing';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';

/** Profile JWTs checked the way a third party would: jose against the public JWKS route. */
describe('profile JWTs (SPEC §3, §4.1)', () => {
  let platform: TestPlatform;
  let game: GameFixture;
  let profileId: string;

  beforeAll(async () => {
    platform = await TestPlatform.start('jwt');
    game = await createGame(platform, await consoleToken(platform));
    profileId = (await createProfile(platform, game)).id;
  });

  afterAll(async () => {
    await platform.stop();
  });

  const authenticate = (body: unknown, credential: { apiKey?: string; bearer?: string } = { apiKey: game.key }) =>
    http<{ jwt: string; expiresAt: string; code?: string }>('POST', `${platform.baseUrl}/v1/profile/${profileId}/authenticate`, { ...credential, body });
  const verifyWithJose = (jwt: string) =>
    jwtVerify(jwt, createRemoteJWKSet(new URL(`${platform.baseUrl}/v1/.well-known/jwks.json`)), {
      algorithms: ['ES256'],
      issuer: 'game-wallet',
      audience: 'game-wallet:profile',
    });

  it('answers 200 with exactly {jwt, expiresAt}, verifiable by jose from the JWKS, with exactly the SPEC claims', async () => {
    const response = await authenticate({ duration: 600 });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['expiresAt', 'jwt']);
    const { payload, protectedHeader } = await verifyWithJose(response.body.jwt);
    expect(protectedHeader).toEqual({ alg: 'ES256', kid: expect.any(String), typ: 'JWT' });
    const jwks = await http<{ keys: { kid: string; kty: string; crv: string; alg: string; use: string }[] }>('GET', `${platform.baseUrl}/v1/.well-known/jwks.json`);
    expect(jwks.body.keys.map((key) => key.kid)).toContain(protectedHeader.kid);
    expect(jwks.body.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(Object.keys(payload).sort()).toEqual(['akid', 'app', 'aud', 'exp', 'iat', 'iss', 'jti', 'sub']);
    expect(payload).toMatchObject({ iss: 'game-wallet', aud: 'game-wallet:profile', sub: profileId, app: game.gameId, akid: game.keyId });
    expect(payload.exp! - payload.iat!).toBe(600);
    expect(Math.abs(payload.iat! * 1000 - Date.now())).toBeLessThan(5000);
    expect(payload.jti).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(response.body.expiresAt).toBe(new Date(payload.exp! * 1000).toISOString());
  });

  it('serves the JWKS with Cache-Control max-age=300 and no credential', async () => {
    const response = await fetch(`${platform.baseUrl}/v1/.well-known/jwks.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toContain('max-age=300');
  });

  it.each([
    ['60', { duration: 60 }, 60],
    ['2592000 (30 days)', { duration: 2592000 }, 2592000],
    ['null', { duration: null }, 3600],
    ['absent', {}, 3600],
  ])('accepts duration %s', async (_, body, seconds) => {
    const response = await authenticate(body);
    expect(response.status).toBe(200);
    const { payload } = await verifyWithJose(response.body.jwt);
    expect(payload.exp! - payload.iat!).toBe(seconds);
  });

  it.each([
    ['59', { duration: 59 }],
    ['2592001', { duration: 2592001 }],
    ['1.5', { duration: 1.5 }],
    ['"60"', { duration: '60' }],
  ])('refuses duration %s with 400 INVALID_DURATION', async (_, body) => {
    const response = await authenticate(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: expect.any(String), code: 'INVALID_DURATION' });
  });

  it('refuses a misspelt field with 400 VALIDATION_FAILED, and a missing body too', async () => {
    expect((await authenticate({ durration: 60 })).body).toEqual({ message: 'unknown field durration', code: 'VALIDATION_FAILED' });
    const noBody = await http<{ code: string }>('POST', `${platform.baseUrl}/v1/profile/${profileId}/authenticate`, { apiKey: game.key });
    expect(noBody.status).toBe(400);
    expect(noBody.body.code).toBe('VALIDATION_FAILED');
  });

  it('answers 404 PROFILE_NOT_FOUND for an unknown or malformed id, after validation', async () => {
    for (const id of ['01900000-0000-7000-8000-000000000000', 'not-a-uuid']) {
      const response = await http<{ code: string }>('POST', `${platform.baseUrl}/v1/profile/${id}/authenticate`, { apiKey: game.key, body: {} });
      expect([response.status, response.body.code]).toEqual([404, 'PROFILE_NOT_FOUND']);
    }
    const invalid = await http<{ code: string }>('POST', `${platform.baseUrl}/v1/profile/not-a-uuid/authenticate`, { apiKey: game.key, body: { duration: 1 } });
    expect([invalid.status, invalid.body.code]).toEqual([400, 'INVALID_DURATION']);
  });

  it('lets a profile refresh its own token', async () => {
    const jwt = await profileJwt(platform, profileId, game.key);
    const refreshed = await authenticate({ duration: 120 }, { bearer: jwt });
    expect(refreshed.status).toBe(200);
    expect((await verifyWithJose(refreshed.body.jwt)).payload.sub).toBe(profileId);
  });

  it('never lets a refreshed token outlive the token that asked for it, and keeps the issuing key in akid', async () => {
    const short = await authenticate({ duration: 120 });
    const shortClaims = (await verifyWithJose(short.body.jwt)).payload;
    const refreshed = await authenticate({ duration: 2_592_000 }, { bearer: short.body.jwt });
    expect(refreshed.status).toBe(200);
    const claims = (await verifyWithJose(refreshed.body.jwt)).payload;
    expect(claims.exp).toBe(shortClaims.exp);
    expect(refreshed.body.expiresAt).toBe(short.body.expiresAt);
    expect(claims.akid).toBe(game.keyId);
    const again = await authenticate({ duration: 60 }, { bearer: refreshed.body.jwt });
    const againClaims = (await verifyWithJose(again.body.jwt)).payload;
    expect(againClaims.exp).toBeLessThanOrEqual(shortClaims.exp!);
    expect(againClaims.akid).toBe(game.keyId);
    // An API key may still issue the full 30 days.
    const long = (await verifyWithJose((await authenticate({ duration: 2_592_000 })).body.jwt)).payload;
    expect(long.exp! - long.iat!).toBe(2_592_000);
  });

  it('keeps tokens of the previous key valid after a rotation, and refuses them after the next one', async () => {
    const before = await profileJwt(platform, profileId, game.key);
    const oldKid = decodeProtectedHeader(before).kid;
    const rotate = async () => {
      const cli = spawnNode('rotate', 'dist/apps/identity/cli/rotate-signing-key.js', { ...platform.env, LOG_LEVEL: 'error' });
      expect(await cli.waitForExit()).toBe(0);
      expect(cli.output).toContain('is now current');
    };
    await rotate();
    const jwks = await http<{ keys: { kid: string }[] }>('GET', `${platform.baseUrl}/v1/.well-known/jwks.json`);
    expect(jwks.body.keys).toHaveLength(2);
    const after = await profileJwt(platform, profileId, game.key);
    const newKid = decodeProtectedHeader(after).kid;
    expect(newKid).not.toBe(oldKid);
    expect(jwks.body.keys.map((key) => key.kid).sort()).toEqual([oldKid, newKid].sort());
    // The token signed before the rotation still verifies, with its old key, against the published set.
    const stillValid = await verifyWithJose(before);
    expect(stillValid.protectedHeader.kid).toBe(oldKid);
    expect(stillValid.payload.sub).toBe(profileId);
    expect((await authenticate({}, { bearer: before })).status).toBe(200);
    expect((await authenticate({}, { bearer: after })).status).toBe(200);
    await rotate();
    const refused = await authenticate({}, { bearer: before });
    expect([refused.status, refused.body.code]).toEqual([401, 'INVALID_TOKEN']);
    expect((await authenticate({}, { bearer: after })).status).toBe(200);
  });
});

import { GameFixture, TestPlatform, consoleToken, createGame, createProfile, http, profileJwt } from '@game-wallet/testing';

/** SPEC §4.5: revoke → every replica refuses older tokens within 1 s, and keeps refusing them across restarts. */
describe('profile token revocation', () => {
  let platform: TestPlatform;
  let second: { baseUrl: string };
  let game: GameFixture;
  let profileId: string;
  let oldToken: string;

  beforeAll(async () => {
    platform = await TestPlatform.start('revocation');
    second = await platform.startSecondGateway();
    game = await createGame(platform, await consoleToken(platform));
    profileId = (await createProfile(platform, game)).id;
    oldToken = await profileJwt(platform, profileId, game.key);
  });

  afterAll(async () => {
    await platform.stop();
  });

  const refresh = (baseUrl: string, token: string) =>
    http<{ code?: string }>('POST', `${baseUrl}/v1/profile/${profileId}/authenticate`, { bearer: token, body: {} }).then((response) => [
      response.status,
      response.body.code,
    ]);

  it('answers 204 and every gateway refuses the older tokens with 401 TOKEN_REVOKED within 1 s', async () => {
    expect(await refresh(second.baseUrl, oldToken)).toEqual([200, undefined]);
    const revoke = await http('POST', `${platform.baseUrl}/v1/profile/${profileId}/revoke`, { apiKey: game.key });
    expect(revoke.status).toBe(204);
    expect(revoke.body).toBeUndefined();
    const started = Date.now();
    for (const baseUrl of [platform.baseUrl, second.baseUrl]) {
      while ((await refresh(baseUrl, oldToken))[0] !== 401 && Date.now() - started < 3000) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(await refresh(baseUrl, oldToken)).toEqual([401, 'TOKEN_REVOKED']);
    }
    expect(Date.now() - started).toBeLessThanOrEqual(1000);
  });

  it('accepts tokens issued after the revocation', async () => {
    const fresh = await profileJwt(platform, profileId, game.key);
    expect(await refresh(second.baseUrl, fresh)).toEqual([200, undefined]);
  });

  it('keeps refusing the revoked tokens after a restart of identity and of every gateway', async () => {
    const fresh = await profileJwt(platform, profileId, game.key);
    await Promise.all([platform.process('gateway').stop(), platform.process('gateway#2').stop(), platform.process('identity').stop()]);
    await platform.startApp('identity');
    await platform.startApp('gateway');
    expect(await refresh(platform.baseUrl, oldToken)).toEqual([401, 'TOKEN_REVOKED']);
    expect(await refresh(platform.baseUrl, fresh)).toEqual([200, undefined]);
  });

  it("refuses to revoke another game's profile (403) or an unknown one (404)", async () => {
    const other = await createGame(platform, await consoleToken(platform), 'Other');
    const forbidden = await http<{ code: string }>('POST', `${platform.baseUrl}/v1/profile/${profileId}/revoke`, { apiKey: other.key });
    expect([forbidden.status, forbidden.body.code]).toEqual([403, 'FORBIDDEN']);
    const missing = await http<{ code: string }>('POST', `${platform.baseUrl}/v1/profile/01900000-0000-7000-8000-000000000000/revoke`, { apiKey: game.key });
    expect([missing.status, missing.body.code]).toEqual([404, 'PROFILE_NOT_FOUND']);
  });
});

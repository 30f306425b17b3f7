import { GameFixture, TestPlatform, consoleToken, createGame, createKey, createProfile, http, profileJwt, waitFor } from '@game-wallet/testing';

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

  describe('deleting an API key with revokeTokens=true', () => {
    let operator: string;
    let doomed: { key: string; keyId: string };
    let kept: { key: string; keyId: string };
    let doomedToken: string;
    let doomedRefreshed: string;
    let keptToken: string;

    beforeAll(async () => {
      operator = await consoleToken(platform);
      doomed = await createKey(platform, operator, game.gameId, 'leaked server');
      kept = await createKey(platform, operator, game.gameId, 'healthy server');
      doomedToken = await profileJwt(platform, profileId, doomed.key);
      const refreshed = await http<{ jwt: string }>('POST', `${platform.baseUrl}/v1/profile/${profileId}/authenticate`, { bearer: doomedToken, body: {} });
      doomedRefreshed = refreshed.body.jwt;
      keptToken = await profileJwt(platform, profileId, kept.key);
    });

    const deleteKey = (keyId: string, query: string) => http<{ code?: string }>('DELETE', `${platform.baseUrl}/v1/console/games/${game.gameId}/api-keys/${keyId}${query}`, { bearer: operator });

    it('refuses any other value of the parameter with 400 INVALID_QUERY', async () => {
      const response = await deleteKey(doomed.keyId, '?revokeTokens=yes');
      expect([response.status, response.body.code]).toEqual([400, 'INVALID_QUERY']);
    });

    it("revokes every token the key issued (and their refreshes) on every gateway within 1 s; the game's other keys' tokens keep working", async () => {
      const gateway2 = await platform.startSecondGateway('gateway#3');
      expect(await refresh(gateway2.baseUrl, doomedRefreshed)).toEqual([200, undefined]);
      expect((await deleteKey(doomed.keyId, '?revokeTokens=true')).status).toBe(204);
      const started = Date.now();
      for (const baseUrl of [platform.baseUrl, gateway2.baseUrl]) {
        for (const token of [doomedToken, doomedRefreshed]) {
          while ((await refresh(baseUrl, token))[0] !== 401 && Date.now() - started < 3000) {
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          expect(await refresh(baseUrl, token)).toEqual([401, 'TOKEN_REVOKED']);
        }
        expect(await refresh(baseUrl, keptToken)).toEqual([200, undefined]);
      }
      expect(Date.now() - started).toBeLessThanOrEqual(1000);
      await platform.process('gateway#3').stop();
    });

    it('keeps them refused after a restart of identity and the gateway', async () => {
      await Promise.all([platform.process('gateway').stop(), platform.process('identity').stop()]);
      await platform.startApp('identity');
      await platform.startApp('gateway');
      expect(await refresh(platform.baseUrl, doomedRefreshed)).toEqual([401, 'TOKEN_REVOKED']);
      expect(await refresh(platform.baseUrl, keptToken)).toEqual([200, undefined]);
    });

    it('without the parameter, leaves the tokens of a deleted key alone (rotating a key signs nobody out)', async () => {
      const rotated = await createKey(platform, operator, game.gameId, 'rotated server');
      const token = await profileJwt(platform, profileId, rotated.key);
      const sentinel = await createKey(platform, operator, game.gameId, 'sentinel server');
      const sentinelToken = await profileJwt(platform, profileId, sentinel.key);
      expect((await deleteKey(rotated.keyId, '')).status).toBe(204);
      // The sentinel: another key deleted with revokeTokens=true afterwards. Identity publishes a key's revocation before
      // it answers the deletion, on one connection and one channel, and Redis delivers a channel's messages in order: once
      // the sentinel's tokens are refused, a revocation of the rotated key's tokens would have reached the gateway too.
      expect((await deleteKey(sentinel.keyId, '?revokeTokens=true')).status).toBe(204);
      await waitFor(async () => (await refresh(platform.baseUrl, sentinelToken))[0] === 401, 5000, "the sentinel key's revocation to apply");
      expect(await refresh(platform.baseUrl, token)).toEqual([200, undefined]);
    });
  });

  it("refuses to revoke another game's profile (403) or an unknown one (404)", async () => {
    const other = await createGame(platform, await consoleToken(platform), 'Other');
    const forbidden = await http<{ code: string }>('POST', `${platform.baseUrl}/v1/profile/${profileId}/revoke`, { apiKey: other.key });
    expect([forbidden.status, forbidden.body.code]).toEqual([403, 'FORBIDDEN']);
    const missing = await http<{ code: string }>('POST', `${platform.baseUrl}/v1/profile/01900000-0000-7000-8000-000000000000/revoke`, { apiKey: game.key });
    expect([missing.status, missing.body.code]).toEqual([404, 'PROFILE_NOT_FOUND']);
  });
});

import { GameFixture, TestPlatform, consoleToken, createGame, createProfile, http, profileJwt, queryOnce, waitFor } from '@game-wallet/testing';

/**
 * Revocations and key changes are never lost silently: a change saved in PostgreSQL whose broadcast never reached a
 * gateway still takes effect within 30 s (gateways reload revocations, and key states expire, on that schedule), and
 * a gateway loads every revocation however many there are (page by page).
 */
describe('revocations and key changes that missed their broadcast', () => {
  let platform: TestPlatform;
  let game: GameFixture;

  beforeAll(async () => {
    platform = await TestPlatform.start('healing');
    game = await createGame(platform, await consoleToken(platform));
  });

  afterAll(async () => {
    await platform.stop();
  });

  const refresh = (baseUrl: string, profileId: string, bearer: string) =>
    http<{ code?: string }>('POST', `${baseUrl}/v1/profile/${profileId}/authenticate`, { bearer, body: {} });

  it('applies a profile revocation and a deactivated key within 30 s, with no broadcast at all', async () => {
    const profileId = (await createProfile(platform, game)).id;
    const token = await profileJwt(platform, profileId, game.key);
    expect((await refresh(platform.baseUrl, profileId, token)).status).toBe(200);
    // Written straight to the database, as if identity had saved them and the publish had failed.
    await queryOnce(platform.databaseUrl, 'INSERT INTO identity.profile_revocations (profile_id, application_id, revoked_before) VALUES ($1, $2, now())', [
      profileId,
      game.gameId,
    ]);
    await queryOnce(platform.databaseUrl, 'UPDATE identity.api_keys SET active = false WHERE id = $1', [game.keyId]);
    const started = Date.now();
    await Promise.all([
      waitFor(async () => (await refresh(platform.baseUrl, profileId, token)).body.code === 'TOKEN_REVOKED', 35_000, 'the revocation to apply', 250),
      waitFor(async () => (await http<{ code?: string }>('GET', `${platform.coreUrl}/v1/player/${profileId}`, { apiKey: game.key })).body.code === 'API_KEY_INACTIVE', 35_000, 'the key to turn inactive', 250),
    ]);
    expect(Date.now() - started).toBeLessThanOrEqual(31_000);
  });

  it('loads every revocation at start, page by page (2,500 of them)', async () => {
    const bulk = await createGame(platform, await consoleToken(platform), 'Bulk game');
    const rows = await queryOnce<{ id: string }>(
      platform.databaseUrl,
      `INSERT INTO identity.profiles (id, application_id, external_key, created_at)
       SELECT gen_random_uuid(), $1, 'bulk-' || n, now() FROM generate_series(1, 2500) AS n RETURNING id`,
      [bulk.gameId],
    );
    // The last in id order: on the third page of 1,000.
    const last = rows.map((row) => row.id).sort().at(-1) as string;
    const token = await profileJwt(platform, last, bulk.key);
    await queryOnce(
      platform.databaseUrl,
      'INSERT INTO identity.profile_revocations (profile_id, application_id, revoked_before) SELECT id, application_id, now() FROM identity.profiles WHERE application_id = $1',
      [bulk.gameId],
    );
    const fresh = await platform.startSecondGateway('gateway-fresh');
    expect((await refresh(fresh.baseUrl, last, token)).body.code).toBe('TOKEN_REVOKED');
  });
});

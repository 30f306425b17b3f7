import { GameFixture, TestPlatform, consoleToken, createGame, createProfile, http } from '@game-wallet/testing';

/** SPEC §3: a deactivated or deleted key is refused by every gateway replica within 1 s; a reactivated one accepted as fast. */
describe('API-key changes across two gateway replicas', () => {
  let platform: TestPlatform;
  let second: { baseUrl: string };
  let operator: string;
  let game: GameFixture;
  let profileId: string;

  beforeAll(async () => {
    platform = await TestPlatform.start('keyprop');
    second = await platform.startSecondGateway();
    operator = await consoleToken(platform);
    game = await createGame(platform, operator);
    profileId = (await createProfile(platform, game)).id;
  });

  afterAll(async () => {
    await platform.stop();
  });

  const useKeyOn = (baseUrl: string): Promise<{ status: number; code?: string }> =>
    http<{ code?: string }>('POST', `${baseUrl}/v1/profile/${profileId}/authenticate`, { apiKey: game.key, body: {} }).then((response) => ({
      status: response.status,
      code: response.body.code,
    }));

  /** Polls the second gateway every 20 ms; returns how long it took to see `status`. */
  const timeUntil = async (status: number): Promise<number> => {
    const started = Date.now();
    while (Date.now() - started < 5000) {
      if ((await useKeyOn(second.baseUrl)).status === status) {
        return Date.now() - started;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return Infinity;
  };

  const setActive = (active: boolean) =>
    http('PATCH', `${platform.baseUrl}/v1/console/games/${game.gameId}/api-keys/${game.keyId}`, { bearer: operator, body: { active } });

  it('is accepted by both gateways (and cached by the second)', async () => {
    await expect(useKeyOn(platform.baseUrl)).resolves.toMatchObject({ status: 200 });
    await expect(useKeyOn(second.baseUrl)).resolves.toMatchObject({ status: 200 });
  });

  it('is refused by the other gateway within 1 s of being deactivated, and accepted within 1 s of reactivation', async () => {
    expect((await setActive(false)).status).toBe(200);
    expect(await timeUntil(403)).toBeLessThanOrEqual(1000);
    await expect(useKeyOn(second.baseUrl)).resolves.toEqual({ status: 403, code: 'API_KEY_INACTIVE' });
    expect((await setActive(true)).status).toBe(200);
    expect(await timeUntil(200)).toBeLessThanOrEqual(1000);
  });

  it('records the last use of a key (sent in batches, and when a gateway stops)', async () => {
    await useKeyOn(second.baseUrl);
    await platform.process('gateway#2').stop('SIGTERM');
    const keys = await http<{ items: { id: string; lastUsedAt: string | null }[] }>('GET', `${platform.baseUrl}/v1/console/games/${game.gameId}/api-keys`, {
      bearer: operator,
    });
    const lastUsedAt = keys.body.items.find((key) => key.id === game.keyId)?.lastUsedAt;
    expect(lastUsedAt).not.toBeNull();
    expect(Date.now() - Date.parse(String(lastUsedAt))).toBeLessThan(60_000);
    second = await platform.startSecondGateway('gateway#3');
  });

  it('is refused by the other gateway within 1 s of being deleted', async () => {
    await expect(useKeyOn(second.baseUrl)).resolves.toMatchObject({ status: 200 });
    expect((await http('DELETE', `${platform.baseUrl}/v1/console/games/${game.gameId}/api-keys/${game.keyId}`, { bearer: operator })).status).toBe(204);
    expect(await timeUntil(401)).toBeLessThanOrEqual(1000);
    await expect(useKeyOn(second.baseUrl)).resolves.toEqual({ status: 401, code: 'INVALID_API_KEY' });
  });
});

import { PlayerView } from '@game-wallet/contracts';
import {
  GameFixture,
  PrivatePostgres,
  TEST_OPERATOR,
  TestPlatform,
  consoleToken,
  createGame,
  createPlayer,
  http,
  profileJwt,
  queryOnce,
  waitFor,
} from '@game-wallet/testing';

interface Attempt {
  status: number;
  code?: string;
  retryAfter: string | null;
  ms: number;
}

/**
 * PostgreSQL stopped under a running platform: every route that needs the database answers 503 SERVICE_UNAVAILABLE
 * (with Retry-After) within 2 s, in each service; once Postgres is back the same requests succeed with no restart,
 * and a player creation that failed completes on retry, exactly once.
 */
describe('a PostgreSQL outage', () => {
  let postgres: PrivatePostgres;
  let platform: TestPlatform;
  let game: GameFixture;
  let token: string;
  let player: PlayerView;
  /** A player whose profile identity has not looked up yet (a cold cache: authenticating it needs the database). */
  let cold: PlayerView;
  let jwt: string;

  const attempt = async (method: string, url: string, options: Parameters<typeof http>[2] = {}): Promise<Attempt> => {
    const started = Date.now();
    const { status, body, headers } = await http<{ code?: string } | undefined>(method, url, options);
    return { status, code: body?.code, retryAfter: headers.get('retry-after'), ms: Date.now() - started };
  };

  const routes = (): Record<'core' | 'identity' | 'wallet', [string, () => Promise<Attempt>][]> => ({
    core: [
      ['POST /v1/player/create', () => attempt('POST', `${platform.coreUrl}/v1/player/create`, { apiKey: game.key, body: { uniqueId: 'made-during-the-outage' } })],
      ['GET /v1/player/:id', () => attempt('GET', `${platform.coreUrl}/v1/player/${player.id}`, { apiKey: game.key })],
    ],
    identity: [
      ['POST /v1/profile/:id/authenticate', () => attempt('POST', `${platform.baseUrl}/v1/profile/${cold.profileId}/authenticate`, { apiKey: game.key, body: {} })],
      ['POST /v1/profile/:id/revoke', () => attempt('POST', `${platform.baseUrl}/v1/profile/${player.profileId}/revoke`, { apiKey: game.key, body: {} })],
      ['POST /v1/console/session', () => attempt('POST', `${platform.baseUrl}/v1/console/session`, { body: TEST_OPERATOR })],
      ['GET /v1/console/games', () => attempt('GET', `${platform.baseUrl}/v1/console/games`, { bearer: token })],
      ['POST /v1/console/games', () => attempt('POST', `${platform.baseUrl}/v1/console/games`, { bearer: token, body: { name: 'During the outage' } })],
    ],
    wallet: [
      ['POST /v1/wallet/:id/sign (API key)', () => attempt('POST', `${platform.baseUrl}/v1/wallet/${player.walletId}/sign`, { apiKey: game.key, body: { chain: 'evm', message: 'hi' } })],
      ['POST /v1/wallet/:id/sign (JWT)', () => attempt('POST', `${platform.baseUrl}/v1/wallet/${player.walletId}/sign`, { bearer: jwt, body: { chain: 'sui', message: 'hi' } })],
    ],
  });

  beforeAll(async () => {
    postgres = await PrivatePostgres.start();
    platform = await TestPlatform.start('dboutage', { postgresAdminUrl: postgres.url() });
    token = await consoleToken(platform);
    game = await createGame(platform, token);
    player = await createPlayer(platform, game.key);
    jwt = await profileJwt(platform, player.profileId, game.key);
    cold = await createPlayer(platform, game.key);
    await postgres.stop();
  });

  afterAll(async () => {
    await platform.stop();
    await postgres.destroy();
  });

  for (const service of ['core', 'identity', 'wallet'] as const) {
    it(`answers 503 SERVICE_UNAVAILABLE with Retry-After within 2 s on every ${service} route that needs the database`, async () => {
      for (const [route, call] of routes()[service]) {
        const { status, code, retryAfter, ms } = await call();
        expect({ route, status, code, retryAfter, within2s: ms <= 2000 }).toEqual({ route, status: 503, code: 'SERVICE_UNAVAILABLE', retryAfter: '1', within2s: true });
      }
    });
  }

  it('serves the same requests once PostgreSQL is back, with no restart, and completes the failed creation exactly once', async () => {
    await postgres.start();
    const ok = new Set([200, 201, 204]);
    await waitFor(async () => ok.has((await routes().core[1][1]()).status), 15_000, 'core to reach the database again', 250);
    // identity last: its revoke ends the JWT the wallet route signs with.
    for (const service of ['core', 'wallet', 'identity'] as const) {
      for (const [route, call] of routes()[service]) {
        const { status } = await call();
        expect({ route, ok: ok.has(status) }).toEqual({ route, ok: true });
      }
    }
    const again = await http<PlayerView>('POST', `${platform.coreUrl}/v1/player/create`, { apiKey: game.key, body: { uniqueId: 'made-during-the-outage' } });
    expect(again.status).toBe(200);
    const counts = await queryOnce<{ players: string; profiles: string; wallets: string }>(
      platform.databaseUrl,
      `SELECT (SELECT count(*) FROM core.players WHERE unique_id = 'made-during-the-outage') AS players,
              (SELECT count(*) FROM identity.profiles WHERE external_key = $1) AS profiles,
              (SELECT count(*) FROM wallet.wallets WHERE profile_id = $2) AS wallets`,
      [`player:${again.body.id}`, again.body.profileId],
    );
    expect(counts).toEqual([{ players: '1', profiles: '1', wallets: '1' }]);
    for (const process of platform.processes.values()) {
      expect(process.running).toBe(true);
    }
  }, 60_000);

  it('answers 503, not the gateway\'s 504, when PostgreSQL hangs (frozen), and serves again once it answers', async () => {
    postgres.freeze();
    try {
      const [created, read] = await Promise.all([
        attempt('POST', `${platform.coreUrl}/v1/player/create`, { apiKey: game.key, body: { uniqueId: 'made-while-frozen' } }),
        attempt('GET', `${platform.coreUrl}/v1/player/${cold.id}`, { apiKey: game.key }),
      ]);
      for (const answer of [created, read]) {
        expect({ status: answer.status, code: answer.code, beforeTheDeadline: answer.ms < 5000 }).toEqual({ status: 503, code: 'SERVICE_UNAVAILABLE', beforeTheDeadline: true });
      }
    } finally {
      postgres.thaw();
    }
    await waitFor(async () => (await attempt('GET', `${platform.coreUrl}/v1/player/${cold.id}`, { apiKey: game.key })).status === 200, 10_000, 'reads to work again', 250);
    expect((await attempt('POST', `${platform.coreUrl}/v1/player/create`, { apiKey: game.key, body: { uniqueId: 'made-while-frozen' } })).status).toBe(201);
  }, 30_000);

  it('answers 503 to writes on a read-only database (a standby, a primary in recovery) after its connections were cut, and serves reads', async () => {
    const database = new URL(platform.databaseUrl).pathname.slice(1);
    const cutConnections = (): Promise<unknown> =>
      queryOnce(postgres.url(), 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);
    await queryOnce(postgres.url(), `ALTER DATABASE "${database}" SET default_transaction_read_only = on`);
    await cutConnections();
    try {
      const write = await attempt('POST', `${platform.coreUrl}/v1/player/create`, { apiKey: game.key, body: { uniqueId: 'made-read-only' } });
      expect({ status: write.status, code: write.code, within2s: write.ms <= 2000 }).toEqual({ status: 503, code: 'SERVICE_UNAVAILABLE', within2s: true });
      expect((await attempt('GET', `${platform.coreUrl}/v1/player/${player.id}`, { apiKey: game.key })).status).toBe(200);
    } finally {
      await queryOnce(postgres.url(), `ALTER DATABASE "${database}" RESET default_transaction_read_only`);
      await cutConnections();
    }
    const created = await attempt('POST', `${platform.coreUrl}/v1/player/create`, { apiKey: game.key, body: { uniqueId: 'made-read-only' } });
    expect(created.status).toBe(201);
  });
});

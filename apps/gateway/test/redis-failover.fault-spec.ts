import { PATTERNS, PlayerView } from '@game-wallet/contracts';
import { GameFixture, PrivateRedisSentinels, TestPlatform, consoleToken, createGame, queryOnce, waitFor } from '@game-wallet/testing';
import { streamKey } from '@game-wallet/transport';
import { setTimeout as sleep } from 'node:timers/promises';

interface Outcome {
  operation: 'create' | 'read' | 'sign';
  status: number | string;
  sentAt: number;
  answeredAt: number;
}

const APPS = ['gateway', 'identity', 'wallet', 'core'] as const;

/**
 * Redis Sentinel failover under load: a primary, a replica and three Sentinels (quorum 2, down-after 2 s), the
 * platform following the primary through them (passwords on the data nodes and on the Sentinels). The primary is
 * SIGKILLed mid-load: every app follows the promoted replica without a restart, requests during the switch answer
 * 503 or 504 (never 500) and succeed on retry, nothing answered 2xx is lost or duplicated. Then the case asynchronous
 * replication allows: the new primary handing out a request the old one had taken in, which must not run again.
 */
describe('Redis Sentinel failover', () => {
  let sentinels: PrivateRedisSentinels;
  let platform: TestPlatform;
  let game: GameFixture;
  let oldServer: string;
  const outcomes: Outcome[] = [];
  const pids = new Map<string, number | undefined>();

  beforeAll(async () => {
    sentinels = await PrivateRedisSentinels.start({ password: 'data-node-secret', sentinelPassword: 'sentinel-secret' });
    platform = await TestPlatform.start('failover', {
      redisUrl: sentinels.nodes[0].url,
      env: { ...sentinels.env, RATE_LIMIT_API_KEY_RPS: '100000', RATE_LIMIT_API_KEY_BURST: '100000' },
    });
    game = await createGame(platform, await consoleToken(platform));
    for (const app of APPS) {
      pids.set(app, platform.process(app).child.pid);
    }
  }, 120_000);

  afterAll(async () => {
    await platform?.stop();
    await sentinels?.destroy();
  });

  async function send<T>(operation: Outcome['operation'], url: string, body?: unknown): Promise<{ status: number | string; body?: T }> {
    const sentAt = Date.now();
    try {
      const response = await fetch(url, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'x-api-key': game.key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      });
      const text = await response.text();
      outcomes.push({ operation, status: response.status, sentAt, answeredAt: Date.now() });
      return { status: response.status, body: text ? (JSON.parse(text) as T) : undefined };
    } catch (error) {
      const status = `network ${(error as Error).name}`;
      outcomes.push({ operation, status, sentAt, answeredAt: Date.now() });
      return { status };
    }
  }

  it('follows the promoted replica without a restart: 503/504 during the switch, never 500, nothing answered 2xx lost or duplicated', async () => {
    const admin = sentinels.connect(sentinels.nodes[0]);
    oldServer = (/^run_id:([0-9a-f]+)/m.exec(await admin.info('server'))?.[1] ?? '').slice(0, 16);
    admin.disconnect();
    const players = new Map<string, PlayerView>();
    const unfinished = new Set<string>();
    let running = true;
    const worker = async (id: number): Promise<void> => {
      let retry: string | undefined;
      for (let round = 0; running; round += 1) {
        // A creation that failed is repeated (the same uniqueId) until it answers 2xx, as a game server would.
        const uniqueId = retry ?? `w${id}-${round}`;
        const created = await send<PlayerView>('create', `${platform.coreUrl}/v1/player/create`, { uniqueId });
        if (created.status !== 200 && created.status !== 201) {
          unfinished.add(uniqueId);
          retry = uniqueId;
          await sleep(100);
          continue;
        }
        retry = undefined;
        unfinished.delete(uniqueId);
        const player = created.body as PlayerView;
        expect(players.get(uniqueId)?.id ?? player.id).toBe(player.id);
        players.set(uniqueId, player);
        await send('read', `${platform.baseUrl}/v1/wallet/${player.walletId}`);
        await send('sign', `${platform.baseUrl}/v1/wallet/${player.walletId}/sign`, { chain: round % 2 === 0 ? 'evm' : 'sol', message: `round ${round}` });
      }
    };
    const workers = Array.from({ length: 4 }, (_, id) => worker(id));
    await sleep(1500);

    const killedAt = Date.now();
    await sentinels.nodes[0].stop();
    const promoted = await sentinels.waitForNewPrimary(sentinels.nodes[0].port);
    expect(promoted).toBe(sentinels.nodes[1]);
    const firstOk = await waitFor(
      () => outcomes.find((outcome) => outcome.sentAt > killedAt && typeof outcome.status === 'number' && outcome.status < 300),
      20_000,
      'a request sent after the kill to answer 2xx',
    );
    await sleep(2000);
    running = false;
    await Promise.all(workers);
    // Every creation that failed during the switch completes on retry.
    for (const uniqueId of unfinished) {
      const retried = await send<PlayerView>('create', `${platform.coreUrl}/v1/player/create`, { uniqueId });
      expect([200, 201]).toContain(retried.status);
      players.set(uniqueId, retried.body as PlayerView);
    }

    const statuses = new Set(outcomes.map((outcome) => outcome.status));
    expect([...statuses].filter((status) => ![200, 201, 503, 504].includes(status as number))).toEqual([]);
    const recoveryMs = firstOk.answeredAt - killedAt;
    expect(recoveryMs).toBeLessThanOrEqual(10_000);
    // The same processes serve, on the new primary: none restarted.
    for (const app of APPS) {
      expect(platform.process(app).running).toBe(true);
      expect(platform.process(app).child.pid).toBe(pids.get(app));
    }
    const health = await Promise.all([`${platform.baseUrl}/v1/health`, ...(['identity', 'wallet', 'core'] as const).map((app) => `${platform.internalUrl(app)}/v1/health`)].map((url) => fetch(url).then((response) => response.status)));
    expect(health).toEqual([200, 200, 200, 200]);

    // Nothing answered 2xx is lost: every player reads back the same, with the same addresses; none is duplicated.
    for (const player of players.values()) {
      const read = await send<PlayerView>('read', `${platform.coreUrl}/v1/player/${player.id}`);
      expect({ status: read.status, walletId: read.body?.walletId, profileId: read.body?.profileId }).toEqual({ status: 200, walletId: player.walletId, profileId: player.profileId });
    }
    const [counts] = await queryOnce<{ players: string; pending: string; profiles: string; wallets: string }>(
      platform.databaseUrl,
      `SELECT (SELECT count(*) FROM core.players WHERE application_id = $1) AS players,
              (SELECT count(*) FROM core.players WHERE application_id = $1 AND status <> 'ready') AS pending,
              (SELECT count(*) FROM identity.profiles WHERE application_id = $1) AS profiles,
              (SELECT count(*) FROM wallet.wallets WHERE application_id = $1) AS wallets`,
      [game.gameId],
    );
    const known = String(players.size);
    expect(counts).toEqual({ players: known, pending: '0', profiles: known, wallets: known });
    const during = outcomes.filter((outcome) => outcome.sentAt > killedAt && outcome.sentAt < firstOk.sentAt);
    process.stdout.write(
      `redis failover: ${outcomes.length} requests, ${players.size} players; kill → first 2xx ${recoveryMs} ms; ` +
        `during the switch ${during.length} answered ${[...new Set(during.map((outcome) => outcome.status))].join('/')}\n`,
    );
  }, 120_000);

  it('never runs a request the old primary had taken in when the new primary hands it out again, and runs one written to the new primary', async () => {
    // What the new primary holds after a failover that lost the old one's acknowledgements: the requests as the old
    // primary had received them (naming it), in the stream, once unread and once pending for a replica that is gone.
    const stream = streamKey(platform.keyPrefix, 'core');
    const keys = platform.transportKeys('gateway');
    const primary = sentinels.connect(await sentinels.primary());
    try {
      const newServer = (/^run_id:([0-9a-f]+)/m.exec(await primary.info('server'))?.[1] ?? '').slice(0, 16);
      expect(newServer).not.toBe(oldServer);
      const entry = (uniqueId: string, server: string): string[] => {
        const text = JSON.stringify([
          {
            i: uniqueId,
            p: PATTERNS.core.createPlayer,
            r: `${platform.keyPrefix}:reply:nobody`,
            t: Date.now() + 30_000,
            q: `replayed-${uniqueId}`,
            d: { payload: { uniqueId, image: null, userData: {} }, principal: { kind: 'apiKey', applicationId: game.gameId, keyId: game.keyId } },
            g: server,
          },
        ]);
        return ['m', text, 's', keys.sign('core', `request ${stream}`, text)];
      };
      await primary.xadd(stream, '*', ...entry('handed-out-again', oldServer));
      await primary.xadd(stream, '*', ...entry('claimed-again', oldServer));
      await primary.xreadgroup('GROUP', 'core', 'replica-of-the-old-primary', 'COUNT', 1, 'STREAMS', stream, '>');
      // …and a request written to the new primary after them: once it has run, the others would have too.
      await primary.xadd(stream, '*', ...entry('written-after', newServer));
      const created = async (uniqueId: string): Promise<boolean> =>
        (await queryOnce(platform.databaseUrl, 'SELECT 1 FROM core.players WHERE application_id = $1 AND unique_id = $2', [game.gameId, uniqueId])).length > 0;
      await waitFor(() => created('written-after'), 10_000, 'the request written to the new primary to run');
      // The dead replica's entry is claimed once its heartbeat lapses (2 s), then dropped.
      await waitFor(async () => (await primary.xpending(stream, 'core'))[0] === 0, 10_000, 'the pending entry to be claimed');
      await sleep(500);
      expect({ handedOutAgain: await created('handed-out-again'), claimedAgain: await created('claimed-again') }).toEqual({ handedOutAgain: false, claimedAgain: false });
    } finally {
      primary.disconnect();
    }
  }, 60_000);
});

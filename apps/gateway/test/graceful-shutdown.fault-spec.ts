import { PlayerView } from '@game-wallet/contracts';
import { BalancedGateway, GameFixture, ReadinessBalancer, TestPlatform, consoleToken, createGame, queryOnce } from '@game-wallet/testing';
import { setTimeout as sleep } from 'node:timers/promises';

interface Outcome {
  operation: 'create' | 'read' | 'sign';
  status: number | string;
}

/**
 * Graceful shutdown under load: two replicas of every app, a steady mix of player creations, wallet reads and
 * signatures sent (like a load balancer) only to gateways whose readiness is 200, retrying elsewhere only when a
 * connection is refused (the request was never sent). One replica of each app is stopped with SIGTERM in turn, then
 * every app is restarted one by one: every request answers 2xx, every app exits 0, every creation is complete and no
 * signature is made twice.
 */
describe('graceful shutdown under load', () => {
  let platform: TestPlatform;
  let game: GameFixture;
  const gateways: BalancedGateway[] = [];
  const outcomes: Outcome[] = [];
  const exitCodes: Record<string, number | null> = {};
  let running = true;

  beforeAll(async () => {
    platform = await TestPlatform.start('shutdown', {
      env: { SHUTDOWN_DRAIN_MS: '1000', RATE_LIMIT_API_KEY_RPS: '100000', RATE_LIMIT_API_KEY_BURST: '100000' },
    });
    game = await createGame(platform, await consoleToken(platform));
    for (const app of ['identity', 'wallet', 'core'] as const) {
      await platform.startReplica(app, `${app}#2`);
    }
    const second = await platform.startSecondGateway('gateway#2');
    gateways.push({ name: 'gateway', base: platform.baseUrl, core: platform.coreUrl, ready: true });
    gateways.push({ name: 'gateway#2', base: second.baseUrl, core: second.coreUrl, ready: true });
  }, 120_000);

  afterAll(async () => {
    running = false;
    await balancer?.stop();
    await platform?.stop();
  });

  let balancer: ReadinessBalancer;

  async function send<T>(operation: Outcome['operation'], port: 'base' | 'core', path: string, init: { method: string; body?: unknown }): Promise<T | undefined> {
    const answer = await balancer.send(port, path, { ...init, headers: { 'x-api-key': game.key } });
    outcomes.push({ operation, status: answer.status });
    return typeof answer.status === 'number' && answer.status < 300 ? (answer.body as T) : undefined;
  }

  async function worker(id: number): Promise<void> {
    for (let round = 0; running; round += 1) {
      const player = await send<PlayerView>('create', 'core', '/v1/player/create', { method: 'POST', body: { uniqueId: `w${id}-${round}` } });
      if (player) {
        await send('read', 'base', `/v1/wallet/${player.walletId}`, { method: 'GET' });
        await send('sign', 'base', `/v1/wallet/${player.walletId}/sign`, { method: 'POST', body: { chain: round % 2 === 0 ? 'evm' : 'sol', message: `round ${round}` } });
      }
    }
  }

  async function stop(name: string): Promise<void> {
    exitCodes[name] = await platform.process(name).stop('SIGTERM', 15_000);
  }

  async function restart(name: string): Promise<void> {
    await stop(name);
    await platform.restartApp(name);
    await sleep(500);
  }

  it('answers every request with 2xx while one replica of each app stops, then while every app restarts one by one', async () => {
    balancer = new ReadinessBalancer(gateways);
    const workers = Array.from({ length: 6 }, (_, id) => worker(id));
    await sleep(1500);
    for (const name of ['wallet#2', 'core#2', 'identity#2', 'gateway#2']) {
      await stop(name);
      await sleep(700);
    }
    for (const name of ['wallet#2', 'core#2', 'identity#2', 'gateway#2']) {
      await platform.restartApp(name);
    }
    await sleep(700);
    for (const name of ['identity', 'wallet', 'core', 'gateway', 'identity#2', 'wallet#2', 'core#2', 'gateway#2']) {
      await restart(name);
    }
    await sleep(1000);
    running = false;
    await Promise.all(workers);
    await balancer.stop();

    const failed = outcomes.filter((outcome) => typeof outcome.status !== 'number' || outcome.status >= 300);
    const count = (operation: Outcome['operation']): number =>
      outcomes.filter((outcome) => outcome.operation === operation && (outcome.status === 200 || outcome.status === 201)).length;
    expect({ failed: failed.slice(0, 10), failures: failed.length }).toEqual({ failed: [], failures: 0 });
    expect(count('create')).toBeGreaterThan(50);
    expect(Object.entries(exitCodes).filter(([, code]) => code !== 0)).toEqual([]);

    const [row] = await queryOnce<{ players: string; pending: string; profiles: string; wallets: string; signatures: string }>(
      platform.databaseUrl,
      `SELECT (SELECT count(*) FROM core.players WHERE application_id = $1) AS players,
              (SELECT count(*) FROM core.players WHERE application_id = $1 AND status <> 'ready') AS pending,
              (SELECT count(*) FROM identity.profiles WHERE application_id = $1) AS profiles,
              (SELECT count(*) FROM wallet.wallets WHERE application_id = $1) AS wallets,
              (SELECT count(*) FROM wallet.signature_events WHERE application_id = $1) AS signatures`,
      [game.gameId],
    );
    expect(row).toEqual({
      players: String(count('create')),
      pending: '0',
      profiles: String(count('create')),
      wallets: String(count('create')),
      signatures: String(count('sign')),
    });
    process.stdout.write(`graceful shutdown: ${outcomes.length} requests\n`);
  }, 240_000);
});

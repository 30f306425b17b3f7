import { PlayerView, WalletView } from '@game-wallet/contracts';
import { GameFixture, SoftHsmToken, TestPlatform, consoleToken, createGame, createPlayer, http, queryOnce, waitFor } from '@game-wallet/testing';
import { ethers } from 'ethers';

/**
 * SPEC §8 for master keys in an HSM: the token taken away under load turns signing and creation into 503 (never a crash,
 * never a half-made wallet), reads keep working, and everything recovers by itself when the token is back.
 */
describe('wallet with its HSM taken away under load', () => {
  let token: SoftHsmToken;
  let platform: TestPlatform;
  let game: GameFixture;
  let players: PlayerView[];
  const outcomes: { phase: string; operation: string; status: number; code?: string; uniqueId?: string }[] = [];
  let phase = 'before';
  let running = true;

  const sign = (walletId: string, message: string) =>
    http<{ signature: string; code?: string }>('POST', `${platform.baseUrl}/v1/wallet/${walletId}/sign`, { apiKey: game.key, body: { chain: 'evm', message } });
  const create = (uniqueId: string) => http<PlayerView & { code?: string }>('POST', `${platform.coreUrl}/v1/player/create`, { apiKey: game.key, body: { uniqueId } });

  async function worker(id: number): Promise<void> {
    for (let round = 0; running; round += 1) {
      const signed = await sign(players[round % players.length].walletId, `load ${id}-${round}`);
      outcomes.push({ phase, operation: 'sign', status: signed.status, code: signed.body.code });
      const uniqueId = `load-${id}-${round}`;
      const created = await create(uniqueId);
      outcomes.push({ phase, operation: 'create', status: created.status, code: created.body.code, uniqueId });
    }
  }

  beforeAll(async () => {
    token = SoftHsmToken.create({ ownFolder: true });
    token.createKey('master-1');
    // The load is about the HSM, not about rate limits.
    platform = await TestPlatform.start('hsmfault', {
      appEnv: { wallet: token.walletEnv('master-1'), gateway: { RATE_LIMIT_SIGN_PER_WALLET_RPS: '10000', RATE_LIMIT_API_KEY_RPS: '10000', RATE_LIMIT_API_KEY_BURST: '10000' } },
    });
    game = await createGame(platform, await consoleToken(platform));
    players = await Promise.all([1, 2, 3].map((n) => createPlayer(platform, game.key, `steady-${n}`)));
  });

  afterAll(async () => {
    running = false;
    await platform?.stop();
    token?.destroy();
  });

  it('answers 503 SERVICE_UNAVAILABLE for signing and creation while the token is away, keeps reading, then recovers with nothing half-made', async () => {
    const workers = Array.from({ length: 4 }, (_, id) => worker(id));
    await waitFor(() => outcomes.filter((outcome) => outcome.status < 300).length >= 8, 10_000, 'load before the outage');

    phase = 'away';
    token.takeAway();
    const refused = await waitFor(async () => {
      const response = await sign(players[0].walletId, 'while away');
      return response.status === 503 ? response : undefined;
    }, 10_000, 'a 503 while the token is away');
    expect(refused.body).toEqual({ message: 'The key store (HSM) is unavailable', code: 'SERVICE_UNAVAILABLE' });
    const createdWhileAway = await create('made-while-away');
    expect([createdWhileAway.status, createdWhileAway.body.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    expect((await http<WalletView>('GET', `${platform.baseUrl}/v1/wallet/${players[1].walletId}`, { apiKey: game.key })).status).toBe(200);
    const health = await http<{ details: Record<string, { status: string }> }>('GET', `${platform.internalUrl('wallet')}/v1/health`);
    expect([health.status, health.body.details.hsm.status]).toEqual([503, 'down']);
    // The load keeps running against the missing token: a dozen more of its answers, then a read (which needs no token)
    // sent after them through the same wallet process, which must still answer it.
    const away = () => outcomes.filter((outcome) => outcome.phase === 'away').length;
    const awaySoFar = away();
    await waitFor(() => away() >= awaySoFar + 12, 10_000, 'more load against the missing token');
    expect((await http<WalletView>('GET', `${platform.baseUrl}/v1/wallet/${players[2].walletId}`, { apiKey: game.key })).status).toBe(200);
    expect(platform.process('wallet').running).toBe(true);

    phase = 'back';
    token.bringBack();
    await waitFor(async () => (await sign(players[0].walletId, 'back again')).status === 200, 10_000, 'signing to recover');
    phase = 'after';
    await waitFor(() => outcomes.filter((outcome) => outcome.phase === 'after' && outcome.status < 300).length >= 8, 10_000, 'load after the outage');
    running = false;
    await Promise.all(workers);

    const unexpected = outcomes.filter((outcome) => outcome.status >= 300 && outcome.phase !== 'away' && outcome.phase !== 'back');
    expect(unexpected).toEqual([]);
    const duringOutage = outcomes.filter((outcome) => outcome.phase === 'away' && outcome.status >= 300);
    expect(duringOutage.length).toBeGreaterThan(0);
    expect(new Set(duringOutage.map((outcome) => `${outcome.status} ${outcome.code}`))).toEqual(new Set(['503 SERVICE_UNAVAILABLE']));

    // Nothing half-made: each creation refused during the outage completes when retried, every wallet is sealed under
    // the token's key and signs, and no player is left pending.
    const refusedCreates = outcomes.filter((outcome) => outcome.operation === 'create' && outcome.status >= 300);
    for (const uniqueId of ['made-while-away', ...refusedCreates.map((outcome) => outcome.uniqueId as string)]) {
      const retried = await create(uniqueId); // 200: the player was recorded before the refusal, and completes now
      expect([uniqueId, retried.status]).toEqual([uniqueId, 200]);
    }
    const [pending] = await queryOnce<{ n: string }>(platform.databaseUrl, "SELECT count(*)::text AS n FROM core.players WHERE status <> 'ready'");
    expect(pending.n).toBe('0');
    const wallets = await queryOnce<{ id: string; master_key_id: string; address_evm: string }>(platform.databaseUrl, 'SELECT id, master_key_id, address_evm FROM wallet.wallets');
    expect(new Set(wallets.map((wallet) => wallet.master_key_id))).toEqual(new Set(['pkcs11:master-1']));
    for (const wallet of wallets) {
      const signature = await sign(wallet.id, 'after the outage');
      expect(ethers.verifyMessage('after the outage', signature.body.signature).toLowerCase()).toBe(wallet.address_evm.toLowerCase());
    }
  });
});

import { PlayerView, SignatureView, WalletView } from '@game-wallet/contracts';
import { GameFixture, TestPlatform, consoleToken, createGame, createPlayer, http, queryOnce, spawnNode, waitFor } from '@game-wallet/testing';
import { base58 } from '@scure/base';
import { ethers } from 'ethers';
import Redis from 'ioredis';
import { execFileSync } from 'node:child_process';
import { seal } from '@game-wallet/crypto';
import { randomBytes } from 'node:crypto';
import { CHAINS, chainKey, mnemonicOf, seedOf } from '../src/keys/derivation';
import { openEntropy } from '../src/keys/envelope';
import { OWNER_BOUND_CONSTRAINT } from '../src/keys/owner-binding';
import { EnvironmentKeyring } from '../src/keys/master-keyring';
import { ownerOf, sealedOf, walletRowsOf } from './wallet-rows';

const k1 = randomBytes(32).toString('base64');
const k2 = randomBytes(32).toString('base64');

/** SPEC §6: secrets never at rest in clear, never in Redis or logs; integrity failures contained; master key rotation. */
describe('wallet key custody', () => {
  let platform: TestPlatform;
  let game: GameFixture;
  let players: PlayerView[];

  const walletRows = () => walletRowsOf(platform.databaseUrl);
  const sign = (walletId: string, message = 'custody check') =>
    http<SignatureView & { code?: string; message?: string }>('POST', `${platform.baseUrl}/v1/wallet/${walletId}/sign`, {
      apiKey: game.key,
      body: { chain: 'evm', message },
    });
  const restartWallet = async (env: Record<string, string>) => {
    await platform.process('wallet').stop();
    await platform.startApp('wallet', 'wallet', env);
  };

  beforeAll(async () => {
    platform = await TestPlatform.start('custody', { env: { WALLET_MASTER_KEYS: `k1=${k1}`, WALLET_MASTER_KEY_ID: 'k1', LOG_LEVEL: 'debug' } });
    game = await createGame(platform, await consoleToken(platform));
    players = await Promise.all([1, 2, 3, 4].map((n) => createPlayer(platform, game.key, `custody-${n}`)));
    await sign(players[0].walletId);
  });

  afterAll(async () => {
    await platform.stop();
  });

  it('keeps no mnemonic, seed or private key in any table, any Redis key or any log line', async () => {
    const keyring = new EnvironmentKeyring(new Map([['k1', Buffer.from(k1, 'base64')]]), 'k1');
    const secrets: string[] = [];
    for (const row of await walletRows()) {
      const entropy = await openEntropy(ownerOf(row), sealedOf(row), keyring);
      const mnemonic = mnemonicOf(entropy);
      const seed = seedOf(mnemonic);
      secrets.push(entropy.toString('hex'), entropy.toString('base64'), mnemonic, mnemonic.split(' ').slice(0, 4).join(' '), Buffer.from(seed).toString('hex'));
      for (const chain of CHAINS) {
        const key = chainKey(seed, chain);
        secrets.push(Buffer.from(key).toString('hex'), Buffer.from(key).toString('base64'), base58.encode(key));
      }
    }
    expect(secrets.length).toBe(4 * 14);
    const dump = execFileSync('pg_dump', ['--data-only', '--dbname', platform.databaseUrl], { maxBuffer: 64 * 1024 * 1024 }).toString();
    expect(dump).toContain('COPY wallet.wallets');
    const redis = new Redis(platform.env.REDIS_URL);
    const redisDump: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${platform.keyPrefix}:*`, 'COUNT', 1000);
      cursor = next;
      for (const key of found) {
        const type = await redis.type(key);
        redisDump.push(key, JSON.stringify(type === 'string' ? await redis.get(key) : type === 'hash' ? await redis.hgetall(key) : type === 'stream' ? await redis.xrange(key, '-', '+') : ''));
      }
    } while (cursor !== '0');
    redis.disconnect();
    const logs = platform.allOutput();
    for (const secret of secrets) {
      expect(dump.includes(secret) || dump.includes(`\\x${secret}`)).toBe(false);
      expect(redisDump.join('\n')).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
  });

  it('binds new secrets to their owner; rewraps every wallet under a new master key, binding older secrets too, after which the old key can be removed', async () => {
    const before = await Promise.all(players.map((player) => http<WalletView>('GET', `${platform.baseUrl}/v1/wallet/${player.walletId}`, { apiKey: game.key })));
    expect((await walletRows()).map((row) => row.aad_version)).toEqual([2, 2, 2, 2]);
    // A database from before owner binding: version 1 not retired yet (a new one retires it in its migrations).
    await queryOnce(platform.databaseUrl, `ALTER TABLE wallet.wallets DROP CONSTRAINT ${OWNER_BOUND_CONSTRAINT}`);
    // One wallet as rows made before owner binding were: associated data = wallet id (entropy), wallet id|key id (data key),
    // and no sealed chain keys (they came later).
    const [legacy] = (await walletRows()).filter((row) => row.id === players[1].walletId);
    const k1Key = Buffer.from(k1, 'base64');
    const entropy = await openEntropy(ownerOf(legacy), sealedOf(legacy), new EnvironmentKeyring(new Map([['k1', k1Key]]), 'k1'));
    const dataKey = randomBytes(32);
    const body = seal(dataKey, entropy, Buffer.from(legacy.id));
    const wrapped = seal(k1Key, dataKey, Buffer.from(`${legacy.id}|k1`));
    await queryOnce(
      platform.databaseUrl,
      `UPDATE wallet.wallets SET entropy_ciphertext = $2, entropy_iv = $3, entropy_tag = $4, data_key_ciphertext = $5, data_key_iv = $6,
         data_key_tag = $7, aad_version = 1, sealed_evm_key = NULL, sealed_sol_key = NULL, sealed_sui_key = NULL WHERE id = $1`,
      [legacy.id, body.ciphertext, body.iv, body.tag, wrapped.ciphertext, wrapped.iv, wrapped.tag],
    );
    await restartWallet({ WALLET_MASTER_KEYS: `k1=${k1}`, WALLET_MASTER_KEY_ID: 'k1' }); // starts with version 1 not retired
    expect((await sign(legacy.id, 'legacy row')).status).toBe(200);
    await restartWallet({ WALLET_MASTER_KEYS: `k1=${k1},k2=${k2}`, WALLET_MASTER_KEY_ID: 'k2' });
    const rewrap = spawnNode('rewrap', 'dist/apps/wallet/cli/rewrap.js', { ...platform.env, WALLET_MASTER_KEYS: `k1=${k1},k2=${k2}`, WALLET_MASTER_KEY_ID: 'k2' });
    expect(await rewrap.waitForExit()).toBe(0);
    expect(rewrap.output).toContain('Rewrapped 4 of 4 wallet(s) under master key "k2", bound to their owners');
    expect(rewrap.output).toContain('4/4 wallets | 0 left as they were'); // the progress bar's last state
    expect(rewrap.output).toContain('secrets bound to the wallet id only (version 1) are refused from now on');
    expect((await walletRows()).map((row) => [row.master_key_id, row.aad_version])).toEqual([
      ['k2', 2],
      ['k2', 2],
      ['k2', 2],
      ['k2', 2],
    ]);
    await restartWallet({ WALLET_MASTER_KEYS: `k2=${k2}`, WALLET_MASTER_KEY_ID: 'k2' });
    for (const [index, player] of players.entries()) {
      const after = await http<WalletView>('GET', `${platform.baseUrl}/v1/wallet/${player.walletId}`, { apiKey: game.key });
      expect(after.body.addresses).toEqual(before[index].body.addresses);
      const signature = await sign(player.walletId, 'after rewrap');
      expect(signature.status).toBe(200);
      expect(ethers.verifyMessage('after rewrap', signature.body.signature)).toBe(after.body.addresses.evm);
    }
  });

  it('answers 500 KEY_INTEGRITY_FAILED for two wallets whose ciphertexts were swapped, logs it, and keeps the others working', async () => {
    const [a, b] = players.map((player) => player.walletId);
    await queryOnce(
      platform.databaseUrl,
      `UPDATE wallet.wallets AS w SET entropy_ciphertext = o.entropy_ciphertext, entropy_iv = o.entropy_iv, entropy_tag = o.entropy_tag,
         data_key_ciphertext = o.data_key_ciphertext, data_key_iv = o.data_key_iv, data_key_tag = o.data_key_tag
       FROM wallet.wallets AS o WHERE (w.id = $1 AND o.id = $2) OR (w.id = $2 AND o.id = $1)`,
      [a, b],
    );
    for (const walletId of [a, b]) {
      const response = await sign(walletId);
      expect(response.status).toBe(500);
      expect(response.body).toEqual({ message: 'The key material of this wallet failed its integrity check', code: 'KEY_INTEGRITY_FAILED' });
    }
    const errorLines = () =>
      platform
        .process('wallet')
        .jsonLines()
        .filter((line) => line.level === 'error');
    const errors = await waitFor(() => (errorLines().some((line) => String(line.msg).includes(b)) ? errorLines() : undefined), 5000, 'both error lines');
    expect(errors.some((line) => String(line.msg).includes(a))).toBe(true);
    expect(errors.some((line) => String(line.msg).includes(b))).toBe(true);
    expect(JSON.stringify(errors)).not.toMatch(/at .*\.js:\d+/); // no stack
    expect((await sign(players[2].walletId)).status).toBe(200);
    expect((await sign(players[3].walletId)).status).toBe(200);
  });

  it('answers 500 KEY_INTEGRITY_FAILED for a wallet a database writer moved to another game and profile', async () => {
    const thief = await createGame(platform, await consoleToken(platform), 'Thief');
    const walletId = players[3].walletId;
    await queryOnce(platform.databaseUrl, 'UPDATE wallet.wallets SET application_id = $2, profile_id = $3 WHERE id = $1', [
      walletId,
      thief.gameId,
      '01900000-0000-7000-8000-00000000beef',
    ]);
    await restartWallet({ WALLET_MASTER_KEYS: `k2=${k2}`, WALLET_MASTER_KEY_ID: 'k2' }); // nothing of the row kept in memory
    const response = await http<{ code?: string }>('POST', `${platform.baseUrl}/v1/wallet/${walletId}/sign`, { apiKey: thief.key, body: { chain: 'evm', message: 'mine now' } });
    expect([response.status, response.body.code]).toEqual([500, 'KEY_INTEGRITY_FAILED']);
  });

  it('refuses a secret bound to the wallet id only once every wallet is owner-bound, even where the constraint was dropped', async () => {
    const walletId = players[2].walletId;
    const [row] = (await walletRows()).filter((candidate) => candidate.id === walletId);
    const k2Key = Buffer.from(k2, 'base64');
    const entropy = await openEntropy(ownerOf(row), sealedOf(row), new EnvironmentKeyring(new Map([['k2', k2Key]]), 'k2'));
    // What an old backup would hold: the same wallet's secret as version 1 (bound to the wallet id only).
    const dataKey = randomBytes(32);
    const body = seal(dataKey, entropy, Buffer.from(walletId));
    const wrapped = seal(k2Key, dataKey, Buffer.from(`${walletId}|k2`));
    const putBack = `UPDATE wallet.wallets SET entropy_ciphertext = $2, entropy_iv = $3, entropy_tag = $4, data_key_ciphertext = $5, data_key_iv = $6,
       data_key_tag = $7, aad_version = 1 WHERE id = $1`;
    const values = [walletId, body.ciphertext, body.iv, body.tag, wrapped.ciphertext, wrapped.iv, wrapped.tag];
    await expect(queryOnce(platform.databaseUrl, putBack, values)).rejects.toThrow(OWNER_BOUND_CONSTRAINT);
    // A writer who can also drop the constraint: the running service retired version 1 when it started.
    await queryOnce(platform.databaseUrl, `ALTER TABLE wallet.wallets DROP CONSTRAINT ${OWNER_BOUND_CONSTRAINT}`);
    await queryOnce(platform.databaseUrl, putBack, values);
    const response = await sign(walletId, 'an old secret');
    expect([response.status, response.body.code]).toEqual([500, 'KEY_INTEGRITY_FAILED']);
  });
});

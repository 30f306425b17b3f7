import { PlayerView, SignatureView, WalletView } from '@game-wallet/contracts';
import { GameFixture, SoftHsmToken, TestPlatform, consoleToken, createGame, createPlayer, freePort, http, queryOnce, spawnApp, spawnNode } from '@game-wallet/testing';
import { base58 } from '@scure/base';
import { ethers } from 'ethers';
import Redis from 'ioredis';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { IntegrityError } from '@game-wallet/crypto';
import { CHAINS, chainKey, mnemonicOf, seedOf } from '../src/keys/derivation';
import { openEntropy, rewrapEntropy } from '../src/keys/envelope';
import { Pkcs11Keyring } from '../src/keys/pkcs11-keyring';
import { closeToken, findSecretKey, loadPkcs11js, openTokenSession } from '../src/keys/pkcs11-token';
import { ownerOf, sealedOf, walletRowsOf } from './wallet-rows';

/** Master keys in a PKCS#11 token (SoftHSM2): custody, rotation from the environment into the token, refusal to start. */
describe('wallet master keys in an HSM (PKCS#11, SoftHSM2)', () => {
  const k1 = randomBytes(32).toString('base64');
  let token: SoftHsmToken;
  let platform: TestPlatform;
  let game: GameFixture;
  let players: PlayerView[];

  const walletRows = () => walletRowsOf(platform.databaseUrl);
  const sign = (walletId: string, message: string, chain = 'evm') =>
    http<SignatureView & { code?: string }>('POST', `${platform.baseUrl}/v1/wallet/${walletId}/sign`, { apiKey: game.key, body: { chain, message } });
  const readWallet = (walletId: string) => http<WalletView>('GET', `${platform.baseUrl}/v1/wallet/${walletId}`, { apiKey: game.key });
  const restartWallet = async (env: Record<string, string>) => {
    await platform.process('wallet').stop();
    await platform.startApp('wallet', 'wallet', env);
  };
  const rewrap = async (env: Record<string, string>) => {
    const run = spawnNode('rewrap', 'dist/apps/wallet/cli/rewrap.js', { ...platform.env, ...env });
    expect(await run.waitForExit()).toBe(0);
    return run.output;
  };
  const tokenConfig = () => ({ module: token.env.PKCS11_MODULE, tokenLabel: token.label, pin: token.pin });
  const zeroed = (buffer: Buffer) => buffer.every((byte) => byte === 0);

  beforeAll(async () => {
    token = SoftHsmToken.create();
    token.createKey('hsm-1');
    platform = await TestPlatform.start('walhsm', { appEnv: { wallet: token.walletEnv('hsm-1') } });
    game = await createGame(platform, await consoleToken(platform));
    players = await Promise.all([1, 2, 3].map((n) => createPlayer(platform, game.key, `hsm-${n}`)));
  });

  afterAll(async () => {
    await platform?.stop();
    token?.destroy();
  });

  it('wraps new wallets in the token, signs on every chain with them, and reports the HSM in /v1/health', async () => {
    expect((await walletRows()).map((row) => row.master_key_id)).toEqual(['pkcs11:hsm-1', 'pkcs11:hsm-1', 'pkcs11:hsm-1']);
    const wallet = await readWallet(players[0].walletId);
    const evm = await sign(players[0].walletId, 'in the token');
    expect(ethers.verifyMessage('in the token', evm.body.signature)).toBe(wallet.body.addresses.evm);
    for (const chain of ['sol', 'sui']) {
      expect((await sign(players[0].walletId, 'in the token', chain)).status).toBe(200);
    }
    const health = await http<{ status: string; info: Record<string, { status: string }> }>('GET', `${platform.internalUrl('wallet')}/v1/health`);
    expect([health.status, health.body.info.hsm]).toEqual([200, { status: 'up' }]);
  });

  it('keeps the master key inside the token: reading its value (CKA_VALUE) is refused', async () => {
    const lib = await loadPkcs11js();
    const { pkcs11, slot, session } = openTokenSession(lib, { module: token.env.PKCS11_MODULE, tokenLabel: token.label, pin: token.pin });
    try {
      const key = findSecretKey(lib, pkcs11, session, 'hsm-1');
      expect(key).toBeDefined();
      expect(() => pkcs11.C_GetAttributeValue(session, key!, [{ type: lib.CKA_VALUE }])).toThrow('CKR_ATTRIBUTE_SENSITIVE');
    } finally {
      closeToken(pkcs11, slot);
    }
  });

  it('wraps and unwraps 64 data keys at a time in the token, 6,400 in all, each back as it went in', async () => {
    // Without the library doing its own locking (C_Initialize with CKF_OS_LOCKING_OK) SoftHSM2 corrupts its heap here.
    const keyring = await Pkcs11Keyring.open({ module: token.env.PKCS11_MODULE, tokenLabel: token.label, pin: token.pin }, 'hsm-1');
    try {
      for (let round = 0; round < 100; round += 1) {
        await Promise.all(
          Array.from({ length: 64 }, async (_, n) => {
            const dataKey = randomBytes(32);
            const aad = Buffer.from(`wallet-${round}-${n}`);
            expect((await keyring.unwrap(keyring.currentId, await keyring.wrap(keyring.currentId, dataKey, aad), aad)).equals(dataKey)).toBe(true);
          }),
        );
      }
    } finally {
      await keyring.close();
    }
  });

  it('zeroes the buffer the token writes a data key into, once the key is copied out, and when the tag fails', async () => {
    // Every buffer the keyring hands the library to decrypt into, kept to look at afterwards.
    const lib = await loadPkcs11js();
    const Library = lib.PKCS11;
    const outputs: Buffer[] = [];
    jest.spyOn(lib, 'PKCS11').mockImplementation(() => {
      const pkcs11 = new Library();
      const decrypt = pkcs11.C_DecryptAsync.bind(pkcs11);
      pkcs11.C_DecryptAsync = (session, input, output) => {
        outputs.push(output);
        return decrypt(session, input, output);
      };
      return pkcs11;
    });
    let keyring: Pkcs11Keyring;
    try {
      keyring = await Pkcs11Keyring.open(tokenConfig(), 'hsm-1');
    } finally {
      jest.restoreAllMocks();
    }
    try {
      const dataKey = randomBytes(32);
      const aad = Buffer.from('wallet-zeroing');
      const wrapped = await keyring.wrap(keyring.currentId, dataKey, aad);
      const opened = await keyring.unwrap(keyring.currentId, wrapped, aad);
      expect(opened.equals(dataKey)).toBe(true);
      await expect(keyring.unwrap(keyring.currentId, wrapped, Buffer.from('another wallet'))).rejects.toThrow(IntegrityError);
      expect(outputs).toHaveLength(2);
      expect(outputs.every(zeroed)).toBe(true);
      expect(opened.equals(dataKey)).toBe(true); // the caller's copy is the caller's to zero
    } finally {
      await keyring.close();
    }
  });

  it('with PKCS11_CALLS=sync calls the token on the event loop: each data key back as it went in, a bad tag refused, the output buffer zeroed', async () => {
    const lib = await loadPkcs11js();
    const Library = lib.PKCS11;
    const calls = { sync: [] as Buffer[], async: 0 };
    jest.spyOn(lib, 'PKCS11').mockImplementation(() => {
      const pkcs11 = new Library();
      const decrypt = pkcs11.C_Decrypt.bind(pkcs11);
      const decryptAsync = pkcs11.C_DecryptAsync.bind(pkcs11);
      pkcs11.C_Decrypt = (session, input, output) => {
        calls.sync.push(output);
        return decrypt(session, input, output);
      };
      pkcs11.C_DecryptAsync = (session, input, output) => {
        calls.async += 1;
        return decryptAsync(session, input, output);
      };
      return pkcs11;
    });
    let keyring: Pkcs11Keyring;
    try {
      keyring = await Pkcs11Keyring.open({ ...tokenConfig(), calls: 'sync' }, 'hsm-1');
    } finally {
      jest.restoreAllMocks();
    }
    try {
      await Promise.all(
        Array.from({ length: 64 }, async (_, n) => {
          const dataKey = randomBytes(32);
          const aad = Buffer.from(`wallet-sync-${n}`);
          expect((await keyring.unwrap(keyring.currentId, await keyring.wrap(keyring.currentId, dataKey, aad), aad)).equals(dataKey)).toBe(true);
        }),
      );
      const aad = Buffer.from('wallet-sync');
      const wrapped = await keyring.wrap(keyring.currentId, randomBytes(32), aad);
      await expect(keyring.unwrap(keyring.currentId, wrapped, Buffer.from('another wallet'))).rejects.toThrow(IntegrityError);
      expect([calls.sync.length, calls.async]).toEqual([65, 0]);
      expect(calls.sync.every(zeroed)).toBe(true);
    } finally {
      await keyring.close();
    }
  });

  it('keeps no mnemonic, seed or private key in any table, any Redis key or any log line', async () => {
    const keyring = await Pkcs11Keyring.open({ module: token.env.PKCS11_MODULE, tokenLabel: token.label, pin: token.pin }, 'hsm-1');
    const secrets: string[] = [];
    try {
      for (const row of await walletRows()) {
        const entropy = await openEntropy(ownerOf(row), sealedOf(row), keyring);
        const mnemonic = mnemonicOf(entropy);
        const seed = seedOf(mnemonic);
        secrets.push(entropy.toString('hex'), entropy.toString('base64'), mnemonic, Buffer.from(seed).toString('hex'));
        for (const chain of CHAINS) {
          const key = chainKey(seed, chain);
          secrets.push(Buffer.from(key).toString('hex'), base58.encode(key));
        }
      }
    } finally {
      await keyring.close();
    }
    expect(secrets.length).toBe(3 * 10);
    const dump = execFileSync('pg_dump', ['--data-only', '--dbname', platform.databaseUrl], { maxBuffer: 64 * 1024 * 1024 }).toString();
    const redis = new Redis(platform.env.REDIS_URL);
    const keys = await redis.keys(`${platform.keyPrefix}:*`);
    const values = await Promise.all(keys.map(async (key) => ((await redis.type(key)) === 'string' ? ((await redis.get(key)) ?? '') : '')));
    redis.disconnect();
    const everything = [dump, ...keys, ...values, platform.allOutput()].join('\n');
    for (const secret of [...secrets, token.pin]) {
      expect(everything).not.toContain(secret);
    }
  });

  it('moves every wallet from environment keys into the token, then to a second token key; with the environment keys removed every wallet still signs', async () => {
    // Wallets made under an environment key, as before the HSM.
    await restartWallet({ WALLET_MASTER_KEY_PROVIDER: 'env', WALLET_MASTER_KEYS: `k1=${k1}`, WALLET_MASTER_KEY_ID: 'k1' });
    players.push(...(await Promise.all([4, 5].map((n) => createPlayer(platform, game.key, `hsm-${n}`)))));
    const before = await Promise.all(players.map((player) => readWallet(player.walletId)));
    expect((await walletRows()).filter((row) => row.master_key_id === 'k1')).toHaveLength(2);

    // Into the token: the HSM key is current, the environment key still opens what was not moved yet.
    const intoHsm = { ...token.walletEnv('hsm-1'), WALLET_MASTER_KEYS: `k1=${k1}` };
    await restartWallet(intoHsm);
    expect(await rewrap(intoHsm)).toContain('Rewrapped 2 of 2 wallet(s) under master key "pkcs11:hsm-1"');
    expect(new Set((await walletRows()).map((row) => row.master_key_id))).toEqual(new Set(['pkcs11:hsm-1']));

    // To a second key of the token, with no environment key left; the first key is found by its label.
    token.createKey('hsm-2');
    await restartWallet({ ...token.walletEnv('hsm-2'), WALLET_MASTER_KEYS: '' });
    expect((await sign(players[0].walletId, 'still under hsm-1')).status).toBe(200);
    expect(await rewrap({ ...token.walletEnv('hsm-2'), WALLET_MASTER_KEYS: '' })).toContain('Rewrapped 5 of 5 wallet(s) under master key "pkcs11:hsm-2"');
    expect(new Set((await walletRows()).map((row) => row.master_key_id))).toEqual(new Set(['pkcs11:hsm-2']));

    for (const [index, player] of players.entries()) {
      const after = await readWallet(player.walletId);
      expect(after.body.addresses).toEqual(before[index].body.addresses);
      const signature = await sign(player.walletId, 'after moving into the HSM');
      expect(signature.status).toBe(200);
      expect(ethers.verifyMessage('after moving into the HSM', signature.body.signature)).toBe(after.body.addresses.evm);
    }
  });

  it('keeps the sealed chain keys through the moves into the token (under the same data key), and backfills with the data keys unwrapped in the token', async () => {
    const walletId = players[1].walletId;
    const before = await Promise.all(['evm', 'sol', 'sui'].map((chain) => sign(walletId, 'sealed in the token', chain)));
    expect(before.map((response) => response.status)).toEqual([200, 200, 200]);
    expect((await walletRows()).every((row) => row.sealed_evm_key !== null && row.sealed_sol_key !== null && row.sealed_sui_key !== null)).toBe(true);
    await queryOnce(platform.databaseUrl, 'UPDATE wallet.wallets SET sealed_evm_key = NULL, sealed_sol_key = NULL, sealed_sui_key = NULL WHERE id = $1', [walletId]);
    const env = { ...platform.env, ...token.walletEnv('hsm-2'), WALLET_MASTER_KEYS: '' };
    const run = spawnNode('backfill', 'dist/apps/wallet/cli/rewrap.js', env, ['--chain-keys']);
    expect(await run.waitForExit()).toBe(0);
    expect(run.output).toContain('Sealed the chain keys of 1 of 1 wallet(s)');
    const after = await Promise.all(['evm', 'sol', 'sui'].map((chain) => sign(walletId, 'sealed in the token', chain)));
    expect(after.map((response) => response.body.signature)).toEqual(before.map((response) => response.body.signature));
    expect(ethers.verifyMessage('sealed in the token', after[0].body.signature)).toBe((await readWallet(walletId)).body.addresses.evm);
  });

  it('serves many creations and signatures at once (token calls run on several threads, each on its own session)', async () => {
    const many = await Promise.all(Array.from({ length: 40 }, (_, n) => createPlayer(platform, game.key, `burst-${n}`)));
    const signed = await Promise.all(many.map((player) => sign(player.walletId, 'at once')));
    expect(signed.map((response) => response.status)).toEqual(many.map(() => 200));
    expect(platform.process('wallet').running).toBe(true);
  });

  describe('refuses to start, with one line naming the variable and never its value', () => {
    const startFails = async (env: Record<string, string>): Promise<string> => {
      const wallet = spawnApp('wallet', { ...platform.env, WALLET_PORT: String(await freePort()), ...env });
      // A start that is not refused runs on: it is stopped after a while (and fails the test) rather than left running.
      const timer = setTimeout(() => void wallet.stop(), 20_000);
      const code = await wallet.waitForExit();
      clearTimeout(timer);
      expect(code).toBe(1);
      return wallet.output;
    };

    it.each([
      ['a wrong PIN', { PKCS11_PIN: 'not-the-pin-5501' }, 'PKCS11_PIN: the token refused the PIN', 'not-the-pin-5501'],
      ['a missing module', { PKCS11_MODULE: '/nowhere/libmissing-pkcs11.so' }, 'PKCS11_MODULE: the PKCS#11 module could not be loaded', 'libmissing-pkcs11'],
      ['an unknown token', { PKCS11_TOKEN_LABEL: 'no-such-token-77' }, 'PKCS11_TOKEN_LABEL: no token with this label is present', 'no-such-token-77'],
      ['a missing key label', { WALLET_MASTER_KEY_ID: 'no-such-key-88' }, 'WALLET_MASTER_KEY_ID: the token has no secret key with this label', 'no-such-key-88'],
    ])('%s', async (_, change, line, value) => {
      const output = await startFails({ ...token.walletEnv('hsm-2'), ...change });
      expect(output).toContain(`wallet: invalid configuration: ${line}`);
      expect(output).not.toContain(value);
      expect(output).not.toContain(token.pin);
    });

    it('a master key that could leave the token (extractable)', async () => {
      token.createKeyWith('leaky', { sensitive: false, extractable: true });
      const output = await startFails(token.walletEnv('leaky'));
      expect(output).toContain('wallet: invalid configuration: WALLET_MASTER_KEY_ID: the key with this label can leave the token');
    });

    it('a master key whose label another key on the token has too (never "the first one found")', async () => {
      token.createKey('twice');
      token.createKeyWith('twice');
      const output = await startFails(token.walletEnv('twice'));
      expect(output).toContain('wallet: invalid configuration: WALLET_MASTER_KEY_ID: the token has more than one secret key with this label');
      expect(output).not.toContain(token.pin);
    });

    describe('an older key that wallets are still under, named by its stored id', () => {
      /** A wallet of its own, put under `keyId` in the database while `run` runs (only the key id matters at start). */
      const withWalletUnder = async (keyId: string, run: () => Promise<void>) => {
        const { walletId } = await createPlayer(platform, game.key, `under-${keyId}-${Math.random()}`);
        const [{ master_key_id: before }] = await queryOnce<{ master_key_id: string }>(platform.databaseUrl, 'SELECT master_key_id FROM wallet.wallets WHERE id = $1', [walletId]);
        await queryOnce(platform.databaseUrl, 'UPDATE wallet.wallets SET master_key_id = $1 WHERE id = $2', [keyId, walletId]);
        try {
          await run();
        } finally {
          await queryOnce(platform.databaseUrl, 'UPDATE wallet.wallets SET master_key_id = $1 WHERE id = $2', [before, walletId]);
        }
      };

      it.each([
        ['extractable', { extractable: true }, 'the key with this label can leave the token (extractable or not sensitive), which a master key must not'],
        ['not sensitive', { sensitive: false }, 'the key with this label can leave the token (extractable or not sensitive), which a master key must not'],
        ['AES-128', { bytes: 16 as const }, 'the key with this label is not an AES-256 key'],
      ])('that is %s', async (kind, attributes, problem) => {
        const label = `older-${kind.replace(/\W+/g, '-').toLowerCase()}`;
        token.createKeyWith(label, attributes);
        await withWalletUnder(`pkcs11:${label}`, async () => {
          const output = await startFails(token.walletEnv('hsm-2'));
          expect(output).toContain(`wallet: invalid configuration: master key pkcs11:${label} (an older key, wallets are still under it): ${problem}; \`npm run rewrap\` moves its wallets to WALLET_MASTER_KEY_ID`);
          expect(output).not.toContain(token.pin);
        });
      });

      it('whose label another key on the token has too', async () => {
        token.createKey('older-twice');
        token.createKeyWith('older-twice');
        await withWalletUnder('pkcs11:older-twice', async () => {
          const output = await startFails(token.walletEnv('hsm-2'));
          expect(output).toContain('wallet: invalid configuration: master key pkcs11:older-twice (an older key, wallets are still under it): the token has more than one secret key with this label');
        });
      });

      it('found only after start is refused too: a wallet under it does not open, while a checked key gets as far as the tag', async () => {
        token.createKeyWith('later-extractable', { extractable: true });
        token.createKey('later-twice');
        token.createKeyWith('later-twice');
        const keyring = await Pkcs11Keyring.open(tokenConfig(), 'hsm-2');
        try {
          const wrapped = { iv: randomBytes(12), ciphertext: randomBytes(32), tag: randomBytes(16) };
          const aad = Buffer.from('wallet-after-start');
          const refusal = (id: string, problem: string) => expect.objectContaining({ name: 'MasterKeyRefusedError', message: `Master key "${id}" is refused: ${problem}` });
          await expect(keyring.unwrap('pkcs11:later-extractable', wrapped, aad)).rejects.toEqual(
            refusal('pkcs11:later-extractable', 'the key with this label can leave the token (extractable or not sensitive), which a master key must not'),
          );
          await expect(keyring.unwrap('pkcs11:later-twice', wrapped, aad)).rejects.toEqual(
            refusal('pkcs11:later-twice', "the token has more than one secret key with this label, so which one is meant cannot be told (give the others another label, or delete them, with the HSM's tools)"),
          );
          await expect(keyring.unwrap('pkcs11:hsm-1', wrapped, aad)).rejects.toThrow(IntegrityError);
        } finally {
          await keyring.close();
        }
      });

      it('is moved off by `npm run rewrap` (which may open it, with a warning); the service then starts and its wallets sign', async () => {
        token.createKeyWith('older-weak', { extractable: true });
        const player = await createPlayer(platform, game.key, 'under-a-weak-key');
        const [row] = (await walletRows()).filter((candidate) => candidate.id === player.walletId);
        // Its data key wrapped under the weak key, as a key made before these checks would have left it.
        const lenient = await Pkcs11Keyring.open(tokenConfig(), 'hsm-2', { useWeakOlderKeys: true });
        try {
          const moved = await rewrapEntropy(ownerOf(row), sealedOf(row), lenient, 'pkcs11:older-weak');
          await queryOnce(platform.databaseUrl, 'UPDATE wallet.wallets SET data_key_ciphertext = $1, data_key_iv = $2, data_key_tag = $3, master_key_id = $4 WHERE id = $5', [
            moved.dataKeyCiphertext,
            moved.dataKeyIv,
            moved.dataKeyTag,
            moved.masterKeyId,
            row.id,
          ]);
        } finally {
          await lenient.close();
        }
        const env = { ...token.walletEnv('hsm-2'), WALLET_MASTER_KEYS: '' };
        expect(await startFails(env)).toContain('wallet: invalid configuration: master key pkcs11:older-weak (an older key, wallets are still under it)');

        const output = await rewrap(env);
        expect(output).toContain('Opening wallets under master key "pkcs11:older-weak" to move them to "pkcs11:hsm-2"');
        expect(output).toContain('Rewrapped 1 of 1 wallet(s) under master key "pkcs11:hsm-2"');
        await restartWallet(env);
        const wallet = await readWallet(player.walletId);
        const signature = await sign(player.walletId, 'off the weak key');
        expect(ethers.verifyMessage('off the weak key', signature.body.signature)).toBe(wallet.body.addresses.evm);
      });
    });
  });
});

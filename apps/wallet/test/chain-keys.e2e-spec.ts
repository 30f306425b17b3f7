import { PlayerView, WalletView } from '@game-wallet/contracts';
import { seal } from '@game-wallet/crypto';
import { GameFixture, TestPlatform, consoleToken, createGame, createPlayer, http, queryOnce, spawnNode, waitFor } from '@game-wallet/testing';
import { Transaction as SuiTransaction } from '@mysten/sui/transactions';
import { verifyPersonalMessageSignature, verifyTransactionSignature } from '@mysten/sui/verify';
import { PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import { base58 } from '@scure/base';
import { ethers } from 'ethers';
import { randomBytes } from 'node:crypto';
import nacl from 'tweetnacl';
import { SEALED_CHAIN_KEY_BYTES, chainKeyAad } from '../src/keys/chain-key-envelope';
import { CHAINS, Chain, addressOf, addressesOf } from '../src/keys/derivation';
import { openSealedChainKey, sealEntropy } from '../src/keys/envelope';
import { EnvironmentKeyring, MasterKeyring } from '../src/keys/master-keyring';
import { WalletRow, ownerOf, sealedOf } from './wallet-rows';

const k1 = randomBytes(32).toString('base64');
const COLUMNS = { evm: 'sealed_evm_key', sol: 'sealed_sol_key', sui: 'sealed_sui_key' } as const;

type Row = WalletRow & Record<string, unknown> & Record<'sealed_evm_key' | 'sealed_sol_key' | 'sealed_sui_key', Buffer | null> & Record<'address_evm' | 'address_sol' | 'address_sui', string>;

/**
 * Sealed chain keys (keys/chain-key-envelope.ts): sealed at creation, filled in for older wallets by the backfill,
 * used to sign with the same signatures as the entropy gives, and never used when they do not authenticate or do not
 * match the wallet's address.
 */
describe('sealed chain keys', () => {
  let platform: TestPlatform;
  let game: GameFixture;
  let players: PlayerView[];
  let wallets: WalletView[];
  const keyring: MasterKeyring = new EnvironmentKeyring(new Map([['k1', Buffer.from(k1, 'base64')]]), 'k1');

  const rows = async (ids?: string[]) =>
    ids === undefined
      ? queryOnce<Row>(platform.databaseUrl, 'SELECT * FROM wallet.wallets ORDER BY id')
      : queryOnce<Row>(platform.databaseUrl, 'SELECT * FROM wallet.wallets WHERE id = ANY($1::uuid[]) ORDER BY id', [ids]);
  const addressOfRow = (row: Row, chain: Chain) => row[`address_${chain}`];
  /** Whether the row's sealed key for `chain` opens (for this wallet, owner and chain) to the key of its stored address. */
  const opensToItsAddress = async (row: Row, chain: Chain) => {
    const key = await openSealedChainKey(ownerOf(row), sealedOf(row), chain, row[COLUMNS[chain]] as Buffer, keyring);
    try {
      return addressOf(chain, key) === addressOfRow(row, chain);
    } finally {
      key.fill(0);
    }
  };
  const spawnNodeWith = (args: string[]) =>
    spawnNode('backfill', 'dist/apps/wallet/cli/rewrap.js', { ...platform.env, WALLET_MASTER_KEYS: `k1=${k1}`, WALLET_MASTER_KEY_ID: 'k1' }, ['--chain-keys', ...args]);

  const post = <T>(walletId: string, route: string, body: unknown) =>
    http<T & { code?: string; message?: string }>('POST', `${platform.baseUrl}/v1/wallet/${walletId}/${route}`, { apiKey: game.key, body });
  const signed = (walletId: string, chain = 'evm', message = 'a sentinel') => post<{ signature: string }>(walletId, 'sign', { chain, message });
  const allowedSignatures = async (walletId: string) =>
    (await queryOnce<{ count: number }>(platform.databaseUrl, `SELECT count(*)::int AS count FROM wallet.signature_events WHERE wallet_id = $1 AND decision = 'allowed'`, [walletId]))[0].count;

  const mail = {
    domain: { name: 'Ether Mail', version: '1', chainId: 1, verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC' },
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'version', type: 'string' },
        { name: 'chainId', type: 'uint256' },
        { name: 'verifyingContract', type: 'address' },
      ],
      Person: [
        { name: 'name', type: 'string' },
        { name: 'wallet', type: 'address' },
      ],
      Mail: [
        { name: 'from', type: 'Person' },
        { name: 'to', type: 'Person' },
        { name: 'contents', type: 'string' },
      ],
    },
    primaryType: 'Mail',
    message: { from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' }, to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' }, contents: 'Hello, Bob!' },
  };
  const evmTransaction = { chainId: 8453, nonce: 7, to: '0x3333333333333333333333333333333333333333', value: '1000', gasLimit: '21000', maxFeePerGas: '1000000000', maxPriorityFeePerGas: '1000000' };
  const solTransaction = (address: string) => {
    const payer = new PublicKey(address);
    const transaction = new Transaction({ feePayer: payer, recentBlockhash: base58.encode(new Uint8Array(32).fill(7)) }).add(
      SystemProgram.transfer({ fromPubkey: payer, toPubkey: new PublicKey(new Uint8Array(32).fill(9)), lamports: 5000 }),
    );
    return transaction.serialize({ requireAllSignatures: false, verifySignatures: false });
  };
  const suiTransaction = (sender: string) => {
    const transaction = new SuiTransaction();
    transaction.setSender(sender);
    transaction.setGasPrice(1000);
    transaction.setGasBudget(10_000_000);
    transaction.setGasPayment([{ objectId: `0x${'22'.repeat(32)}`, version: '1', digest: '11111111111111111111111111111111' }]);
    const [coin] = transaction.splitCoins(transaction.gas, [100]);
    transaction.transferObjects([coin], `0x${'33'.repeat(32)}`);
    return transaction.build();
  };

  /** Every chain on every signing route, each answer checked by the chain's own library; the signatures, to compare. */
  const signEverything = async (wallet: WalletView): Promise<string[]> => {
    const { evm, sol, sui } = wallet.addresses as Record<Chain, string>;
    const message = 'same before and after ✓';
    const bytes = Buffer.from(message);
    const answers: Record<string, { status: number; body: Record<string, string> }> = {
      evmMessage: await post(wallet.id, 'sign', { chain: 'evm', message }),
      solMessage: await post(wallet.id, 'sign', { chain: 'sol', message }),
      suiMessage: await post(wallet.id, 'sign', { chain: 'sui', message }),
      evmTransaction: await post(wallet.id, 'sign-transaction', { chain: 'evm', transaction: evmTransaction }),
      solTransaction: await post(wallet.id, 'sign-transaction', { chain: 'sol', transaction: Buffer.from(solTransaction(sol)).toString('base64') }),
      suiTransaction: await post(wallet.id, 'sign-transaction', { chain: 'sui', transaction: Buffer.from(await suiTransaction(sui)).toString('base64') }),
      typedData: await post(wallet.id, 'sign-typed-data', mail),
    };
    for (const [name, answer] of Object.entries(answers)) {
      expect([name, answer.status]).toEqual([name, 200]);
    }
    expect(ethers.verifyMessage(message, answers.evmMessage.body.signature)).toBe(evm);
    expect(nacl.sign.detached.verify(bytes, base58.decode(answers.solMessage.body.signature), new PublicKey(sol).toBytes())).toBe(true);
    expect((await verifyPersonalMessageSignature(bytes, answers.suiMessage.body.signature, { address: sui })).toSuiAddress()).toBe(sui);
    expect(ethers.Transaction.from(answers.evmTransaction.body.signedTransaction).from).toBe(evm);
    expect(Transaction.from(Buffer.from(answers.solTransaction.body.signedTransaction, 'base64')).verifySignatures()).toBe(true);
    expect((await verifyTransactionSignature(await suiTransaction(sui), answers.suiTransaction.body.signature)).toSuiAddress()).toBe(sui);
    const { EIP712Domain: _domain, ...types } = mail.types;
    expect(ethers.verifyTypedData(mail.domain, types, mail.message, answers.typedData.body.signature)).toBe(evm);
    return Object.values(answers).map((answer) => answer.body.signedTransaction ?? answer.body.signature);
  };

  beforeAll(async () => {
    platform = await TestPlatform.start('chainkeys', { env: { WALLET_MASTER_KEYS: `k1=${k1}`, WALLET_MASTER_KEY_ID: 'k1', RATE_LIMIT_SIGN_PER_WALLET_RPS: '1000' } });
    game = await createGame(platform, await consoleToken(platform));
    players = await Promise.all([1, 2, 3, 4].map((n) => createPlayer(platform, game.key, `chainkeys-${n}`)));
    wallets = await Promise.all(players.map(async (player) => (await http<WalletView>('GET', `${platform.baseUrl}/v1/wallet/${player.walletId}`, { apiKey: game.key })).body));
  });

  afterAll(async () => {
    await platform.stop();
    await keyring.close();
  });

  it('seals the three chain keys of a new wallet beside its entropy, each opening to the key of its address', async () => {
    for (const row of await rows()) {
      for (const chain of CHAINS) {
        expect(row[COLUMNS[chain]]).toHaveLength(SEALED_CHAIN_KEY_BYTES);
        expect(await opensToItsAddress(row, chain)).toBe(true);
      }
    }
  });

  it('signs the same on every chain and every route from sealed keys, from the entropy (a wallet made before them), and after the backfill', async () => {
    const [wallet] = wallets;
    const fromSealed = await signEverything(wallet);
    await queryOnce(platform.databaseUrl, 'UPDATE wallet.wallets SET sealed_evm_key = NULL, sealed_sol_key = NULL, sealed_sui_key = NULL WHERE id = $1', [wallet.id]);
    const fromEntropy = await signEverything(wallet);
    expect(fromEntropy).toEqual(fromSealed);
    const run = spawnNodeWith([]);
    expect(await run.waitForExit()).toBe(0);
    expect(run.output).toContain('Sealed the chain keys of 1 of 1 wallet(s)');
    expect(run.output).toContain('1/1 wallets | 0 left as they were'); // the progress bar's last state
    const [row] = await rows([wallet.id]);
    for (const chain of CHAINS) {
      expect(await opensToItsAddress(row, chain)).toBe(true);
    }
    expect(await signEverything(wallet)).toEqual(fromSealed);
  });

  describe('a sealed chain key that is not this wallet\'s answers 500 KEY_INTEGRITY_FAILED, is logged, and never signs', () => {
    const refused = async (walletId: string, chain: Chain) => {
      const before = await allowedSignatures(walletId);
      const response = await signed(walletId, chain);
      expect([response.status, response.body]).toEqual([500, { message: 'The key material of this wallet failed its integrity check', code: 'KEY_INTEGRITY_FAILED' }]);
      // The sentinel: a signature by a sound wallet, recorded once answered; the refused one recorded nothing.
      expect((await signed(wallets[3].id, chain)).status).toBe(200);
      expect(await allowedSignatures(walletId)).toBe(before);
      await waitFor(
        () => platform.process('wallet').jsonLines().some((line) => line.level === 'error' && String(line.msg).includes(walletId)) || undefined,
        5000,
        'the error line naming the wallet',
      );
    };

    it('another wallet\'s sealed key put in its row', async () => {
      const [a, b] = [wallets[1].id, wallets[2].id];
      await queryOnce(
        platform.databaseUrl,
        `UPDATE wallet.wallets AS w SET sealed_sol_key = o.sealed_sol_key FROM wallet.wallets AS o WHERE (w.id = $1 AND o.id = $2) OR (w.id = $2 AND o.id = $1)`,
        [a, b],
      );
      await refused(a, 'sol');
      await refused(b, 'sol');
    });

    it('its own keys swapped between two chains, or a bit flipped', async () => {
      const walletId = wallets[1].id;
      await queryOnce(platform.databaseUrl, 'UPDATE wallet.wallets SET sealed_evm_key = sealed_sui_key, sealed_sui_key = sealed_evm_key WHERE id = $1', [walletId]);
      await refused(walletId, 'evm');
      await refused(walletId, 'sui');
      await queryOnce(platform.databaseUrl, `UPDATE wallet.wallets SET sealed_sui_key = overlay(sealed_sui_key placing '\\x00'::bytea from 20 for 1) WHERE id = $1`, [walletId]);
      await refused(walletId, 'sui');
    });

    it('a key sealed under its own data key and associated data that is not the key of its address (only the address check catches it)', async () => {
      const walletId = wallets[2].id;
      const [row] = await rows([walletId]);
      const dataKey = await keyring.unwrap(row.master_key_id, { ciphertext: row.data_key_ciphertext, iv: row.data_key_iv, tag: row.data_key_tag }, Buffer.from(`wallet:v2|${row.id}|${row.application_id}|${row.profile_id}|${row.master_key_id}`));
      const foreign = randomBytes(32); // a valid key of no wallet here: what a defect, or a writer holding the data key, could seal
      const { iv, ciphertext, tag } = seal(dataKey, foreign, chainKeyAad(ownerOf(row), 'evm'));
      dataKey.fill(0);
      await queryOnce(platform.databaseUrl, 'UPDATE wallet.wallets SET sealed_evm_key = $2 WHERE id = $1', [walletId, Buffer.concat([iv, ciphertext, tag])]);
      await refused(walletId, 'evm');
      expect(platform.allOutput()).not.toContain(foreign.toString('hex'));
    });
  });

  it('backfills thousands of wallets, resuming after SIGKILL, and never writes a key that does not match the address', async () => {
    // Wallets as made before sealed chain keys: the entropy sealed (by the service's own sealing), no sealed chain keys.
    const count = 2000;
    const made: unknown[][] = [[], [], [], [], [], [], [], [], [], [], [], [], [], []];
    const now = new Date();
    for (let n = 0; n < count; n += 1) {
      const id = `01900000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;
      const owner = { id, applicationId: game.gameId, profileId: `01910000-0000-7000-8000-${n.toString(16).padStart(12, '0')}` };
      const entropy = randomBytes(32);
      const addresses = addressesOf(entropy);
      const sealed = await sealEntropy(owner, entropy, keyring);
      entropy.fill(0);
      [id, owner.applicationId, owner.profileId, addresses.evm, addresses.sol, addresses.sui, sealed.entropyCiphertext, sealed.entropyIv, sealed.entropyTag, sealed.dataKeyCiphertext, sealed.dataKeyIv, sealed.dataKeyTag, sealed.masterKeyId, sealed.aadVersion].forEach(
        (value, column) => made[column].push(value),
      );
    }
    // One wallet whose sol address a database writer changed: its keys do not match it, so none is written.
    const forged = made[0][1234] as string;
    made[4][1234] = wallets[0].addresses.sol;
    await queryOnce(
      platform.databaseUrl,
      `INSERT INTO wallet.wallets (id, application_id, profile_id, address_evm, address_sol, address_sui, created_at, last_used_at, entropy_ciphertext, entropy_iv,
                                   entropy_tag, data_key_ciphertext, data_key_iv, data_key_tag, master_key_id, aad_version)
       SELECT id, app, profile, evm, sol, sui, $15, $15, ec, ei, et, dc, di, dt, mk, av
       FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::varchar[], $5::varchar[], $6::varchar[], $7::bytea[], $8::bytea[], $9::bytea[], $10::bytea[],
                   $11::bytea[], $12::bytea[], $13::varchar[], $14::smallint[]) AS v(id, app, profile, evm, sol, sui, ec, ei, et, dc, di, dt, mk, av)`,
      [...made, now],
    );
    const sealedCount = async () => (await queryOnce<{ count: number }>(platform.databaseUrl, 'SELECT count(*)::int AS count FROM wallet.wallets WHERE sealed_evm_key IS NOT NULL AND id < $1', ['01900000-0000-7000-8001-000000000000']))[0].count;

    const first = spawnNodeWith(['--batch=20']);
    await waitFor(async () => ((await sealedCount()) >= 200 ? true : undefined), 60_000, 'some wallets backfilled');
    await first.stop('SIGKILL');
    const partly = await sealedCount();
    expect(partly).toBeGreaterThanOrEqual(200);
    expect(partly).toBeLessThan(count);
    // What was written before the kill is whole and right: a batch is one statement.
    const written = (await rows()).filter((row) => row.sealed_evm_key !== null && row.id < '01900000-0000-7000-8001');
    expect(written.length).toBe(partly);
    for (const row of written.filter((_, index) => index % 25 === 0)) {
      for (const chain of CHAINS) {
        expect(await opensToItsAddress(row, chain)).toBe(true);
      }
    }

    const second = spawnNodeWith([]);
    expect(await second.waitForExit()).toBe(1); // the forged wallet is left as it was
    expect(second.output).toContain(`Sealed the chain keys of ${count - 1 - partly} of ${count - partly} wallet(s)`);
    expect(second.output).toContain(`wallet ${forged} left as it was: Wallet ${forged}: the sol key does not match the wallet's sol address`);
    process.stdout.write(`backfill: ${second.output.split('\n').find((line) => line.startsWith('Sealed the chain keys')) ?? ''}\n`);
    const all = await rows();
    const [forgedRow] = all.filter((row) => row.id === forged);
    expect([forgedRow.sealed_evm_key, forgedRow.sealed_sol_key, forgedRow.sealed_sui_key]).toEqual([null, null, null]);
    expect(all.filter((row) => row.sealed_evm_key === null)).toHaveLength(1);
    for (const row of all.filter((candidate) => candidate.id !== forged && candidate.id < '01900000-0000-7000-8001').filter((_, index) => index % 50 === 0)) {
      for (const chain of CHAINS) {
        expect(await opensToItsAddress(row, chain)).toBe(true);
      }
    }

    // Idempotent: run again, it finds only the forged wallet, and writes nothing.
    const third = spawnNodeWith([]);
    expect(await third.waitForExit()).toBe(1);
    expect(third.output).toContain('Sealed the chain keys of 0 of 1 wallet(s)');
  });
});

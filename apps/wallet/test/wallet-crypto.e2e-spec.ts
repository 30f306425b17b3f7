import { PlayerView, SignatureView, WalletView } from '@game-wallet/contracts';
import { GameFixture, TestPlatform, consoleToken, createGame, createPlayer, http, profileJwt, queryOnce } from '@game-wallet/testing';
import { verifyPersonalMessageSignature } from '@mysten/sui/verify';
import { isValidSuiAddress } from '@mysten/sui/utils';
import { Keypair, MessageV0, PublicKey, SystemProgram, Transaction, VersionedTransaction } from '@solana/web3.js';
import { base58 } from '@scure/base';
import { ethers } from 'ethers';
import { createHash } from 'node:crypto';
import nacl from 'tweetnacl';

/** Wallets made and used through the API, checked with the libraries a user's wallet app relies on. */
describe('wallet addresses and signatures, verified by ethers, @solana/web3.js, tweetnacl and @mysten/sui', () => {
  let platform: TestPlatform;
  let game: GameFixture;
  let players: PlayerView[];
  const wallets: WalletView[] = [];

  beforeAll(async () => {
    // Many signatures by one wallet in quick succession: the per-wallet signing limit has its own suite (rate-limit).
    platform = await TestPlatform.start('walletcrypto', { env: { RATE_LIMIT_SIGN_PER_WALLET_RPS: '1000' } });
    game = await createGame(platform, await consoleToken(platform));
    players = await Promise.all(['a', 'b', 'c'].map((name) => createPlayer(platform, game.key, `crypto-${name}`)));
    for (const player of players) {
      wallets.push((await http<WalletView>('GET', `${platform.baseUrl}/v1/wallet/${player.walletId}`, { apiKey: game.key })).body);
    }
  });

  afterAll(async () => {
    await platform.stop();
  });

  it('gives each wallet three different, valid addresses', () => {
    for (const wallet of wallets) {
      const { evm, sol, sui } = wallet.addresses as Record<string, string>;
      expect(ethers.getAddress(evm.toLowerCase())).toBe(evm); // EIP-55 checksum round-trip
      expect(PublicKey.isOnCurve(new PublicKey(sol).toBytes())).toBe(true);
      expect(isValidSuiAddress(sui)).toBe(true);
      expect(sui).toMatch(/^0x[0-9a-f]{64}$/);
    }
    expect(new Set(wallets.map((wallet) => wallet.addresses.evm)).size).toBe(3);
  });

  const messages: [string, string, Buffer][] = [
    ['utf8', 'Sign in to Space Miners: nonce 42 ✓', Buffer.from('Sign in to Space Miners: nonce 42 ✓')],
    ['hex', '0xdeadbeef00ff', Buffer.from('deadbeef00ff', 'hex')],
    ['base64', Buffer.from([0, 1, 2, 250, 255]).toString('base64'), Buffer.from([0, 1, 2, 250, 255])],
  ];

  const sign = (walletId: string, chain: string, message: string, encoding: string, credential: { apiKey?: string; bearer?: string } = { apiKey: game.key }) =>
    http<SignatureView & { code?: string }>('POST', `${platform.baseUrl}/v1/wallet/${walletId}/sign`, {
      ...credential,
      body: encoding === 'utf8' ? { chain, message } : { chain, message, encoding },
    });

  it.each(messages)('signs a %s message for evm that ethers.verifyMessage attributes to the wallet', async (encoding, message, bytes) => {
    const wallet = wallets[0];
    const response = await sign(wallet.id, 'evm', message, encoding);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ chain: 'evm', address: wallet.addresses.evm, signature: expect.stringMatching(/^0x[0-9a-f]{130}$/) });
    expect(['1b', '1c']).toContain(response.body.signature.slice(-2));
    expect(ethers.verifyMessage(bytes, response.body.signature)).toBe(wallet.addresses.evm);
    expect(ethers.verifyMessage(Buffer.concat([bytes, Buffer.from('!')]), response.body.signature)).not.toBe(wallet.addresses.evm);
  });

  it.each(messages)('signs a %s message for sol that tweetnacl verifies', async (encoding, message, bytes) => {
    const wallet = wallets[1];
    const response = await sign(wallet.id, 'sol', message, encoding);
    expect(response.body.address).toBe(wallet.addresses.sol);
    const signature = base58.decode(response.body.signature);
    expect(signature).toHaveLength(64);
    const publicKey = new PublicKey(String(wallet.addresses.sol)).toBytes();
    expect(nacl.sign.detached.verify(bytes, signature, publicKey)).toBe(true);
    expect(nacl.sign.detached.verify(Buffer.concat([bytes, Buffer.from('!')]), signature, publicKey)).toBe(false);
  });

  it.each(messages)('signs a %s message for sui that @mysten/sui verifyPersonalMessageSignature accepts', async (encoding, message, bytes) => {
    const wallet = wallets[2];
    const response = await sign(wallet.id, 'sui', message, encoding);
    expect(response.body.address).toBe(wallet.addresses.sui);
    const publicKey = await verifyPersonalMessageSignature(bytes, response.body.signature, { address: wallet.addresses.sui });
    expect(publicKey.toSuiAddress()).toBe(wallet.addresses.sui);
    await expect(verifyPersonalMessageSignature(Buffer.concat([bytes, Buffer.from('!')]), response.body.signature, { address: wallet.addresses.sui })).rejects.toThrow();
  });

  it("lets the wallet's own profile sign, and moves lastUsedAt to the latest signature", async () => {
    const player = players[0];
    const jwt = await profileJwt(platform, player.profileId, game.key);
    const before = (await http<WalletView>('GET', `${platform.baseUrl}/v1/wallet/${player.walletId}`, { bearer: jwt })).body;
    const response = await sign(player.walletId, 'sol', 'by the player', 'utf8', { bearer: jwt });
    expect(response.status).toBe(200);
    const after = (await http<WalletView>('GET', `${platform.baseUrl}/v1/wallet/${player.walletId}`, { bearer: jwt })).body;
    expect(Date.parse(after.lastUsedAt)).toBeGreaterThan(Date.parse(before.lastUsedAt));
    expect(after.createdAt).toBe(before.createdAt);
  });

  it('signs and records every one of many concurrent requests over several wallets, and moves each wallet to its latest use', async () => {
    const counted = async () =>
      new Map(
        (await queryOnce<{ wallet_id: string; count: string; latest: Date }>(
          platform.databaseUrl,
          'SELECT wallet_id, count(*) AS count, max(at) AS latest FROM wallet.signature_events WHERE wallet_id = ANY($1::uuid[]) GROUP BY wallet_id',
          [wallets.map((wallet) => wallet.id)],
        )).map((row) => [row.wallet_id, row]),
      );
    const before = await counted();
    const requests = Array.from({ length: 48 }, (_, index) => ({ wallet: wallets[index % 3], chain: ['evm', 'sol', 'sui'][index % 3], message: `burst ${index}` }));
    const responses = await Promise.all(requests.map(({ wallet, chain, message }) => sign(wallet.id, chain, message, 'utf8')));
    expect(responses.map((response) => response.status)).toEqual(requests.map(() => 200));
    requests.forEach(({ wallet, chain, message }, index) => {
      if (chain === 'evm') {
        expect(ethers.verifyMessage(message, responses[index].body.signature)).toBe(wallet.addresses.evm);
      }
    });
    const after = await counted();
    for (const wallet of wallets) {
      expect(Number(after.get(wallet.id)?.count) - Number(before.get(wallet.id)?.count ?? 0)).toBe(16);
      const [row] = await queryOnce<{ last_used_at: Date }>(platform.databaseUrl, 'SELECT last_used_at FROM wallet.wallets WHERE id = $1', [wallet.id]);
      expect(row.last_used_at.getTime()).toBe((after.get(wallet.id)?.latest as Date).getTime());
    }
  });

  it("refuses another profile's token (403) and a message over 4 KiB (400)", async () => {
    const jwt = await profileJwt(platform, players[1].profileId, game.key);
    const forbidden = await sign(players[0].walletId, 'evm', 'x', 'utf8', { bearer: jwt });
    expect([forbidden.status, forbidden.body.code]).toEqual([403, 'FORBIDDEN']);
    const tooLong = await sign(players[0].walletId, 'evm', 'ab'.repeat(4097), 'hex');
    expect([tooLong.status, tooLong.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    const badHex = await sign(players[0].walletId, 'evm', 'xyz', 'hex');
    expect([badHex.status, badHex.body.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('refuses to sign a Solana transaction as a message (400 MESSAGE_IS_TRANSACTION), for an API key and a profile JWT alike', async () => {
    const wallet = wallets[2];
    const from = new PublicKey(wallet.addresses.sol as string);
    const transfer = SystemProgram.transfer({ fromPubkey: from, toPubkey: Keypair.generate().publicKey, lamports: 5_000_000_000 });
    const recentBlockhash = Keypair.generate().publicKey.toBase58();
    const legacy = new Transaction({ feePayer: from, recentBlockhash }).add(transfer);
    const v0 = MessageV0.compile({ payerKey: from, recentBlockhash, instructions: [transfer] });
    const jwt = await profileJwt(platform, players[2].profileId, game.key);
    for (const bytes of [legacy.serializeMessage(), legacy.serialize({ requireAllSignatures: false }), v0.serialize(), new VersionedTransaction(v0).serialize()]) {
      for (const credential of [{ apiKey: game.key }, { bearer: jwt }]) {
        const refused = await sign(wallet.id, 'sol', Buffer.from(bytes).toString('base64'), 'base64', credential);
        expect([refused.status, refused.body.code]).toEqual([400, 'MESSAGE_IS_TRANSACTION']);
      }
      // EIP-191 and Sui's personal-message intent already keep a message from being a transaction there.
      for (const chain of ['evm', 'sui']) {
        expect((await sign(wallet.id, chain, Buffer.from(bytes).toString('base64'), 'base64')).status).toBe(200);
      }
    }
    const unknownWallet = await sign('01900000-0000-7000-8000-000000000000', 'sol', Buffer.from(v0.serialize()).toString('base64'), 'base64');
    expect([unknownWallet.status, unknownWallet.body.code]).toEqual([400, 'MESSAGE_IS_TRANSACTION']);
  });

  it("records each signature in the game's audit trail: wallet, chain, SHA-256 of the message, credential", async () => {
    const token = await consoleToken(platform);
    const audit = await http<{ items: { action: string; actor: string; target: string; details: Record<string, string> }[] }>(
      'GET',
      `${platform.baseUrl}/v1/console/games/${game.gameId}/audit?limit=100`,
      { bearer: token },
    );
    const signed = audit.body.items.filter((entry) => entry.action === 'wallet.signed');
    expect(signed.length).toBeGreaterThanOrEqual(10);
    const digest = createHash('sha256').update(messages[0][2]).digest('hex');
    const utf8 = signed.find((entry) => entry.details.messageSha256 === digest && entry.details.chain === 'evm');
    expect(utf8).toMatchObject({ actor: `api-key:${game.keyId}`, target: `wallet:${wallets[0].id}`, details: { chain: 'evm' } });
    expect(signed.some((entry) => entry.actor === `profile:${players[0].profileId}`)).toBe(true);
    expect(JSON.stringify(audit.body)).not.toContain('Sign in to Space Miners');
  });
});

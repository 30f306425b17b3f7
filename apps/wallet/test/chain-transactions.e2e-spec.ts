import { PlayerView, SolanaSignedTransactionView, SuiSignedTransactionView } from '@game-wallet/contracts';
import { GameFixture, TestPlatform, consoleToken, createGame, createPlayer, http } from '@game-wallet/testing';
import { Transaction as SuiTransaction } from '@mysten/sui/transactions';
import { verifyTransactionSignature } from '@mysten/sui/verify';
import { Keypair, PublicKey, SystemProgram, Transaction, TransactionInstruction, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { base58 } from '@scure/base';
import nacl from 'tweetnacl';

/** Solana and Sui transactions built with the chains' own libraries, signed through the API and checked by them. */
describe('Solana and Sui transaction signing, verified by @solana/web3.js and @mysten/sui', () => {
  let platform: TestPlatform;
  let game: GameFixture;
  let player: PlayerView;
  let sol: PublicKey;
  let sui: string;
  const blockhash = base58.encode(new Uint8Array(32).fill(7));

  beforeAll(async () => {
    // Many signatures by one wallet in quick succession: the per-wallet signing limit has its own suite (rate-limit).
    platform = await TestPlatform.start('chaintx', { env: { RATE_LIMIT_SIGN_PER_WALLET_RPS: '1000' } });
    game = await createGame(platform, await consoleToken(platform), 'Chains game');
    player = await createPlayer(platform, game.key, 'chain-signer');
    const wallet = await http<{ addresses: { sol: string; sui: string } }>('GET', `${platform.baseUrl}/v1/wallet/${player.walletId}`, { apiKey: game.key });
    sol = new PublicKey(wallet.body.addresses.sol);
    sui = wallet.body.addresses.sui;
  });

  afterAll(async () => {
    await platform.stop();
  });

  const sign = <T>(chain: 'sol' | 'sui', transaction: Uint8Array | string) =>
    http<T & { code?: string; message?: string }>('POST', `${platform.baseUrl}/v1/wallet/${player.walletId}/sign-transaction`, {
      apiKey: game.key,
      body: { chain, transaction: typeof transaction === 'string' ? transaction : Buffer.from(transaction).toString('base64') },
    });

  describe('Solana', () => {
    const unsigned = (transaction: Transaction) => transaction.serialize({ requireAllSignatures: false, verifySignatures: false });

    it('signs a legacy transfer: the signed transaction deserializes and its signature verifies', async () => {
      const transaction = new Transaction({ feePayer: sol, recentBlockhash: blockhash }).add(SystemProgram.transfer({ fromPubkey: sol, toPubkey: Keypair.generate().publicKey, lamports: 5000 }));
      const response = await sign<SolanaSignedTransactionView>('sol', unsigned(transaction));
      expect(response.status).toBe(200);
      const signed = Transaction.from(Buffer.from(response.body.signedTransaction, 'base64'));
      expect(signed.verifySignatures()).toBe(true);
      expect(base58.encode(signed.signature as Buffer)).toBe(response.body.signature);
      expect(response.body.address).toBe(sol.toBase58());
    });

    it('signs a v0 program call: the wallet signature verifies over the message', async () => {
      const program = Keypair.generate().publicKey;
      const message = new TransactionMessage({
        payerKey: sol,
        recentBlockhash: blockhash,
        instructions: [new TransactionInstruction({ programId: program, keys: [{ pubkey: sol, isSigner: true, isWritable: true }], data: Buffer.from('play move 42') })],
      }).compileToV0Message();
      const response = await sign<SolanaSignedTransactionView>('sol', new VersionedTransaction(message).serialize());
      expect(response.status).toBe(200);
      const signed = VersionedTransaction.deserialize(Buffer.from(response.body.signedTransaction, 'base64'));
      expect(nacl.sign.detached.verify(signed.message.serialize(), signed.signatures[0], sol.toBytes())).toBe(true);
      expect(base58.encode(signed.signatures[0])).toBe(response.body.signature);
    });

    it("keeps another signer's signature in a partly signed transaction", async () => {
      const payer = Keypair.generate();
      const transaction = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(
        SystemProgram.transfer({ fromPubkey: sol, toPubkey: payer.publicKey, lamports: 1 }),
      );
      transaction.partialSign(payer);
      const response = await sign<SolanaSignedTransactionView>('sol', unsigned(transaction));
      expect(response.status).toBe(200);
      const signed = Transaction.from(Buffer.from(response.body.signedTransaction, 'base64'));
      expect(signed.signatures.map((entry) => entry.publicKey.toBase58())).toEqual([payer.publicKey.toBase58(), sol.toBase58()]);
      expect(signed.verifySignatures()).toBe(true);
    });

    it('refuses a transaction the wallet does not sign with 400 NOT_A_SIGNER, and bytes that are no transaction', async () => {
      const stranger = Keypair.generate().publicKey;
      const foreign = new Transaction({ feePayer: stranger, recentBlockhash: blockhash }).add(SystemProgram.transfer({ fromPubkey: stranger, toPubkey: sol, lamports: 1 }));
      const notSigner = await sign('sol', unsigned(foreign));
      expect([notSigner.status, notSigner.body.code]).toEqual([400, 'NOT_A_SIGNER']);
      const random = await sign('sol', new Uint8Array(200).map((_, index) => (index * 37) % 256));
      expect([random.status, random.body.code]).toEqual([400, 'VALIDATION_FAILED']);
      expect(random.body.message).toMatch(/^transaction: not a serialized Solana transaction/);
    });
  });

  describe('Sui', () => {
    const build = (sender: string) => {
      const transaction = new SuiTransaction();
      transaction.setSender(sender);
      transaction.setGasPrice(1000);
      transaction.setGasBudget(10_000_000);
      transaction.setGasPayment([{ objectId: `0x${'22'.repeat(32)}`, version: '1', digest: '11111111111111111111111111111111' }]);
      const [coin] = transaction.splitCoins(transaction.gas, [100]);
      transaction.transferObjects([coin], `0x${'33'.repeat(32)}`);
      return transaction.build();
    };

    it('signs TransactionData that verifyTransactionSignature attributes to the wallet', async () => {
      const bytes = await build(sui);
      const response = await sign<SuiSignedTransactionView>('sui', bytes);
      expect(response.status).toBe(200);
      const publicKey = await verifyTransactionSignature(bytes, response.body.signature);
      expect(publicKey.toSuiAddress()).toBe(sui);
      expect(response.body).toEqual({ chain: 'sui', address: sui, signature: response.body.signature });
    });

    it("refuses another sender's transaction with 400 SENDER_MISMATCH, and bytes that are not TransactionData", async () => {
      const mismatch = await sign('sui', await build(`0x${'44'.repeat(32)}`));
      expect([mismatch.status, mismatch.body.code]).toEqual([400, 'SENDER_MISMATCH']);
      const garbage = await sign('sui', new Uint8Array([9, 9, 9]));
      expect([garbage.status, garbage.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    });
  });

  it('refuses a transaction that is not base64 (400), or a body beyond 64 KiB (413)', async () => {
    const notBase64 = await sign('sol', 'not base64!');
    expect([notBase64.status, notBase64.body.code, notBase64.body.message]).toEqual([400, 'VALIDATION_FAILED', 'transaction: must be base64']);
    const large = await sign('sui', Buffer.alloc(50 * 1024).toString('base64'));
    expect([large.status, large.body.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });
});

import {
  ComputeBudgetProgram,
  Keypair,
  MessageV0,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionInstruction,
  VersionedTransaction,
} from '@solana/web3.js';
import { randomBytes } from 'node:crypto';
import { isSolanaTransaction } from './sol-wire';

describe(isSolanaTransaction.name, () => {
  const payer = Keypair.generate();
  const recipient = Keypair.generate().publicKey;
  const recentBlockhash = new PublicKey(randomBytes(32)).toBase58();
  const transfer = SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient, lamports: 1_000_000 });
  const programCall = new TransactionInstruction({
    programId: Keypair.generate().publicKey,
    keys: [
      { pubkey: payer.publicKey, isSigner: true, isWritable: true },
      { pubkey: recipient, isSigner: false, isWritable: false },
    ],
    data: Buffer.from('mint item 42'),
  });

  const legacy = (...instructions: TransactionInstruction[]) => {
    const transaction = new Transaction({ feePayer: payer.publicKey, recentBlockhash }).add(...instructions);
    return transaction;
  };
  const v0 = (...instructions: TransactionInstruction[]) =>
    MessageV0.compile({ payerKey: payer.publicKey, recentBlockhash, instructions });

  const cases: [string, Uint8Array][] = [
    ['a legacy transfer message', legacy(transfer).serializeMessage()],
    ['a legacy program-call message', legacy(ComputeBudgetProgram.setComputeUnitLimit({ units: 200_000 }), programCall).serializeMessage()],
    ['a legacy transfer, unsigned wire transaction', legacy(transfer).serialize({ requireAllSignatures: false, verifySignatures: false })],
    [
      'a legacy transfer, signed wire transaction',
      (() => {
        const transaction = legacy(transfer);
        transaction.sign(payer);
        return transaction.serialize();
      })(),
    ],
    ['a v0 transfer message', v0(transfer).serialize()],
    ['a v0 program-call message', v0(programCall, transfer).serialize()],
    ['a v0 transfer, unsigned wire transaction', new VersionedTransaction(v0(transfer)).serialize()],
    [
      'a v0 program call, signed wire transaction',
      (() => {
        const transaction = new VersionedTransaction(v0(programCall));
        transaction.sign([payer]);
        return transaction.serialize();
      })(),
    ],
  ];

  it.each(cases)('recognises %s built by @solana/web3.js', (_, bytes) => {
    expect(isSolanaTransaction(bytes)).toBe(true);
  });

  it('does not take a truncated or extended transaction for one (every byte must be used)', () => {
    const bytes = legacy(transfer).serializeMessage();
    expect(isSolanaTransaction(bytes.subarray(0, bytes.length - 1))).toBe(false);
    expect(isSolanaTransaction(Buffer.concat([bytes, Buffer.from([0])]))).toBe(false);
  });

  it.each([
    ['sign-in text', 'Sign in to Space Miners: nonce 42'],
    ['an empty message', ''],
    ['a SIWS-style message', 'example.com wants you to sign in with your Solana account:\nHb1…\n\nNonce: 32891756'],
  ])('lets %s through', (_, text) => {
    expect(isSolanaTransaction(Buffer.from(text))).toBe(false);
  });

  it('lets random binary messages through (10 000 of 1–4096 bytes)', () => {
    let refused = 0;
    for (let index = 0; index < 10_000; index += 1) {
      if (isSolanaTransaction(randomBytes(1 + (index % 4096)))) {
        refused += 1;
      }
    }
    expect(refused).toBe(0);
  });
});

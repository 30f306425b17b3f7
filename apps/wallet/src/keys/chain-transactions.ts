import { AppError } from '@game-wallet/contracts';
import { blake2b } from '@noble/hashes/blake2b';
import { bcs } from '@mysten/sui/bcs';
import { SolanaWireTransaction, parseSolanaWireTransaction } from './solana-transaction';

/**
 * Solana and Sui transactions as the wallet signs them. Solana: Ed25519 over the message bytes, the signature put in
 * the wallet's slot of the wire transaction. Sui: Ed25519 over BLAKE2b-256 of the transaction intent
 * ([0, 0, 0] ‖ TransactionData BCS), read with @mysten/sui's BCS schema.
 */

/** A Solana wire transaction (legacy or v0) whose signature slots match its signers; else 400 naming the field. */
export function solanaTransactionToSign(bytes: Uint8Array): SolanaWireTransaction {
  const parsed = parseSolanaWireTransaction(bytes);
  if (parsed === null) {
    throw new AppError('VALIDATION_FAILED', 'transaction: not a serialized Solana transaction (legacy or v0, wire format with its signature slots)');
  }
  if (parsed.signatureCount !== parsed.message.requiredSignatures) {
    throw new AppError('VALIDATION_FAILED', `transaction: ${parsed.signatureCount} signature slots for ${parsed.message.requiredSignatures} required signers`);
  }
  return parsed;
}

/** Which signature slot is the wallet's: its key among the required signers, else 400 `NOT_A_SIGNER`. */
export function solanaSignerSlot(transaction: SolanaWireTransaction, publicKey: Uint8Array): number {
  const slot = transaction.message.accountKeys
    .slice(0, transaction.message.requiredSignatures)
    .findIndex((key) => key.length === publicKey.length && key.every((byte, index) => byte === publicKey[index]));
  if (slot < 0) {
    throw new AppError('NOT_A_SIGNER', "The wallet's Solana address is not one of this transaction's required signers");
  }
  return slot;
}

/** A copy of the wire transaction with `signature` in `slot`; the other signatures stay as they were. */
export function withSolanaSignature(bytes: Uint8Array, transaction: SolanaWireTransaction, slot: number, signature: Uint8Array): Uint8Array {
  const signed = Uint8Array.from(bytes);
  signed.set(signature, transaction.signaturesOffset + slot * 64);
  return signed;
}

/** Sui TransactionData (BCS, version 1), read with @mysten/sui's schema; 400 when the bytes are not that. */
export function suiTransactionData(bytes: Uint8Array): SuiTransactionData & { V1: NonNullable<SuiTransactionData['V1']> } {
  let data: SuiTransactionData;
  try {
    data = bcs.TransactionData.parse(bytes);
  } catch (error) {
    throw new AppError('VALIDATION_FAILED', `transaction: not Sui TransactionData in BCS (${error instanceof Error ? error.message.split('\n')[0].slice(0, 200) : 'unreadable'})`);
  }
  if (!data.V1) {
    throw new AppError('VALIDATION_FAILED', 'transaction: not Sui TransactionData in BCS (unknown TransactionData version)');
  }
  return data as SuiTransactionData & { V1: NonNullable<SuiTransactionData['V1']> };
}

type SuiTransactionData = ReturnType<typeof bcs.TransactionData.parse>;

/** What a Sui transaction signature signs: BLAKE2b-256 of the intent ([0, 0, 0]: transaction data, v0, Sui) and the bytes. */
export function suiTransactionDigest(bytes: Uint8Array): Uint8Array {
  return blake2b(Uint8Array.of(0, 0, 0, ...bytes), { dkLen: 32 });
}

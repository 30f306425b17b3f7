// Unsigned transactions for POST /v1/wallet/{id}/sign-transaction, one per chain, for a wallet's address (the fee
// payer or sender must be the wallet): an ERC-20 transfer (evm), a SOL transfer (sol), a SUI split and transfer (sui).
import { createRequire } from 'node:module';
import { Transaction as SuiTransaction } from '@mysten/sui/transactions';
import { shopTransfer } from '../policy/rules.mjs';

const require = createRequire(import.meta.url);
const { Keypair, PublicKey, SystemProgram, Transaction } = require('@solana/web3.js');

/** The request body of sign-transaction on `chain` for a wallet whose address on that chain is `address`. */
export async function transactionBody(chain, address) {
  switch (chain) {
    case 'evm':
      return { chain, transaction: shopTransfer() };
    case 'sol': {
      const payer = new PublicKey(address);
      const transaction = new Transaction({ feePayer: payer, recentBlockhash: Keypair.generate().publicKey.toBase58() }).add(SystemProgram.transfer({ fromPubkey: payer, toPubkey: Keypair.generate().publicKey, lamports: 5000 }));
      return { chain, transaction: transaction.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64') };
    }
    case 'sui': {
      const transaction = new SuiTransaction();
      transaction.setSender(address);
      transaction.setGasPrice(1000);
      transaction.setGasBudget(10_000_000);
      transaction.setGasPayment([{ objectId: `0x${'22'.repeat(32)}`, version: '1', digest: '11111111111111111111111111111111' }]);
      const [coin] = transaction.splitCoins(transaction.gas, [100]);
      transaction.transferObjects([coin], `0x${'33'.repeat(32)}`);
      return { chain, transaction: Buffer.from(await transaction.build()).toString('base64') };
    }
    default:
      throw new Error(`no transaction for chain ${chain}`);
  }
}

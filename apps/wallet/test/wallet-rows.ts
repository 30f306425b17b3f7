import { queryOnce } from '@game-wallet/testing';
import { SealedSecret, WalletOwner } from '../src/keys/envelope';

/** A row of wallet.wallets as the database holds it (the custody suites read the stored secrets). */
export interface WalletRow {
  id: string;
  application_id: string;
  profile_id: string;
  aad_version: number;
  entropy_ciphertext: Buffer;
  entropy_iv: Buffer;
  entropy_tag: Buffer;
  data_key_ciphertext: Buffer;
  data_key_iv: Buffer;
  data_key_tag: Buffer;
  master_key_id: string;
  /** the chain keys sealed under the data key (keys/chain-key-envelope.ts); null until made or backfilled */
  sealed_evm_key: Buffer | null;
  sealed_sol_key: Buffer | null;
  sealed_sui_key: Buffer | null;
}

export const walletRowsOf = (databaseUrl: string) => queryOnce<WalletRow & Record<string, unknown>>(databaseUrl, 'SELECT * FROM wallet.wallets ORDER BY id');

export const sealedOf = (row: WalletRow): SealedSecret => ({
  entropyCiphertext: row.entropy_ciphertext,
  entropyIv: row.entropy_iv,
  entropyTag: row.entropy_tag,
  dataKeyCiphertext: row.data_key_ciphertext,
  dataKeyIv: row.data_key_iv,
  dataKeyTag: row.data_key_tag,
  masterKeyId: row.master_key_id,
  aadVersion: row.aad_version,
});

export const ownerOf = (row: WalletRow): WalletOwner => ({ id: row.id, applicationId: row.application_id, profileId: row.profile_id });

import { SingleBar } from 'cli-progress';
import { DataSource } from 'typeorm';
import { CURRENT_AAD_VERSION, ChainKeyMismatchError, SealedSecret, sealChainKeysOf } from '../keys/envelope';
import { MasterKeyring } from '../keys/master-keyring';

/**
 * `npm run rewrap -- --chain-keys`: seals the chain keys of every wallet made before sealed chain keys (see
 * keys/chain-key-envelope.ts), so that they sign without re-deriving their keys. For each wallet, its entropy is opened,
 * its three keys derived, sealed under its data key, opened again and matched to the wallet's stored addresses: a key
 * that does not match is never written (the wallet is left as it was, named, and the command ends with 1).
 *
 * Safe beside live replicas and after any interruption (SIGKILL included): wallets are read in id order without
 * locks, and each batch is written by one statement that fills only rows still without sealed keys and whose entropy
 * and addresses are still those the keys were derived from, so a batch is written whole or not at all, a second
 * backfill running at the same time writes nothing twice, and a run after an interruption picks up what is left.
 * Until a wallet has its sealed keys, it signs from its entropy, as before.
 */
interface PendingRow extends SealedSecret {
  id: string;
  applicationId: string;
  profileId: string;
  addressEvm: string;
  addressSol: string;
  addressSui: string;
}

const PENDING = `
  SELECT id, application_id AS "applicationId", profile_id AS "profileId", address_evm AS "addressEvm", address_sol AS "addressSol",
         address_sui AS "addressSui", entropy_ciphertext AS "entropyCiphertext", entropy_iv AS "entropyIv", entropy_tag AS "entropyTag",
         data_key_ciphertext AS "dataKeyCiphertext", data_key_iv AS "dataKeyIv", data_key_tag AS "dataKeyTag", master_key_id AS "masterKeyId",
         aad_version AS "aadVersion"
  FROM wallet.wallets WHERE sealed_evm_key IS NULL AND aad_version >= ${CURRENT_AAD_VERSION} AND id > $1 ORDER BY id LIMIT $2`;

const WRITE = `
  UPDATE wallet.wallets AS w SET sealed_evm_key = v.evm, sealed_sol_key = v.sol, sealed_sui_key = v.sui
  FROM unnest($1::uuid[], $2::bytea[], $3::varchar[], $4::varchar[], $5::varchar[], $6::bytea[], $7::bytea[], $8::bytea[])
       AS v(id, entropy_ciphertext, address_evm, address_sol, address_sui, evm, sol, sui)
  WHERE w.id = v.id AND w.sealed_evm_key IS NULL AND w.entropy_ciphertext = v.entropy_ciphertext
    AND w.address_evm = v.address_evm AND w.address_sol = v.address_sol AND w.address_sui = v.address_sui
  RETURNING w.id`;

export interface BackfillResult {
  total: number;
  sealed: number;
  failed: number;
  olderSecrets: number;
  seconds: number;
}

export async function backfillChainKeys(dataSource: DataSource, keyring: MasterKeyring, batch: number): Promise<BackfillResult> {
  const started = Date.now();
  const [{ total, older }] = (await dataSource.query(
    `SELECT count(*) FILTER (WHERE aad_version >= $1)::int AS total, count(*) FILTER (WHERE aad_version < $1)::int AS older
     FROM wallet.wallets WHERE sealed_evm_key IS NULL`,
    [CURRENT_AAD_VERSION],
  )) as { total: number; older: number }[];
  const bar = new SingleBar({
    format: 'chain keys [{bar}] {percentage}% | {value}/{total} wallets | {failed} left as they were | {eta_formatted} left',
    noTTYOutput: true,
    notTTYSchedule: 5_000,
    stream: process.stderr,
  });
  bar.start(total, 0, { failed: 0 });
  let after = '00000000-0000-0000-0000-000000000000';
  let done = 0;
  let sealedCount = 0;
  let failed = 0;
  const problems: string[] = [];
  for (;;) {
    const rows = (await dataSource.query(PENDING, [after, batch])) as PendingRow[];
    if (rows.length === 0) {
      break;
    }
    after = rows[rows.length - 1].id;
    const ready: { row: PendingRow; evm: Buffer; sol: Buffer; sui: Buffer }[] = [];
    for (const row of rows) {
      try {
        const sealed = await sealChainKeysOf(row, row, keyring, { evm: row.addressEvm, sol: row.addressSol, sui: row.addressSui });
        ready.push({ row, ...sealed });
      } catch (error) {
        failed += 1;
        const why = error instanceof ChainKeyMismatchError ? error.message : `its secret could not be opened: ${error instanceof Error ? error.message : String(error)}`;
        problems.push(`rewrap --chain-keys: wallet ${row.id} left as it was: ${why}\n`);
      }
    }
    if (ready.length > 0) {
      const column = <T>(pick: (item: (typeof ready)[number]) => T): T[] => ready.map(pick);
      const written = (await dataSource.query(WRITE, [
        column((item) => item.row.id),
        column((item) => item.row.entropyCiphertext),
        column((item) => item.row.addressEvm),
        column((item) => item.row.addressSol),
        column((item) => item.row.addressSui),
        column((item) => item.evm),
        column((item) => item.sol),
        column((item) => item.sui),
      ])) as [unknown[], number];
      sealedCount += written[1];
    }
    done += rows.length;
    bar.update(done, { failed });
  }
  bar.stop();
  problems.forEach((line) => process.stderr.write(line));
  return { total, sealed: sealedCount, failed, olderSecrets: older, seconds: (Date.now() - started) / 1000 };
}

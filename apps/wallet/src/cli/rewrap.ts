/**
 * Re-wraps every wallet's data key under the current master key (`WALLET_MASTER_KEY_ID`): from one environment key to
 * another, from the environment into an HSM (`WALLET_MASTER_KEY_PROVIDER=pkcs11` with the old `WALLET_MASTER_KEYS`
 * still set), or from one HSM key to another. It also binds older wallets' secrets to their owner (associated data
 * version 2, see keys/envelope.ts). Each wallet is updated on its own and only if it is still as it was read, so the
 * command can run beside live replicas and be run again after an interruption: it picks up what is left. Addresses and
 * signatures do not change (the entropy stays the same). Run with the wallet service's environment:
 *
 *   npm run rewrap        (or, in the wallet image: node cli/rewrap.js)
 *
 * The sealed chain keys (keys/chain-key-envelope.ts) are sealed under the wallet's data key, which a rewrap keeps (it
 * re-wraps the data key, and re-seals only a version-1 entropy under the same data key): they need nothing here.
 *
 * With `--chain-keys` (and optionally `--batch=<n>`, default 200), it seals instead the chain keys of the wallets made
 * before sealed chain keys (see chain-keys-backfill.ts):
 *
 *   npm run rewrap -- --chain-keys      (or: node cli/rewrap.js --chain-keys)
 */
import 'reflect-metadata';
import { runMain } from '@game-wallet/http';
import { SingleBar } from 'cli-progress';
import { DataSource } from 'typeorm';
import { loadWalletConfig } from '../config';
import { walletDataSourceOptions } from '../database/data-source-options';
import { CURRENT_AAD_VERSION, rewrapEntropy } from '../keys/envelope';
import { resolveMasterKeyring } from '../keys/master-keys';
import { retireVersion1IfUnused } from '../keys/owner-binding';
import { WalletEntity } from '../wallets/entities/wallet.entity';
import { backfillChainKeys } from './chain-keys-backfill';

const BATCH = 500;

runMain('rewrap', async () => {
  const config = loadWalletConfig(process.env);
  // Rewrap is the way off an older HSM key that fails the checks (the service refuses it): it may open such a key.
  const keyring = await resolveMasterKeyring(config, { useWeakOlderKeys: true });
  const dataSource = await new DataSource(walletDataSourceOptions(config.databaseUrl)).initialize();
  if (process.argv.includes('--chain-keys')) {
    const batchArgument = process.argv.find((argument) => argument.startsWith('--batch='));
    const batch = batchArgument === undefined ? 200 : Number(batchArgument.slice('--batch='.length));
    if (!Number.isInteger(batch) || batch < 1 || batch > 5_000) {
      throw new Error('--batch must be a whole number from 1 to 5000');
    }
    const result = await backfillChainKeys(dataSource, keyring, batch);
    await dataSource.destroy();
    await keyring.close();
    const rate = result.seconds > 0 ? Math.round(result.sealed / result.seconds) : result.sealed;
    process.stdout.write(
      `Sealed the chain keys of ${result.sealed} of ${result.total} wallet(s) in ${result.seconds.toFixed(1)} s (${rate} wallets/s); ${result.failed} could not be opened or did not match their addresses and were left as they were.\n`,
    );
    if (result.olderSecrets > 0) {
      process.stdout.write(`${result.olderSecrets} wallet(s) hold secrets bound to the wallet id only (version 1): run \`npm run rewrap\` first, then this again.\n`);
    }
    process.exit(result.failed > 0 ? 1 : 0);
  }
  const wallets = dataSource.getRepository(WalletEntity);
  const target = keyring.currentId;
  const pendingQuery = () =>
    wallets.createQueryBuilder('w').where('(w.master_key_id <> :target OR w.aad_version < :version)', { target, version: CURRENT_AAD_VERSION });
  const total = await pendingQuery().getCount();
  const bar = new SingleBar({
    format: `rewrap to "${target}" [{bar}] {percentage}% | {value}/{total} wallets | {failed} left as they were | {eta_formatted} left`,
    noTTYOutput: true,
    notTTYSchedule: 5_000,
    stream: process.stderr,
  });
  bar.start(total, 0, { failed: 0 });
  let moved = 0;
  let failed = 0;
  const skipped = new Set<string>();
  const problems: string[] = [];
  for (;;) {
    const pending = await pendingQuery()
      .andWhere(skipped.size > 0 ? 'w.id NOT IN (:...skipped)' : 'TRUE', { skipped: [...skipped] })
      .orderBy('w.id')
      .take(BATCH)
      .getMany();
    if (pending.length === 0) {
      break;
    }
    for (const wallet of pending) {
      try {
        const rewrapped = await rewrapEntropy(wallet, wallet, keyring, target);
        await wallets.update(
          { id: wallet.id, masterKeyId: wallet.masterKeyId, aadVersion: wallet.aadVersion },
          {
            entropyCiphertext: rewrapped.entropyCiphertext,
            entropyIv: rewrapped.entropyIv,
            entropyTag: rewrapped.entropyTag,
            dataKeyCiphertext: rewrapped.dataKeyCiphertext,
            dataKeyIv: rewrapped.dataKeyIv,
            dataKeyTag: rewrapped.dataKeyTag,
            masterKeyId: rewrapped.masterKeyId,
            aadVersion: rewrapped.aadVersion,
          },
        );
        moved += 1;
      } catch (error) {
        failed += 1;
        skipped.add(wallet.id);
        problems.push(`rewrap: wallet ${wallet.id} left as it was: ${error instanceof Error ? error.message : String(error)}\n`);
      }
      bar.update(moved + failed, { failed });
    }
  }
  bar.stop();
  problems.forEach((line) => process.stderr.write(line));
  const retired = await retireVersion1IfUnused((sql, parameters) => dataSource.query(sql, parameters));
  await dataSource.destroy();
  await keyring.close();
  process.stdout.write(`Rewrapped ${moved} of ${total} wallet(s) under master key "${target}", bound to their owners; ${failed} could not be opened and were left as they were.\n`);
  process.stdout.write(
    retired
      ? 'Every wallet is bound to its owner: secrets bound to the wallet id only (version 1) are refused from now on.\n'
      : 'Some wallets still hold secrets bound to the wallet id only (version 1); run rewrap again once they open.\n',
  );
  process.exit(failed > 0 ? 1 : 0);
});

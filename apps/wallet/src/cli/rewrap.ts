/**
 * Re-wraps every wallet's data key under the current master key (`WALLET_MASTER_KEY_ID`), so an older master key can
 * then be removed from `WALLET_MASTER_KEYS`, and binds older wallets' secrets to their owner (associated data version
 * 2, see keys/envelope.ts). Each wallet is updated on its own and only if it is still as it was read, so the command
 * can run beside live replicas and be run again after an interruption. Run with the wallet service's environment:
 *
 *   node dist/apps/wallet/src/cli/rewrap.js
 */
import 'reflect-metadata';
import { runMain } from '@game-wallet/http';
import { DataSource } from 'typeorm';
import { loadWalletConfig } from '../config';
import { walletDataSourceOptions } from '../database/data-source-options';
import { CURRENT_AAD_VERSION, rewrapEntropy } from '../keys/envelope';
import { resolveMasterKeys } from '../keys/master-keys';
import { WalletEntity } from '../wallets/entities/wallet.entity';

runMain('rewrap', async () => {
  const config = loadWalletConfig(process.env);
  const masterKeys = resolveMasterKeys(config);
  const dataSource = await new DataSource(walletDataSourceOptions(config.databaseUrl)).initialize();
  const wallets = dataSource.getRepository(WalletEntity);
  let moved = 0;
  let failed = 0;
  const skipped = new Set<string>();
  for (;;) {
    const pending = await wallets
      .createQueryBuilder('w')
      .where('(w.master_key_id <> :current OR w.aad_version < :version)', { current: masterKeys.currentId, version: CURRENT_AAD_VERSION })
      .andWhere(skipped.size > 0 ? 'w.id NOT IN (:...skipped)' : 'TRUE', { skipped: [...skipped] })
      .orderBy('w.id')
      .take(500)
      .getMany();
    if (pending.length === 0) {
      break;
    }
    for (const wallet of pending) {
      try {
        const rewrapped = rewrapEntropy(wallet, wallet, masterKeys.keys, masterKeys.currentId);
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
        process.stderr.write(`rewrap: wallet ${wallet.id} left as it is: ${error instanceof Error ? error.message : String(error)}\n`);
      }
    }
  }
  await dataSource.destroy();
  process.stdout.write(`Rewrapped ${moved} wallet(s) under master key "${masterKeys.currentId}", bound to their owners; ${failed} could not be opened.\n`);
  process.exit(failed > 0 ? 1 : 0);
});

import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Piscina from 'piscina';
import { WalletConfig } from '../config';
import { WALLET_CONFIG } from '../wallet-config.token';
import { GeneratedWallet } from './generate-wallet.worker';

/** The worker's compiled file: beside this one when compiled file by file, under keys/ beside the app's bundle. */
const WORKER_FILE = [join(__dirname, 'generate-wallet.worker.js'), join(__dirname, 'keys', 'generate-wallet.worker.js')].find((file) =>
  existsSync(file),
) ?? join(__dirname, 'generate-wallet.worker.js');

/**
 * A pool of worker threads that generate wallet keys (piscina): one per CPU the container may use (`WALLET_KEYGEN_THREADS`
 * overrides it). A worker's work is small and short-lived (32 bytes in, three addresses out), so its heap is capped
 * low: each thread is a V8 heap of its own, and uncapped they grow lazily to tens of MB each before collecting.
 */
@Injectable()
export class KeyGenerator implements OnModuleDestroy {
  private readonly pool: Piscina;

  constructor(@Inject(WALLET_CONFIG) config: WalletConfig) {
    this.pool = new Piscina({
      filename: WORKER_FILE,
      minThreads: 1,
      maxThreads: config.keygenThreads,
      idleTimeout: 60_000,
      resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 4 },
    });
  }

  generate(): Promise<GeneratedWallet> {
    return this.pool.run(undefined) as Promise<GeneratedWallet>;
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool.destroy();
  }
}

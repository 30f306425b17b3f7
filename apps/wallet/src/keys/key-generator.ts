import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import Piscina from 'piscina';
import { GeneratedWallet } from './generate-wallet.worker';

/** A pool of worker threads (one per core) that generate wallet keys (piscina). */
@Injectable()
export class KeyGenerator implements OnModuleDestroy {
  private readonly pool = new Piscina({
    filename: join(__dirname, 'generate-wallet.worker.js'),
    maxThreads: Math.max(1, availableParallelism()),
    idleTimeout: 60_000,
  });

  generate(): Promise<GeneratedWallet> {
    return this.pool.run(undefined) as Promise<GeneratedWallet>;
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool.destroy();
  }
}

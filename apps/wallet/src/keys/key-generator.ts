import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Piscina from 'piscina';
import { WalletConfig } from '../config';
import { WALLET_CONFIG } from '../wallet-config.token';
import { Chain } from './derivation';
import { ChainKeyTask, GeneratedWallet } from './keys.worker';
import { ThreadShares } from './thread-shares';

/** The worker's compiled file: beside this one when compiled file by file, under keys/ beside the app's bundle. */
const WORKER_FILE = [join(__dirname, 'keys.worker.js'), join(__dirname, 'keys', 'keys.worker.js')].find((file) => existsSync(file)) ??
  join(__dirname, 'keys.worker.js');

/**
 * Most wallets one worker task makes while every thread is busy (see ThreadShares): enough that the steps after key
 * generation (the wallets' insert and replies, the players' update) run for many players at once, few enough that
 * the first of them waits only some tens of milliseconds more.
 */
const MAX_WALLETS_PER_TASK = 16;

/**
 * A pool of worker threads for the wallet's key work (piscina): generating a wallet's keys, and deriving a chain's key
 * to sign with. One thread per CPU the container may use (`WALLET_KEYGEN_THREADS` overrides it). A task is small and
 * short-lived (32 bytes in, three addresses or one key out), so each thread's heap is capped low: each thread is a V8
 * heap of its own, and uncapped they grow lazily to tens of MB each before collecting.
 */
@Injectable()
export class KeyGenerator implements OnModuleDestroy {
  private readonly pool: Piscina;
  private readonly wallets: ThreadShares<GeneratedWallet>;

  constructor(@Inject(WALLET_CONFIG) config: WalletConfig) {
    this.pool = new Piscina({
      filename: WORKER_FILE,
      minThreads: 1,
      maxThreads: config.keygenThreads,
      idleTimeout: 60_000,
      resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 4 },
    });
    this.wallets = new ThreadShares((count) => this.pool.run(count, { name: 'generateWallets' }) as Promise<GeneratedWallet[]>, {
      threads: config.keygenThreads,
      maxPerTask: MAX_WALLETS_PER_TASK,
    });
  }

  /** A new wallet: fresh entropy (moved here from the worker; the caller zeroes it once sealed) and its addresses. */
  generate(): Promise<GeneratedWallet> {
    return this.wallets.next();
  }

  /**
   * The private key of `chain` for a wallet's entropy, derived on a worker (BIP-39 seed and BIP-32/SLIP-10 path: about
   * two milliseconds of CPU that would otherwise hold the event loop). `entropy` is zeroed here; a copy of it moves to
   * the worker, which zeroes it; the key moves back, and the caller zeroes it once used.
   */
  deriveChainKey(entropy: Uint8Array, chain: Chain): Promise<Uint8Array> {
    const task: ChainKeyTask = { entropy: new Uint8Array(entropy), chain };
    entropy.fill(0);
    return this.pool.run(task, { name: 'deriveChainKey', transferList: [task.entropy.buffer as ArrayBuffer] }) as Promise<Uint8Array>;
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool.destroy();
  }
}

import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Piscina from 'piscina';
import { WalletConfig } from '../config';
import { WALLET_CONFIG } from '../wallet-config.token';
import { Chain } from './derivation';
import { ChainKeyOwner } from './chain-key-envelope';
import { ChainKeyTask, GeneratedWallet, SignTask } from './keys.worker';
import { ThreadShares } from './thread-shares';

/** The worker's compiled file: beside this one when compiled file by file, under keys/ beside the app's bundle. */
const WORKER_FILE = [join(__dirname, 'keys.worker.js'), join(__dirname, 'keys', 'keys.worker.js')].find((file) => existsSync(file)) ??
  join(__dirname, 'keys.worker.js');

/**
 * Most wallets made, or chain keys derived, in one worker task while every thread is busy (see ThreadShares): enough
 * that the steps after it (the wallets' insert and replies and the players' update; the signatures' records and
 * replies) run for many callers at once, few enough that the first of them waits only some tens of milliseconds more.
 */
const MAX_PER_TASK = 16;

/**
 * A pool of worker threads for the wallet's key work (piscina): generating a wallet's keys, and deriving a chain's key
 * to sign with. One thread per CPU the container may use (`WALLET_KEYGEN_THREADS` overrides it). A task is small and
 * short-lived (32 bytes in, three addresses or one key out), so each thread's heap is capped low: each thread is a V8
 * heap of its own, and uncapped they grow lazily to tens of MB each before collecting.
 */
@Injectable()
export class KeyGenerator implements OnModuleDestroy {
  private readonly pool: Piscina;
  private readonly wallets: ThreadShares<ChainKeyOwner, GeneratedWallet>;
  private readonly chainKeys: ThreadShares<ChainKeyTask, Uint8Array>;
  private readonly signatures: ThreadShares<SignTask, Uint8Array>;

  constructor(@Inject(WALLET_CONFIG) config: WalletConfig) {
    this.pool = new Piscina({
      filename: WORKER_FILE,
      minThreads: 1,
      maxThreads: config.keygenThreads,
      idleTimeout: 60_000,
      resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 4 },
    });
    // Wallets and chain keys have shares of their own over the one pool: when both are busy, piscina queues their
    // tasks in turn, so a signature waits for at most one share of new wallets rather than for every one of them.
    const shares = { threads: config.keygenThreads, maxPerTask: MAX_PER_TASK };
    this.wallets = new ThreadShares((owners) => this.pool.run(owners, { name: 'generateWallets' }) as Promise<GeneratedWallet[]>, shares);
    this.chainKeys = new ThreadShares(
      (tasks) =>
        this.pool.run(tasks, { name: 'deriveChainKeys', transferList: tasks.map((task) => task.entropy.buffer as ArrayBuffer) }) as Promise<Uint8Array[]>,
      shares,
    );
    this.signatures = new ThreadShares(
      (tasks) => this.pool.run(tasks, { name: 'signWithKeys', transferList: tasks.map((task) => task.key.buffer as ArrayBuffer) }) as Promise<Uint8Array[]>,
      shares,
    );
  }

  /**
   * A new wallet for `owner` (its id chosen already: the chain keys' associated data names it): fresh entropy and data
   * key (moved here from the worker; the caller zeroes both once the entropy is sealed and the data key wrapped), its
   * addresses, and its chain keys sealed under the data key and checked against the addresses.
   */
  generate(owner: ChainKeyOwner): Promise<GeneratedWallet> {
    return this.wallets.run({ id: owner.id, applicationId: owner.applicationId, profileId: owner.profileId });
  }

  /**
   * `chain`'s signature of `payload` on a worker (for a chain whose signing is placed there). The key moves to the
   * worker in a buffer of its own and is zeroed there; the one given is zeroed here at once.
   */
  signOnWorker(key: Uint8Array, chain: Chain, payload: Uint8Array): Promise<Uint8Array> {
    const task: SignTask = { key: new Uint8Array(key), chain, payload: new Uint8Array(payload) };
    key.fill(0);
    return this.signatures.run(task);
  }

  /**
   * The private key of `chain` for a wallet's entropy, derived on a worker (BIP-39 seed and BIP-32/SLIP-10 path: about
   * two milliseconds of CPU that would otherwise hold the event loop). `entropy` is zeroed here; a copy of it moves to
   * the worker, which zeroes it; the key moves back, and the caller zeroes it once used.
   */
  deriveChainKey(entropy: Uint8Array, chain: Chain): Promise<Uint8Array> {
    const task: ChainKeyTask = { entropy: new Uint8Array(entropy), chain };
    entropy.fill(0);
    return this.chainKeys.run(task);
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool.destroy();
  }
}

// Signing alone: a wallet's sealed chain key opened and a payload signed through the wallet's own code (ChainKeys from
// dist/out-tsc: the data key unwrapped by an environment keyring, the one chain key opened and checked, the primitive
// run where the placement says, every key zeroed), in this process, without HTTP or the transport, 64 at a time as
// the HTTP scenarios' connections. The floor of every signing route; used by bench/run.mjs (`signing`, `placement`).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setImmediate } from 'node:timers';
import { cpuSnapshot } from '../lib/cpu-share.mjs';

const require = createRequire(import.meta.url);
export const SIGNING_LABEL = 'signing (bench process)';

/** What each chain's primitive signs: a 32-byte digest (evm, sui), a message of a transaction's size (sol). */
const PAYLOADS = { evm: createHash('sha256').update('bench').digest(), sol: randomBytes(200), sui: createHash('sha256').update('bench sui').digest() };

/**
 * A wallet made as the wallet service makes one (keys generated and sealed on the worker pool, entropy sealed under a
 * data key the keyring wraps), and the wallet's ChainKeys for any placement. `fromEntropy` is the same wallet without
 * its sealed chain keys (the path of a wallet the backfill has not reached).
 */
export async function signingBench(root) {
  const out = (path) => require(join(root, 'dist/out-tsc/apps/wallet/src', path));
  const { KeyGenerator } = out('keys/key-generator');
  const { cpuBudget } = out('keys/cpu-budget');
  const { EnvironmentKeyring } = out('keys/master-keyring');
  const { sealEntropy } = out('keys/envelope');
  const { ChainKeys } = out('signatures/chain-keys');
  const { SIGNING_PLACEMENT } = out('signatures/signing-placement');
  const generator = new KeyGenerator({ keygenThreads: cpuBudget() });
  const keyring = new EnvironmentKeyring(new Map([['bench', randomBytes(32)]]), 'bench');
  const owner = { id: randomUUID(), applicationId: randomUUID(), profileId: randomUUID() };
  const made = await generator.generate(owner);
  const sealed = await sealEntropy(owner, made.entropy, keyring, made.dataKey);
  made.entropy.fill(0);
  const wallet = {
    ...owner,
    ...sealed,
    addressEvm: made.addresses.evm,
    addressSol: made.addresses.sol,
    addressSui: made.addresses.sui,
    sealedEvmKey: made.sealedChainKeys.evm,
    sealedSolKey: made.sealedChainKeys.sol,
    sealedSuiKey: made.sealedChainKeys.sui,
  };
  const fromEntropy = { ...wallet, sealedEvmKey: null, sealedSolKey: null, sealedSuiKey: null };
  const ownerBinding = { acceptsVersion1: false };
  const keysWith = (placement) => new ChainKeys(generator, keyring, ownerBinding, placement);
  const everywhere = (placement) => ({ evm: placement, sol: placement, sui: placement });
  const chainKeys = { chosen: keysWith(SIGNING_PLACEMENT), 'event-loop': keysWith(everywhere('event-loop')), worker: keysWith(everywhere('worker')) };

  return {
    placement: SIGNING_PLACEMENT,
    /**
     * `chain`'s signatures for `seconds`, `concurrency` at a time, after a warm-up: with the chosen placement or
     * `placement`, from the sealed chain key or (`entropy`) from the entropy. Signatures per second, CPU per signature
     * by process (this process's is the signing's), and the event loop's delay meanwhile (p50, p99, max, ms): what a
     * read waits for on a loop that signs.
     */
    async run(chain, { placement = 'chosen', entropy = false, seconds = 3, warmup = 1, concurrency = 64 } = {}) {
      const keys = chainKeys[placement];
      const target = entropy ? fromEntropy : wallet;
      const loop = async (until) => {
        let count = 0;
        await Promise.all(
          Array.from({ length: concurrency }, async () => {
            while (performance.now() < until) {
              await keys.sign(keys.open(target, chain), chain, PAYLOADS[chain]);
              count += 1;
              // The next request of this "connection" comes as I/O does, after the loop's turn: without this, 64
              // chains of promises would run as microtasks and hold every timer and socket until the run ends.
              await new Promise(setImmediate);
            }
          }),
        );
        return count;
      };
      await loop(performance.now() + warmup * 1000);
      const delay = monitorEventLoopDelay({ resolution: 1 });
      const cpu = cpuSnapshot();
      const started = performance.now();
      delay.enable();
      const signed = await loop(started + seconds * 1000);
      delay.disable();
      const elapsed = (performance.now() - started) / 1000;
      const cpuMicrosPerRequest = Object.fromEntries(Object.entries(cpu.perRequest(signed)).map(([label, micros]) => [label.startsWith('load generator') ? SIGNING_LABEL : label, micros]));
      const ms = (ns) => Math.round(ns / 1e4) / 100;
      const where = placement === 'chosen' ? SIGNING_PLACEMENT[chain] : placement;
      const row = {
        name: `${chain} signing alone, ${entropy ? 'from entropy' : 'sealed chain key'}, ${where}`,
        rps: Math.round(signed / elapsed),
        p50: 0,
        p99: 0,
        errors: 0,
        non2xx: 0,
        loopDelayMs: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) },
        cpuMicrosPerRequest,
      };
      console.log(`${row.name}: ${row.rps}/s, loop delay p99 ${row.loopDelayMs.p99} ms, ${row.cpuMicrosPerRequest[SIGNING_LABEL] ?? 0} µs CPU per signature here`);
      return row;
    },
    close: () => generator.onModuleDestroy(),
  };
}

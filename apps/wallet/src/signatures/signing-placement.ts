import { ChainName } from '@game-wallet/contracts';

/**
 * Where each chain's signature primitive (chains/signature-primitives.ts) runs once its key is open: on the event loop
 * (no hop; the primitive's own cost holds the loop) or on the key worker pool (a hop to a thread and back, which may
 * cost more than an Ed25519 signature but keeps a slower primitive off the loop). The one switch: see ChainKeys.sign.
 */
export type SigningPlacement = 'event-loop' | 'worker';

/**
 * By bench/run.mjs's `placement` scenario (signing alone, 64 at a time; bench/README.md): the pool beats the event
 * loop on every chain. An Ed25519 signature by OpenSSL (key import and signature) takes about 45 µs and the hop to a
 * thread and back adds under 10 µs of CPU, while the pool signs on the second core: 1.5× the signatures per second, and
 * the loop's delay meanwhile falls by half (about 9 → 5 ms p99). A secp256k1 signature by @noble/curves takes about
 * 0.25 ms, and 64 of them on the loop would hold a read for over 15 ms: 1.8× on the pool, and 16 → 4 ms.
 */
export const SIGNING_PLACEMENT: Readonly<Record<ChainName, SigningPlacement>> = {
  evm: 'worker',
  sol: 'worker',
  sui: 'worker',
};

export const SIGNING_PLACEMENT_TOKEN = Symbol('SIGNING_PLACEMENT');

/** The placement the service signs with (a test may provide another). */
export const signingPlacementProvider = { provide: SIGNING_PLACEMENT_TOKEN, useValue: SIGNING_PLACEMENT };

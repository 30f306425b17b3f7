import { ChainName } from '@game-wallet/contracts';

/**
 * Where each chain's signature primitive (chains/signature-primitives.ts) runs once its key is open: on the event loop
 * (no hop; the primitive's own cost holds the loop) or on the key worker pool (a hop to a thread and back, which may
 * cost more than an Ed25519 signature but keeps a slower primitive off the loop). The one switch: see ChainKeys.sign.
 */
export type SigningPlacement = 'event-loop' | 'worker';

/**
 * By bench/run.mjs's `placement` scenario (signing alone, 64 at a time; bench/README.md): an Ed25519 signature by
 * OpenSSL takes about 0.1 ms, less than the hop to a thread and back, and 64 of them hold the loop for a few
 * milliseconds; a secp256k1 signature by @noble/curves takes about 0.35 ms, and 64 of them on the loop would hold a
 * read for over 20 ms, so evm signs on the pool, where it also gets the second core.
 */
export const SIGNING_PLACEMENT: Readonly<Record<ChainName, SigningPlacement>> = {
  evm: 'worker',
  sol: 'event-loop',
  sui: 'event-loop',
};

export const SIGNING_PLACEMENT_TOKEN = Symbol('SIGNING_PLACEMENT');

/** The placement the service signs with (a test may provide another). */
export const signingPlacementProvider = { provide: SIGNING_PLACEMENT_TOKEN, useValue: SIGNING_PLACEMENT };

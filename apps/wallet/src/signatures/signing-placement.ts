import { ChainName } from '@game-wallet/contracts';

/**
 * Where each chain's signature primitive (chains/signature-primitives.ts) runs once its key is open: on the event loop
 * (no hop; the primitive's own cost holds the loop) or on the key worker pool (a hop to a thread and back, which may
 * cost more than an Ed25519 signature but keeps a slower primitive off the loop). The one switch: see ChainKeys.sign.
 */
export type SigningPlacement = 'event-loop' | 'worker';

export const SIGNING_PLACEMENT: Readonly<Record<ChainName, SigningPlacement>> = {
  evm: 'event-loop',
  sol: 'event-loop',
  sui: 'event-loop',
};

export const SIGNING_PLACEMENT_TOKEN = Symbol('SIGNING_PLACEMENT');

/** The placement the service signs with (a test may provide another). */
export const signingPlacementProvider = { provide: SIGNING_PLACEMENT_TOKEN, useValue: SIGNING_PLACEMENT };

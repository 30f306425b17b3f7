import { ChainName } from '@game-wallet/contracts';
import { ChainSigner } from './chain-signer';
import { evm, storedEvmFacts } from './evm';
import { sol } from './sol';
import { sui } from './sui';

import { SigningFacts } from './chain-signer';

export { ChainSigner, SigningRequest, decode, receivedBytes } from './chain-signer';
export { signEvm } from './evm';
export { signSol } from './sol';
export { signSui } from './sui';

/** Each chain's home: how its requests are decoded, checked against the policy and signed. */
export const CHAIN_SIGNERS = { evm, sol, sui } as const satisfies Readonly<Record<ChainName, ChainSigner<never>>>;

/** The most a signing attempt's stored facts may take; larger ones keep only what every criterion's "unknown" needs. */
export const MAX_STORED_FACTS = 8_192;

/**
 * The facts stored with a signing attempt: as read, when they are small (almost always; EVM calldata past 4 KiB is
 * kept as its selector and length); else only the operation, chain and native value, marked `truncated` (a replay
 * cannot decide the criteria that read the rest).
 */
export function storedFacts(facts: SigningFacts): Record<string, unknown> {
  // EVM calldata past 4 KiB keeps its selector and length (an ABI criterion can still tell another function apart).
  const kept = facts.chain === 'evm' ? storedEvmFacts(facts) : facts;
  return JSON.stringify(kept).length <= MAX_STORED_FACTS ? kept : { operation: facts.operation, chain: facts.chain, nativeValue: facts.nativeValue, truncated: true };
}

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
 * cannot decide the criteria that read the rest), and so are facts PostgreSQL cannot hold.
 */
export function storedFacts(facts: SigningFacts): Record<string, unknown> {
  // EVM calldata past 4 KiB keeps its selector and length (an ABI criterion can still tell another function apart).
  const kept = facts.chain === 'evm' ? storedEvmFacts(facts) : facts;
  const text = JSON.stringify(kept);
  return text.length <= MAX_STORED_FACTS && !UNSTORABLE.test(text) ? kept : { operation: facts.operation, chain: facts.chain, nativeValue: facts.nativeValue, truncated: true };
}

/**
 * What PostgreSQL's jsonb cannot hold, as JSON.stringify escapes it: a NUL character, or half of a surrogate pair
 * (typed data's strings may hold either). Such facts are kept like oversized ones, rather than changed.
 */
const UNSTORABLE = /\\u0000|\\ud[89a-f][0-9a-f]{2}/i;

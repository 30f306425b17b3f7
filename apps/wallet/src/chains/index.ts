import { ChainName } from '@game-wallet/contracts';
import { ChainSigner } from './chain-signer';
import { evm } from './evm';
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
 * The facts stored with a signing attempt: as read, when they are small (almost always); else only the operation,
 * chain and native value, marked `truncated` (a replay cannot decide the criteria that read the rest).
 */
export function storedFacts(facts: SigningFacts): Record<string, unknown> {
  const text = JSON.stringify(facts);
  return text.length <= MAX_STORED_FACTS ? facts : { operation: facts.operation, chain: facts.chain, nativeValue: facts.nativeValue, truncated: true };
}

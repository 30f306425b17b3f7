import { ChainName } from '@game-wallet/contracts';
import { ChainSigner } from './chain-signer';
import { evm } from './evm';
import { sol } from './sol';
import { sui } from './sui';

export { ChainSigner, SigningRequest, decode, receivedBytes } from './chain-signer';
export { signEvm } from './evm';
export { signSol } from './sol';
export { signSui } from './sui';

/** Each chain's home: how its requests are decoded, checked against the policy and signed. */
export const CHAIN_SIGNERS = { evm, sol, sui } as const satisfies Readonly<Record<ChainName, ChainSigner<never>>>;

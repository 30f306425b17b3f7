import { GamePrincipal, SigningOperation, SigningPolicy } from '@game-wallet/contracts';
import { denied } from '../chains/chain-signer';

/**
 * The check of a game's signing policy (SPEC §11) that applies to every chain, before anything the caller sent is
 * read. Each chain's own rules are in its file under `chains/`.
 */

const OPERATION_NAMES: Record<SigningOperation, string> = { message: 'messages', transaction: 'transactions', 'typed-data': 'typed data' };

/** Which operations the caller's kind of credential may ask for: checked before anything to be signed is read. */
export function checkOperation(policy: SigningPolicy, caller: GamePrincipal, operation: SigningOperation): void {
  const kind = caller.kind === 'profile' ? 'profile' : 'apiKey';
  if (!policy.operations[kind].includes(operation)) {
    throw denied(`${kind === 'profile' ? 'a profile JWT' : 'an API key'} may not sign ${OPERATION_NAMES[operation]}`);
  }
}

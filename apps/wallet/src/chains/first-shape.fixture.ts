import { AppError, ChainName, PolicyDecision, SigningOperation, SigningPolicy, TypedDataRequest, rulesOfPolicy } from '@game-wallet/contracts';
import type { Transaction } from 'ethers';
import { Credential, decisionBeforeDecoding, evaluate } from '../policies/rules-engine';
import { DecodedRequest } from './chain-signer';
import { evm, evmTransactionFacts, evmTypedDataFacts } from './evm';
import { sol } from './sol';
import { sui } from './sui';

/**
 * For specs only: what a policy of the first shape (`SigningPolicy`) decides of a request, as the signing route decides
 * it today — converted to rules (`rulesOfPolicy`) and evaluated by the rules engine, velocity left aside.
 */

/**
 * A request: an EVM transaction as ethers holds it and typed data as sent (both read as they are, without the route's
 * own 400s on their fields or shape), Solana or Sui transaction bytes (raw or base64), or a message.
 */
export type FirstShapeRequest =
  | { evm: Transaction }
  | { typedData: TypedDataRequest }
  | { sol: Uint8Array | string }
  | { sui: Uint8Array | string }
  | { message: Uint8Array; chain?: ChainName };

/** `allowed`, or the refusal: 403 `POLICY_DENIED` with the engine's reason and observed value, or the 400 of a request that cannot be read. */
export type FirstShapeDecision = 'allowed' | ({ code: 'POLICY_DENIED' } & Pick<PolicyDecision, 'reason' | 'observed'>) | { code: string; message: string };

export async function firstShapeDecision(policy: SigningPolicy, request: FirstShapeRequest, credential: Credential = { kind: 'apiKey' }): Promise<FirstShapeDecision> {
  const { rules } = rulesOfPolicy(policy);
  const [operation, chain] = operationOf(request);
  const early = decisionBeforeDecoding(rules, operation, chain, credential);
  if (early !== undefined) {
    return refusal(early);
  }
  let decoded: Pick<DecodedRequest, 'facts' | 'live'>;
  try {
    decoded = await decode(request);
  } catch (error) {
    if (error instanceof AppError) {
      return { code: error.code, message: error.message };
    }
    throw error;
  }
  const decision = await evaluate(rules, credential, decoded.facts, decoded.live, async () => undefined);
  return decision.decision === 'accept' ? 'allowed' : refusal(decision);
}

function operationOf(request: FirstShapeRequest): [SigningOperation, ChainName] {
  if ('message' in request) {
    return ['message', request.chain ?? 'evm'];
  }
  if ('typedData' in request) {
    return ['typed-data', 'evm'];
  }
  return ['transaction', 'evm' in request ? 'evm' : 'sol' in request ? 'sol' : 'sui'];
}

async function decode(request: FirstShapeRequest): Promise<Pick<DecodedRequest, 'facts' | 'live'>> {
  const base64 = (bytes: Uint8Array | string) => (typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('base64'));
  if ('evm' in request) {
    return { facts: evmTransactionFacts(request.evm) };
  }
  if ('typedData' in request) {
    return { facts: evmTypedDataFacts(request.typedData) };
  }
  if ('sol' in request) {
    return sol.transaction(base64(request.sol));
  }
  if ('sui' in request) {
    return sui.transaction(base64(request.sui));
  }
  return { evm, sol, sui }[request.chain ?? 'evm'].message(Buffer.from(request.message));
}

const refusal = ({ reason, observed }: PolicyDecision): FirstShapeDecision => ({ code: 'POLICY_DENIED', reason, ...(observed === undefined ? {} : { observed }) });

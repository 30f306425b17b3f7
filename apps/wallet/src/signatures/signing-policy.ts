import { AppError, EVM_ADDRESS, EVM_QUANTITY, GamePrincipal, SigningOperation, SigningPolicy, TypedDataRequest, UINT256_MAX } from '@game-wallet/contracts';
import type { Transaction } from 'ethers';

/**
 * The checks of a game's signing policy (SPEC §11) that apply to every chain, and EVM's; each a pure function of the
 * policy and what is to be signed. A refusal is 403 `POLICY_DENIED` with a message naming the rule. Solana's and
 * Sui's rules are in `solana-policy.ts` and `sui-policy.ts`.
 */

const OPERATION_NAMES: Record<SigningOperation, string> = { message: 'messages', transaction: 'transactions', 'typed-data': 'typed data' };

export function denied(rule: string): AppError {
  return new AppError('POLICY_DENIED', `The game's signing policy refuses this: ${rule}`);
}

/** Which operations the caller's kind of credential may ask for: checked before anything to be signed is read. */
export function checkOperation(policy: SigningPolicy, caller: GamePrincipal, operation: SigningOperation): void {
  const kind = caller.kind === 'profile' ? 'profile' : 'apiKey';
  if (!policy.operations[kind].includes(operation)) {
    throw denied(`${kind === 'profile' ? 'a profile JWT' : 'an API key'} may not sign ${OPERATION_NAMES[operation]}`);
  }
}

function checkChainId(policy: SigningPolicy, chainId: bigint): void {
  if (policy.evm.chainIds !== null && !policy.evm.chainIds.some((allowed) => BigInt(allowed) === chainId)) {
    throw denied(`chain id ${chainId} is not among the allowed chain ids (evm.chainIds)`);
  }
}

function checkContract(policy: SigningPolicy, address: string, what: string): void {
  if (policy.evm.contracts !== null && !policy.evm.contracts.some((allowed) => allowed.toLowerCase() === address.toLowerCase())) {
    throw denied(`${what} ${address} is not among the allowed addresses (evm.contracts)`);
  }
}

/** evm: the chain id, the value moved, what the fees may burn, and the address called or paid. */
export function checkEvmTransaction(policy: SigningPolicy, transaction: Transaction): void {
  checkChainId(policy, transaction.chainId);
  if (policy.evm.maxValueWei !== null && transaction.value > BigInt(policy.evm.maxValueWei)) {
    throw denied(`the value ${transaction.value} wei is over the limit of ${policy.evm.maxValueWei} (evm.maxValueWei)`);
  }
  if (policy.evm.maxFeeWei !== null) {
    const fee = transaction.gasLimit * highestFeePerGas(transaction);
    if (fee > BigInt(policy.evm.maxFeeWei)) {
      throw denied(`the fees may reach ${fee} wei (gasLimit × fee per gas), over the limit of ${policy.evm.maxFeeWei} (evm.maxFeeWei)`);
    }
  }
  if (policy.evm.contracts !== null) {
    if (transaction.to === null) {
      throw denied('contract creation is not allowed when evm.contracts lists the allowed addresses');
    }
    checkContract(policy, transaction.to, 'the address');
  }
}

/** The most a unit of gas may cost: `gasPrice` (legacy), or the larger of EIP-1559's two fees per gas. */
function highestFeePerGas(transaction: Transaction): bigint {
  const fees = [transaction.gasPrice, transaction.maxFeePerGas, transaction.maxPriorityFeePerGas].filter((fee): fee is bigint => fee !== null);
  return fees.reduce((highest, fee) => (fee > highest ? fee : highest), 0n);
}

/**
 * evm typed data, read from the request as sent, before anything is hashed: the chain its domain names, the contract
 * it is for (`domain.verifyingContract` must be listed when `evm.contracts` is set), and its primary type.
 */
export function checkTypedData(policy: SigningPolicy, typedData: TypedDataRequest): void {
  const { chainId, verifyingContract } = typedData.domain;
  if (chainId !== undefined && chainId !== null) {
    checkChainId(policy, domainChainId(chainId));
  } else if (policy.evm.chainIds !== null) {
    throw denied('typed data without a domain chainId is not allowed when evm.chainIds is set');
  }
  if (policy.evm.contracts !== null) {
    if (typeof verifyingContract !== 'string' || !EVM_ADDRESS.test(verifyingContract)) {
      throw denied('typed data without a domain verifyingContract address is not allowed when evm.contracts is set');
    }
    checkContract(policy, verifyingContract, 'the verifying contract');
  }
  if (policy.evm.typedDataPrimaryTypes !== null && !policy.evm.typedDataPrimaryTypes.includes(typedData.primaryType)) {
    throw denied(`the primary type ${typedData.primaryType} is not among the allowed ones (evm.typedDataPrimaryTypes)`);
  }
}

/** A domain's `chainId` (uint256: a safe integer, decimal digits or 0x hex); anything else is 400. */
function domainChainId(value: unknown): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) {
    return BigInt(value);
  }
  if (typeof value === 'string' && EVM_QUANTITY.test(value) && BigInt(value) <= UINT256_MAX) {
    return BigInt(value);
  }
  throw new AppError('VALIDATION_FAILED', 'domain.chainId: must be a whole number (uint256), decimal or 0x hex');
}

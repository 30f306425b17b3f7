import { AppError, GamePrincipal, SigningOperation, SigningPolicy, TypedDataRequest } from '@game-wallet/contracts';
import { bcs } from '@mysten/sui/bcs';
import { base58 } from '@scure/base';
import type { Transaction } from 'ethers';
import { SolanaMessage } from '../keys/solana-transaction';

/**
 * The checks of a game's signing policy (SPEC §11), each a pure function of the policy and what is to be signed. A
 * refusal is 403 `POLICY_DENIED` with a message naming the rule.
 */

const OPERATION_NAMES: Record<SigningOperation, string> = { message: 'messages', transaction: 'transactions', 'typed-data': 'typed data' };

function denied(rule: string): AppError {
  return new AppError('POLICY_DENIED', `The game's signing policy refuses this: ${rule}`);
}

/** Which operations the caller's kind of credential may ask for. */
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

/** evm: the chain id, the value moved, and the address called or paid. */
export function checkEvmTransaction(policy: SigningPolicy, transaction: Transaction): void {
  checkChainId(policy, transaction.chainId);
  if (policy.evm.maxValueWei !== null && transaction.value > BigInt(policy.evm.maxValueWei)) {
    throw denied(`the value ${transaction.value} wei is over the limit of ${policy.evm.maxValueWei} (evm.maxValueWei)`);
  }
  if (policy.evm.contracts !== null) {
    const to = transaction.to?.toLowerCase();
    if (to === undefined) {
      throw denied('contract creation is not allowed when evm.contracts lists the allowed addresses');
    }
    if (!policy.evm.contracts.some((allowed) => allowed.toLowerCase() === to)) {
      throw denied(`${transaction.to} is not among the allowed addresses (evm.contracts)`);
    }
  }
}

/** evm typed data: the chain its domain names, when it names one. */
export function checkTypedData(policy: SigningPolicy, typedData: TypedDataRequest): void {
  const chainId = typedData.domain.chainId;
  if (chainId !== undefined && chainId !== null) {
    checkChainId(policy, BigInt(chainId as string | number));
  } else if (policy.evm.chainIds !== null) {
    throw denied('typed data without a domain chainId is not allowed when evm.chainIds is set');
  }
}

/** The System Program, whose instruction 2 is a transfer: u32 2, then u64 lamports, little-endian. */
const SYSTEM_PROGRAM = base58.encode(new Uint8Array(32));
const SYSTEM_TRANSFER = 2;

/** sol: every instruction's program, and the lamports the System transfers move. */
export function checkSolanaTransaction(policy: SigningPolicy, message: SolanaMessage): void {
  let lamports = 0n;
  for (const instruction of message.instructions) {
    const key = message.accountKeys[instruction.programIdIndex];
    const program = key === undefined ? 'an unknown program' : base58.encode(key);
    if (policy.sol.programs !== null && !policy.sol.programs.includes(program)) {
      throw denied(`program ${program} is not among the allowed programs (sol.programs)`);
    }
    const data = instruction.data;
    if (program === SYSTEM_PROGRAM && data.length >= 12 && new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(0, true) === SYSTEM_TRANSFER) {
      lamports += new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(4, true);
    }
  }
  if (policy.sol.maxLamports !== null && lamports > BigInt(policy.sol.maxLamports)) {
    throw denied(`the transfers move ${lamports} lamports, over the limit of ${policy.sol.maxLamports} (sol.maxLamports)`);
  }
}

const normalSuiId = (id: string): string => `0x${id.replace(/^0x/, '').toLowerCase().padStart(64, '0')}`;

/** sui: the packages its MoveCalls call, and whether it may transfer or split coins. */
export function checkSuiTransaction(policy: SigningPolicy, bytes: Uint8Array): void {
  const data = bcs.TransactionData.parse(bytes);
  const commands = data.V1?.kind.ProgrammableTransaction?.commands ?? [];
  for (const command of commands) {
    if (command.MoveCall && policy.sui.packages !== null) {
      const target = normalSuiId(command.MoveCall.package);
      if (!policy.sui.packages.some((allowed) => normalSuiId(allowed) === target)) {
        throw denied(`Move package ${command.MoveCall.package} is not among the allowed packages (sui.packages)`);
      }
    }
    if ((command.TransferObjects || command.SplitCoins) && !policy.sui.allowTransfers) {
      throw denied('TransferObjects and SplitCoins are not allowed (sui.allowTransfers)');
    }
  }
}

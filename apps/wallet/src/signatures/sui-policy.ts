import { SigningPolicy } from '@game-wallet/contracts';
import { bcs } from '@mysten/sui/bcs';
import { SUI_FRAMEWORK_ADDRESS, normalizeSuiAddress } from '@mysten/sui/utils';
import { denied } from './signing-policy';

/**
 * A game's signing policy for Sui transactions (SPEC §11): the Move packages it calls, whether it may move coins and
 * objects, and its gas budget. When any `sui` limit is set, anything but a programmable transaction is refused.
 */

/**
 * The Sui framework's (0x2) modules that cannot move coins or objects away from the sender: reading the clock, object
 * ids and the transaction context, randomness, hashing, signature checks and plain data structures. With
 * `allowTransfers: false` a Move call into 0x2 is allowed only into one of these. It is a list of what is known to be
 * harmless rather than of what is not, so a module the framework adds later is refused until it is looked at: besides
 * `transfer` (public_transfer, share, freeze, party_transfer), `pay` (split_and_transfer, join_vec_and_transfer),
 * `sui::transfer`, `coin` and `balance` (send_funds, mint_and_transfer, split, join), the framework moves value in
 * `kiosk`, `transfer_policy`, `token`, `allowance`, `address_alias`, `forwarding_address`, `party` and more.
 */
const FRAMEWORK_MODULES_WITHOUT_TRANSFERS = new Set([
  'address',
  'bcs',
  'bls12381',
  'clock',
  'ecdsa_k1',
  'ecdsa_r1',
  'ecvrf',
  'ed25519',
  'groth16',
  'group_ops',
  'hash',
  'hex',
  'hmac',
  'math',
  'nitro_attestation',
  'object',
  'poseidon',
  'random',
  'tx_context',
  'types',
  'url',
  'vdf',
  'vec_map',
  'vec_set',
  'zklogin_verified_id',
  'zklogin_verified_issuer',
]);

/** System packages besides the framework that move value when called: the bridge (send_token) and DeepBook. */
const SYSTEM_PACKAGES_WITH_TRANSFERS = new Set([normalizeSuiAddress('0xb'), normalizeSuiAddress('0xdee9')]);

const FRAMEWORK = normalizeSuiAddress(SUI_FRAMEWORK_ADDRESS);

type SuiTransactionData = ReturnType<typeof bcs.TransactionData.parse>;

/** sui: the packages its Move calls call, whether it may publish, move coins or objects, and its gas budget. */
export function checkSuiTransaction(policy: SigningPolicy, data: SuiTransactionData): void {
  const limited = policy.sui.packages !== null || !policy.sui.allowTransfers || policy.sui.maxGasBudget !== null;
  if (!limited) {
    return;
  }
  const transaction = data.V1;
  const commands = transaction?.kind.ProgrammableTransaction?.commands;
  if (transaction === undefined || commands === undefined) {
    throw denied('only programmable transactions are allowed when a sui limit is set');
  }
  if (policy.sui.maxGasBudget !== null && BigInt(transaction.gasData.budget) > BigInt(policy.sui.maxGasBudget)) {
    throw denied(`the gas budget of ${transaction.gasData.budget} MIST is over the limit of ${policy.sui.maxGasBudget} (sui.maxGasBudget)`);
  }
  const packages = policy.sui.packages?.map((id) => normalizeSuiAddress(id)) ?? null;
  for (const command of commands) {
    if (packages !== null && (command.Publish || command.Upgrade)) {
      throw denied('publishing or upgrading a package is not allowed when sui.packages lists the allowed packages');
    }
    if (command.MoveCall) {
      const target = normalizeSuiAddress(command.MoveCall.package);
      if (packages !== null && !packages.includes(target)) {
        throw denied(`Move package ${command.MoveCall.package} is not among the allowed packages (sui.packages)`);
      }
      if (!policy.sui.allowTransfers && movesValue(target, command.MoveCall.module)) {
        throw denied(`${command.MoveCall.package}::${command.MoveCall.module}::${command.MoveCall.function} can move coins or objects (sui.allowTransfers)`);
      }
    }
    // MergeCoins too: a coin can be shared, and merging into someone else's shared coin gives the value away.
    if ((command.TransferObjects || command.SplitCoins || command.MergeCoins) && !policy.sui.allowTransfers) {
      throw denied('TransferObjects, SplitCoins and MergeCoins are not allowed (sui.allowTransfers)');
    }
  }
}

function movesValue(packageId: string, module: string): boolean {
  return (packageId === FRAMEWORK && !FRAMEWORK_MODULES_WITHOUT_TRANSFERS.has(module)) || SYSTEM_PACKAGES_WITH_TRANSFERS.has(packageId);
}

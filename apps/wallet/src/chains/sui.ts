import { AppError, SigningPolicy } from '@game-wallet/contracts';
import { ed25519 } from '@noble/curves/ed25519';
import { blake2b } from '@noble/hashes/blake2b';
import { bcs } from '@mysten/sui/bcs';
import { SUI_FRAMEWORK_ADDRESS, normalizeSuiAddress } from '@mysten/sui/utils';
import { ChainSigner, DecodedRequest, decodedMessage, denied } from './chain-signer';

/**
 * Sui: personal messages and transactions (TransactionData in BCS, read with @mysten/sui's schema) — decoded,
 * checked against the game's signing policy and signed: Ed25519 over BLAKE2b-256 of the intent and the bytes.
 */
export const sui: ChainSigner<string> = {
  chain: 'sui',
  criterion: (criterion) => ({ result: 'unknown', observed: `${criterion.type} is not read yet` }),
  criterionProblem: () => undefined,
  message: (message) => decodedMessage('sui', message, signSui),
  transaction: async (transaction) => decodedTransaction(Buffer.from(transaction, 'base64')),
};

/** TransactionData: a signature over its intent; 400 `SENDER_MISMATCH` when another address sends it. */
function decodedTransaction(bytes: Buffer): DecodedRequest {
  const data = suiTransactionData(bytes);
  return {
    facts: { operation: 'transaction', chain: 'sui', nativeValue: null },
    forWallet(address) {
      if (data.V1.sender.toLowerCase() !== address.toLowerCase()) {
        throw new AppError('SENDER_MISMATCH', `The transaction's sender ${data.V1.sender} is not this wallet's Sui address`);
      }
      return {
        audited: bytes,
        check: (policy) => checkSuiTransaction(policy, data),
        async sign(withKey) {
          const digest = suiTransactionDigest(bytes);
          const signature = await withKey((key) => suiSignatureOf(key, digest));
          return { view: { chain: 'sui', address, signature }, signed: bytes };
        },
      };
    },
  };
}

// Signatures

/** BCS `vector<u8>`: ULEB128 length, then the bytes. */
function bcsBytes(message: Uint8Array): Uint8Array {
  const length: number[] = [];
  let remaining = message.length;
  do {
    let byte = remaining & 0x7f;
    remaining >>>= 7;
    if (remaining > 0) {
      byte |= 0x80;
    }
    length.push(byte);
  } while (remaining > 0);
  return Uint8Array.of(...length, ...message);
}

/**
 * Sui personal message: Ed25519 over BLAKE2b-256(intent [3, 0, 0] ‖ BCS vector<u8> message), serialized as
 * base64(0x00 flag ‖ signature ‖ public key) (`@mysten/sui` `verifyPersonalMessageSignature` accepts it).
 */
export function signSui(privateKey: Uint8Array, message: Uint8Array): string {
  return suiSignatureOf(privateKey, blake2b(Uint8Array.of(3, 0, 0, ...bcsBytes(message)), { dkLen: 32 }));
}

/** Sui's serialized Ed25519 signature of an intent digest: base64(0x00 flag ‖ signature ‖ public key). */
export function suiSignatureOf(privateKey: Uint8Array, digest: Uint8Array): string {
  const signature = ed25519.sign(digest, privateKey);
  // @noble/curves, bytes in and out: the faster OpenSSL route (ed25519PublicKey) takes the key as a base64url string.
  return Buffer.from(Uint8Array.of(0, ...signature, ...ed25519.getPublicKey(privateKey))).toString('base64');
}

// Decoding

/** Sui TransactionData (BCS, version 1), read with @mysten/sui's schema; 400 when the bytes are not that. */
export function suiTransactionData(bytes: Uint8Array): SuiTransactionData & { V1: NonNullable<SuiTransactionData['V1']> } {
  let data: SuiTransactionData;
  try {
    data = bcs.TransactionData.parse(bytes);
  } catch (error) {
    throw new AppError('VALIDATION_FAILED', `transaction: not Sui TransactionData in BCS (${error instanceof Error ? error.message.split('\n')[0].slice(0, 200) : 'unreadable'})`);
  }
  if (!data.V1) {
    throw new AppError('VALIDATION_FAILED', 'transaction: not Sui TransactionData in BCS (unknown TransactionData version)');
  }
  return data as SuiTransactionData & { V1: NonNullable<SuiTransactionData['V1']> };
}

type SuiTransactionData = ReturnType<typeof bcs.TransactionData.parse>;

/** What a Sui transaction signature signs: BLAKE2b-256 of the intent ([0, 0, 0]: transaction data, v0, Sui) and the bytes. */
export function suiTransactionDigest(bytes: Uint8Array): Uint8Array {
  return blake2b(Uint8Array.of(0, 0, 0, ...bytes), { dkLen: 32 });
}

// The signing policy

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

import { AppError, Criterion, U64_MAX } from '@game-wallet/contracts';
import { blake2b } from '@noble/hashes/blake2b';
import { bcs } from '@mysten/sui/bcs';
import { SUI_FRAMEWORK_ADDRESS, normalizeSuiAddress } from '@mysten/sui/utils';
import { ChainSigner, CriterionOutcome, DecodedRequest, MessageSigning, SigningFacts, decodedMessage, COMPARE_NUMBERS } from './chain-signer';
import { SIGNATURE_PRIMITIVES } from './signature-primitives';

/**
 * Sui: personal messages and transactions (TransactionData in BCS, read with @mysten/sui's schema) — decoded, read
 * as the game's policy rules read them, and signed: Ed25519 over BLAKE2b-256 of the intent and the bytes.
 */
export const sui: ChainSigner<string> = {
  chain: 'sui',
  criterion: (criterion, facts) => suiCriterion(criterion, facts),
  criterionProblem: (criterion) => suiCriterionProblem(criterion),
  message: (message) => decodedMessage('sui', message, SUI_MESSAGES),
  transaction: async (transaction) => decodedTransaction(Buffer.from(transaction, 'base64')),
};

/** TransactionData: a signature over its intent; 400 `SENDER_MISMATCH` when another address sends it. */
function decodedTransaction(bytes: Buffer): DecodedRequest {
  const data = suiTransactionData(bytes);
  return {
    facts: suiTransactionFacts(data),
    forWallet(address) {
      if (data.V1.sender.toLowerCase() !== address.toLowerCase()) {
        throw new AppError('SENDER_MISMATCH', `The transaction's sender ${data.V1.sender} is not this wallet's Sui address`);
      }
      return {
        audited: bytes,
        async sign(signWithKey) {
          const signature = suiSignatureText(await signWithKey(suiTransactionDigest(bytes)));
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
const SUI_MESSAGES: MessageSigning = {
  payload: (message) => blake2b(Uint8Array.of(3, 0, 0, ...bcsBytes(message)), { dkLen: 32 }),
  format: suiSignatureText,
};

/** A message signed with a key at hand (test vectors): the same steps as a request's. */
export function signSui(privateKey: Uint8Array, message: Uint8Array): string {
  return SUI_MESSAGES.format(SIGNATURE_PRIMITIVES.sui(privateKey, SUI_MESSAGES.payload(message)));
}

/** Sui's serialized Ed25519 signature (flag ‖ signature ‖ public key, as the primitive answers it), in base64. */
function suiSignatureText(serialized: Uint8Array): string {
  return Buffer.from(serialized).toString('base64');
}

// Decoding

/**
 * Sui TransactionData (BCS, version 1), read with @mysten/sui's schema; 400 when the bytes are not that. Strict: the
 * schema's parser stops where the data ends and ignores what follows, so the bytes must be exactly what the data
 * serializes to (nothing after it, nothing encoded in a non-canonical way), lest what is checked differ from what is
 * signed.
 */
export function suiTransactionData(bytes: Uint8Array): SuiTransactionData & { V1: NonNullable<SuiTransactionData['V1']> } {
  let data: SuiTransactionData;
  let canonical: Uint8Array;
  try {
    data = bcs.TransactionData.parse(bytes);
    canonical = bcs.TransactionData.serialize(data).toBytes();
  } catch (error) {
    throw new AppError('VALIDATION_FAILED', `transaction: not Sui TransactionData in BCS (${error instanceof Error ? error.message.split('\n')[0].slice(0, 200) : 'unreadable'})`);
  }
  if (Buffer.compare(canonical, bytes) !== 0) {
    throw new AppError('VALIDATION_FAILED', 'transaction: not Sui TransactionData in BCS (bytes after its end, or not in canonical form)');
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

// Move calls that move value

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

/** Whether a Move call into this package and module can move coins or objects (see `SuiCommandFacts.movesValue`). */
function movesValue(packageId: string, module: string): boolean {
  return (packageId === FRAMEWORK && !FRAMEWORK_MODULES_WITHOUT_TRANSFERS.has(module)) || SYSTEM_PACKAGES_WITH_TRANSFERS.has(packageId);
}

// Facts and criteria (policy v2)

/**
 * What the rules read of a Sui transaction (`DecodedRequest.facts`), plain JSON. `nativeValue`: the MIST the
 * transaction takes out of the gas coin, the sum of its `SplitCoins(GasCoin, amounts)` whose amounts are pure u64
 * inputs; null when that cannot be counted: the gas coin given whole or to a Move call (which may split it), an amount
 * computed by another command, a transaction that is not programmable. Coins given as object inputs are not counted:
 * the bytes do not say what type an object is.
 */
export interface SuiTransactionFacts extends SigningFacts {
  operation: 'transaction';
  chain: 'sui';
  /** only a programmable transaction has commands; the other kinds are the validators' own */
  programmable: boolean;
  /** MIST, decimal */
  gasBudget: string;
  commands: SuiCommandFacts[];
}

export interface SuiCommandFacts {
  kind: SuiCommandKind;
  /** a MoveCall's: `0x<64 hex>::module::function` */
  target?: string;
  /** a MoveCall's: whether it can move coins or objects (the framework beyond its harmless modules, the bridge, DeepBook) */
  movesValue?: boolean;
}

export type SuiCommandKind = SuiCommand['$kind'];

type SuiCommand = SuiProgrammableTransaction['commands'][number];
type SuiProgrammableTransaction = NonNullable<NonNullable<SuiTransactionData['V1']>['kind']['ProgrammableTransaction']>;
type SuiArgument = NonNullable<SuiCommand['TransferObjects']>['address'];

function suiTransactionFacts(data: ReturnType<typeof suiTransactionData>): SuiTransactionFacts {
  const programmable = data.V1.kind.ProgrammableTransaction;
  return {
    operation: 'transaction',
    chain: 'sui',
    nativeValue: programmable ? gasCoinOutflow(programmable) : null,
    programmable: programmable !== undefined,
    gasBudget: String(data.V1.gasData.budget),
    commands: programmable?.commands.map(commandFacts) ?? [],
  };
}

function commandFacts(command: SuiCommand): SuiCommandFacts {
  if (!command.MoveCall) {
    return { kind: command.$kind };
  }
  const { module, function: name } = command.MoveCall;
  const packageId = normalizeSuiAddress(command.MoveCall.package);
  return { kind: 'MoveCall', target: `${packageId}::${module}::${name}`, movesValue: movesValue(packageId, module) };
}

/** The MIST split off the gas coin by amounts stated in the transaction; null when the gas coin can lose what they do not say. */
/** Whether a command's argument is an object the transaction takes as input (any coin of the wallet's may be one). */
function isObjectInput(inputs: SuiProgrammableTransaction['inputs'], argument: { $kind: string; Input?: number }): boolean {
  return argument.$kind === 'Input' && argument.Input !== undefined && inputs[argument.Input]?.$kind === 'Object';
}

function gasCoinOutflow({ inputs, commands }: SuiProgrammableTransaction): string | null {
  let total = 0n;
  for (const command of commands) {
    if (command.SplitCoins !== undefined && command.SplitCoins !== null && isObjectInput(inputs, command.SplitCoins.coin)) {
      return null;
    }
    if (command.SplitCoins?.coin.$kind === 'GasCoin') {
      for (const amount of command.SplitCoins.amounts) {
        const value = pureU64(inputs, amount);
        if (value === undefined) {
          return null;
        }
        total += value;
      }
    } else if (gasCoinTaking(command).some((argument) => argument.$kind === 'GasCoin' || isObjectInput(inputs, argument))) {
      // The gas coin handed on whole, or an object of the wallet's (another SUI coin, perhaps): not a number of MIST.
      return null;
    }
  }
  return total.toString();
}

/** The arguments through which a command can take value out of a coin (a MergeCoins destination only receives). */
function gasCoinTaking(command: SuiCommand): SuiArgument[] {
  return [
    ...(command.MoveCall?.arguments ?? []),
    ...(command.TransferObjects ? [...command.TransferObjects.objects, command.TransferObjects.address] : []),
    ...(command.SplitCoins?.amounts ?? []),
    ...(command.MergeCoins?.sources ?? []),
    ...(command.MakeMoveVec?.elements ?? []),
    ...(command.Upgrade ? [command.Upgrade.ticket] : []),
  ];
}

function pureU64(inputs: SuiProgrammableTransaction['inputs'], argument: SuiArgument): bigint | undefined {
  const pure = argument.$kind === 'Input' ? inputs[argument.Input]?.Pure : undefined;
  const bytes = pure ? Buffer.from(pure.bytes, 'base64') : undefined;
  return bytes?.length === 8 ? bytes.readBigUInt64LE() : undefined;
}

/**
 * A Sui criterion against a transaction's facts. Nothing is decided of a transaction that is not programmable: it has
 * no commands to read (the first policy shape refused it under any sui limit).
 */
function suiCriterion(criterion: Criterion, facts: SigningFacts): CriterionOutcome {
  if (!isSuiCriterion(criterion)) {
    return { result: 'unknown', observed: `${criterion.type} is not read of Sui transactions` };
  }
  const transaction = programmableFacts(facts);
  if (transaction === undefined) {
    return { result: 'unknown', observed: 'not a programmable transaction' };
  }
  const { commands, gasBudget } = transaction;
  switch (criterion.type) {
    case 'suiMoveCall': {
      const calls = commands.filter((command) => command.target !== undefined);
      const listed = (call: SuiCommandFacts) => criterion.values.some((pattern) => targetMatches(pattern, call.target ?? ''));
      const outside = calls.find((call) => listed(call) !== (criterion.operator === 'in'));
      return outside ? { result: 'fails', observed: observedOf(outside) } : { result: 'holds', observed: observedOfAll(calls, 'no Move call') };
    }
    case 'suiTransfers':
      return allowedOutcome(criterion.allowed, commands.find(movesCoinsOrObjects), 'no coin or object moved');
    case 'suiPublish':
      return allowedOutcome(criterion.allowed, commands.find(({ kind }) => kind === 'Publish' || kind === 'Upgrade'), 'no Publish or Upgrade');
    case 'suiGasBudget': {
      const observed = `gas budget ${gasBudget} MIST`;
      if (!DECIMAL.test(criterion.value)) {
        return { result: 'unknown', observed: `${observed}, the limit not a decimal` };
      }
      return { result: COMPARE_NUMBERS[criterion.operator](BigInt(gasBudget), BigInt(criterion.value)) ? 'holds' : 'fails', observed };
    }
  }
}

type SuiCriterion = Extract<Criterion, { type: 'suiMoveCall' | 'suiTransfers' | 'suiGasBudget' | 'suiPublish' }>;

const isSuiCriterion = (criterion: Criterion): criterion is SuiCriterion =>
  criterion.type === 'suiMoveCall' || criterion.type === 'suiTransfers' || criterion.type === 'suiGasBudget' || criterion.type === 'suiPublish';

/** A programmable Sui transaction's facts, when they are that (a replay may bring facts of another request). */
function programmableFacts(facts: SigningFacts): SuiTransactionFacts | undefined {
  const candidate = facts as Partial<SuiTransactionFacts>;
  const readable = facts.chain === 'sui' && facts.operation === 'transaction' && candidate.programmable === true && Array.isArray(candidate.commands) && typeof candidate.gasBudget === 'string';
  return readable ? (facts as SuiTransactionFacts) : undefined;
}

/**
 * What `allowTransfers: false` of the first policy shape refused: TransferObjects, SplitCoins, MergeCoins and Move calls
 * that move value. MergeCoins too: a coin can be shared, and merging into someone else's shared coin gives the value away.
 */
function movesCoinsOrObjects(command: SuiCommandFacts): boolean {
  return command.kind === 'TransferObjects' || command.kind === 'SplitCoins' || command.kind === 'MergeCoins' || command.movesValue === true;
}

/** `allowed: false` holds when nothing of the kind is there; `allowed: true` always holds. */
function allowedOutcome(allowed: boolean, found: SuiCommandFacts | undefined, none: string): CriterionOutcome {
  return { result: found && !allowed ? 'fails' : 'holds', observed: found ? observedOf(found) : none };
}


/** A command as an observed value: its kind, and a Move call's target (a system package short: 0x2, 0xdee9). */
function observedOf({ kind, target }: SuiCommandFacts): string {
  return target === undefined ? kind : short(`Move call ${target.replace(/^0x0{60}0*(?=[0-9a-f]{1,4}::)/, '0x')}`);
}

function observedOfAll(calls: SuiCommandFacts[], none: string): string {
  if (calls.length === 0) {
    return none;
  }
  return calls.length === 1 ? observedOf(calls[0]) : short(`${observedOf(calls[0])} and ${calls.length - 1} more`);
}

const OBSERVED_MAX = 200;
const short = (text: string): string => (text.length <= OBSERVED_MAX ? text : `${text.slice(0, OBSERVED_MAX - 1)}…`);

const DECIMAL = /^\d+$/;
const MOVE_IDENTIFIER = '[A-Za-z][A-Za-z0-9_]{0,127}';
/** `0x<package>::<module>::<function>`, `0x<package>::<module>::*` or `0x<package>::*`. */
const MOVE_TARGET = new RegExp(`^0x[0-9a-fA-F]{1,64}::(\\*|${MOVE_IDENTIFIER}::(\\*|${MOVE_IDENTIFIER}))$`);

/** Whether a Move call's target (normalized) is one a pattern names: the package normalized, `*` for any module or function. */
function targetMatches(pattern: string, target: string): boolean {
  const [packageId, module, name, ...rest] = pattern.split('::');
  const [targetPackage, targetModule, targetName] = target.split('::');
  if (rest.length > 0 || module === undefined || normalizeSuiAddress(packageId) !== targetPackage) {
    return false;
  }
  return name === undefined ? module === '*' : module === targetModule && (name === '*' || name === targetName);
}

function suiCriterionProblem(criterion: Criterion): string | undefined {
  switch (criterion.type) {
    case 'suiMoveCall': {
      const wrong = criterion.values.find((value) => !MOVE_TARGET.test(value));
      return wrong === undefined ? undefined : `values: ${JSON.stringify(wrong.slice(0, 80))} is not a Move call target (0x<package>::<module>::<function>, * as module or function)`;
    }
    case 'suiGasBudget':
      return DECIMAL.test(criterion.value) && BigInt(criterion.value) <= BigInt(U64_MAX) ? undefined : 'value: a gas budget is MIST in decimal digits, at most a u64';
    default:
      return undefined;
  }
}

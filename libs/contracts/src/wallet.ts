/** Wire types of the wallet and core services. */

export const CHAIN_NAMES = ['evm', 'sol', 'sui'] as const;
export type ChainName = (typeof CHAIN_NAMES)[number];

export type WalletAddresses = Record<ChainName, string>;

/** SPEC §4.2: the wallet record. `lastUsedAt` is the creation time until the wallet first signs. */
export interface WalletView {
  id: string;
  applicationId: string;
  profileId: string;
  createdAt: string;
  lastUsedAt: string;
  addresses: Partial<WalletAddresses>;
}

export interface SignatureView {
  chain: ChainName;
  address: string;
  signature: string;
}

/** SPEC §4.4: the player record. */
export interface PlayerView {
  id: string;
  applicationId: string;
  uniqueId: string;
  image: string | null;
  userData: Record<string, unknown>;
  profileId: string;
  walletId: string;
  createdAt: string;
  updatedAt: string;
}

/** A player as the console lists it: with its wallet's addresses. */
export type ConsolePlayerView = PlayerView & { addresses: WalletAddresses | null };

/** SPEC §4.5 and §7: a signed message is at most 4 KiB once decoded. */
export const MAX_SIGN_MESSAGE_BYTES = 4096;

/**
 * An EVM transaction to sign (SPEC §11): EIP-1559 (type 2) or legacy (type 0, EIP-155). Quantities are decimal or
 * `0x` hex strings; `to` absent or null creates a contract. The platform signs only: nonce and fees are the caller's.
 */
export interface EvmTransactionRequest {
  type?: 0 | 2;
  chainId: string;
  nonce?: string;
  to?: string | null;
  value?: string;
  data?: string;
  gasLimit?: string;
  gasPrice?: string;
  maxFeePerGas?: string;
  maxPriorityFeePerGas?: string;
  accessList?: { address: string; storageKeys: string[] }[];
}

/** EIP-712 typed data, as `eth_signTypedData_v4` takes it. */
export interface TypedDataRequest {
  domain: Record<string, unknown>;
  types: Record<string, { name: string; type: string }[]>;
  primaryType: string;
  message: Record<string, unknown>;
}

/**
 * What to sign with `sign-transaction`: an EVM transaction's fields, or a Solana transaction (legacy or v0, wire
 * format, unsigned or partly signed) or Sui `TransactionData` (BCS), base64.
 */
export type TransactionRequest = { chain: 'evm'; transaction: EvmTransactionRequest } | { chain: 'sol' | 'sui'; transaction: string };

/** An EVM transaction signed: the raw bytes to broadcast (`0x` hex) and their hash (the transaction's id once mined). */
export interface EvmSignedTransactionView {
  chain: 'evm';
  address: string;
  signedTransaction: string;
  hash: string;
}

/** A Solana transaction signed: the wallet's signature (base58) and the transaction with it in its slot (base64). */
export interface SolanaSignedTransactionView {
  chain: 'sol';
  address: string;
  signature: string;
  signedTransaction: string;
}

/** A Sui transaction signed: Sui's serialized signature (base64: flag ‖ signature ‖ public key) over its intent. */
export interface SuiSignedTransactionView {
  chain: 'sui';
  address: string;
  signature: string;
}

export type SignedTransactionView = EvmSignedTransactionView | SolanaSignedTransactionView | SuiSignedTransactionView;

/** What a signing request asks for (SPEC §11); each is allowed or denied by the game's signing policy. */
export const SIGNING_OPERATIONS = ['message', 'transaction', 'typed-data'] as const;
export type SigningOperation = (typeof SIGNING_OPERATIONS)[number];

/** SPEC §11: a transaction or typed data to sign is at most 64 KiB once decoded. */
export const MAX_SIGN_PAYLOAD_BYTES = 65_536;

/**
 * A game's signing policy (SPEC §11): what each kind of credential may sign, and limits per chain. `null` means "any"
 * (no limit). The default lets API keys sign messages, transactions and typed data, and profile JWTs (game clients)
 * messages only. Checks fail closed: what cannot be decoded or matched against a set limit is refused.
 */
export interface SigningPolicy {
  operations: { apiKey: SigningOperation[]; profile: SigningOperation[] };
  evm: {
    /** chain ids (decimal) a transaction, or typed data's domain, may name */
    chainIds: string[] | null;
    /** the most wei one transaction may move (decimal) */
    maxValueWei: string | null;
    /** the most wei one transaction may spend on fees: gasLimit × the highest fee per gas it offers (decimal) */
    maxFeeWei: string | null;
    /**
     * the addresses a transaction may call or pay, and typed data's `domain.verifyingContract` must name (typed data
     * without one is refused); contract creation is refused when set
     */
    contracts: string[] | null;
    /** the EIP-712 `primaryType`s typed data may have */
    typedDataPrimaryTypes: string[] | null;
  };
  sol: {
    /** the programs every instruction must belong to (base58) */
    programs: string[] | null;
    /**
     * the most lamports one transaction's System instructions may move (Transfer, TransferWithSeed, CreateAccount and
     * CreateAccountWithSeed, summed; decimal). When any `sol` limit is set, every other System instruction is refused.
     */
    maxLamports: string | null;
    /** the most micro-lamports of priority fee: ComputeBudget's unit price × its unit limit (decimal) */
    maxPriorityMicroLamports: string | null;
  };
  sui: {
    /** the Move packages a MoveCall may call (0x-hex ids); Publish and Upgrade are refused when set */
    packages: string[] | null;
    /**
     * whether coins and objects may be moved: TransferObjects, SplitCoins, MergeCoins and the Sui framework's
     * transfer, pay and coin-moving Move functions
     */
    allowTransfers: boolean;
    /** the most MIST the transaction's gas budget may be (decimal) */
    maxGasBudget: string | null;
  };
}

export const DEFAULT_SIGNING_POLICY: SigningPolicy = {
  operations: { apiKey: ['message', 'transaction', 'typed-data'], profile: ['message'] },
  evm: { chainIds: null, maxValueWei: null, maxFeeWei: null, contracts: null, typedDataPrimaryTypes: null },
  sol: { programs: null, maxLamports: null, maxPriorityMicroLamports: null },
  sui: { packages: null, allowTransfers: true, maxGasBudget: null },
};

/** A policy as stored or sent before a field existed, with each missing limit `null` (no limit, as it was). */
export function withPolicyDefaults(policy: DeepPartialPolicy): SigningPolicy {
  return {
    operations: { ...DEFAULT_SIGNING_POLICY.operations, ...policy.operations },
    evm: { ...DEFAULT_SIGNING_POLICY.evm, ...policy.evm },
    sol: { ...DEFAULT_SIGNING_POLICY.sol, ...policy.sol },
    sui: { ...DEFAULT_SIGNING_POLICY.sui, ...policy.sui },
  };
}

type DeepPartialPolicy = { [K in keyof SigningPolicy]?: Partial<SigningPolicy[K]> };

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

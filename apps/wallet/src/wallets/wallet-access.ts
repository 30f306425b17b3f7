import { GamePrincipal, Ownership, requireOwned } from '@game-wallet/contracts';
import { isUuid } from '@game-wallet/database';
import { WalletPublic } from './wallets.repository';

const WALLET_OWNERSHIP: Ownership<WalletPublic> = {
  notFound: ['WALLET_NOT_FOUND', 'No wallet with this id'],
  forbidden: 'This wallet belongs to another game or profile',
  profileOf: (wallet) => wallet.profileId,
};

/** 404 when there is no such wallet (a malformed id included), then 403 for another game's or another profile's. */
export function checkWalletAccess<W extends WalletPublic>(walletId: string, wallet: W | null, caller: GamePrincipal): W {
  return requireOwned(isUuid(walletId) ? wallet : null, caller, WALLET_OWNERSHIP);
}

import { AppError, GamePrincipal } from '@game-wallet/contracts';
import { isUuid } from '@game-wallet/database';
import { WalletPublic } from './wallets.repository';

export type GameCaller = GamePrincipal;

/** 404 when there is no such wallet (a malformed id included), then 403 for another game's or another profile's. */
export function checkWalletAccess<W extends WalletPublic>(walletId: string, wallet: W | null, caller: GameCaller): W {
  if (!wallet || !isUuid(walletId)) {
    throw new AppError('WALLET_NOT_FOUND', 'No wallet with this id');
  }
  if (wallet.applicationId !== caller.applicationId || (caller.kind === 'profile' && caller.profileId !== wallet.profileId)) {
    throw new AppError('FORBIDDEN', 'This wallet belongs to another game or profile');
  }
  return wallet;
}

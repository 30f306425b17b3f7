import { Inject, Injectable } from '@nestjs/common';
import { AppError, GamePrincipal, WalletAddresses, WalletView } from '@game-wallet/contracts';
import { isUuid, newId } from '@game-wallet/database';
import { sealEntropy } from '../keys/envelope';
import { KeyGenerator } from '../keys/key-generator';
import { MasterKeyring } from '../keys/master-keyring';
import { MASTER_KEYS } from '../keys/master-keys';
import { WalletEntity } from './entities/wallet.entity';
import { checkWalletAccess } from './wallet-access';
import { WalletCache } from './wallet-cache';
import { WalletPublic, WalletsRepository } from './wallets.repository';

export function addressesOf(wallet: WalletPublic): WalletAddresses {
  return { evm: wallet.addressEvm, sol: wallet.addressSol, sui: wallet.addressSui };
}

export function toWalletView(wallet: WalletPublic): WalletView {
  return {
    id: wallet.id,
    applicationId: wallet.applicationId,
    profileId: wallet.profileId,
    createdAt: wallet.createdAt.toISOString(),
    lastUsedAt: wallet.lastUsedAt.toISOString(),
    addresses: addressesOf(wallet),
  };
}

/** Wallets: one per profile, made once (keys generated off the event loop), read scoped by the caller. */
@Injectable()
export class WalletsService {
  constructor(
    private readonly wallets: WalletsRepository,
    private readonly cache: WalletCache,
    private readonly generator: KeyGenerator,
    @Inject(MASTER_KEYS) private readonly masterKeys: MasterKeyring,
  ) {}

  /** The profile's wallet, made on first call; safe to call any number of times, concurrently included. */
  async createOrGet(applicationId: string, profileId: string): Promise<{ walletId: string; created: boolean }> {
    if (!isUuid(profileId)) {
      throw new AppError('PROFILE_NOT_FOUND', 'No profile with this id');
    }
    const existing = await this.wallets.findIdForProfile(applicationId, profileId);
    if (existing) {
      return { walletId: existing, created: false };
    }
    const id = newId();
    const { entropy, dataKey, addresses, sealedChainKeys } = await this.generator.generate({ id, applicationId, profileId });
    const now = new Date();
    try {
      // The data key the worker sealed the chain keys with now seals the entropy and is wrapped (and zeroed).
      const sealed = await sealEntropy({ id, applicationId, profileId }, entropy, this.masterKeys, dataKey);
      const wallet: WalletEntity = {
        id,
        applicationId,
        profileId,
        addressEvm: addresses.evm,
        addressSol: addresses.sol,
        addressSui: addresses.sui,
        createdAt: now,
        lastUsedAt: now,
        ...sealed,
        sealedEvmKey: sealedChainKeys.evm,
        sealedSolKey: sealedChainKeys.sol,
        sealedSuiKey: sealedChainKeys.sui,
      };
      if (await this.wallets.insertIfAbsent(wallet)) {
        return { walletId: id, created: true };
      }
    } finally {
      entropy.fill(0);
      dataKey.fill(0);
    }
    return { walletId: (await this.wallets.findIdForProfile(applicationId, profileId)) as string, created: false };
  }

  /** A read: from memory when this replica has seen the wallet (see {@link WalletCache}). */
  async get(walletId: string, caller: GamePrincipal): Promise<WalletPublic> {
    let wallet = this.cache.get(walletId) ?? null;
    if (!wallet && isUuid(walletId)) {
      wallet = await this.wallets.findPublic(walletId);
      if (wallet) {
        this.cache.set(wallet);
      }
    }
    return checkWalletAccess(walletId, wallet, caller);
  }

  /** For signing: the row with its sealed secret, checked like a read. */
  async getWithSecret(walletId: string, caller: GamePrincipal): Promise<WalletEntity> {
    return checkWalletAccess(walletId, isUuid(walletId) ? await this.wallets.findWithSecret(walletId) : null, caller);
  }

  /** Addresses of a game's wallets, by id (the console's player list). */
  async addresses(applicationId: string, walletIds: string[]): Promise<Record<string, WalletAddresses>> {
    const ids = walletIds.filter(isUuid);
    const rows = ids.length === 0 ? [] : await this.wallets.findAddresses(applicationId, ids);
    return Object.fromEntries(rows.map((row) => [row.id, { evm: row.addressEvm, sol: row.addressSol, sui: row.addressSui }]));
  }
}

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
    const { entropy, addresses } = await this.generator.generate();
    const id = newId();
    const now = new Date();
    try {
      const sealed = await sealEntropy({ id, applicationId, profileId }, entropy, this.masterKeys);
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
      };
      if (await this.wallets.insertIfAbsent(wallet)) {
        return { walletId: id, created: true };
      }
    } finally {
      entropy.fill(0);
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

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { WalletEntity } from './entities/wallet.entity';

@Injectable()
export class WalletsRepository {
  constructor(@InjectRepository(WalletEntity) private readonly wallets: Repository<WalletEntity>) {}

  findById(id: string): Promise<WalletEntity | null> {
    return this.wallets.findOneBy({ id });
  }

  findForProfile(applicationId: string, profileId: string): Promise<WalletEntity | null> {
    return this.wallets.findOneBy({ applicationId, profileId });
  }

  /** Inserts unless the profile already has a wallet; true when this call inserted it. */
  async insertIfAbsent(wallet: WalletEntity): Promise<boolean> {
    const result = await this.wallets.createQueryBuilder().insert().into(WalletEntity).values(wallet).orIgnore().returning(['id']).execute();
    return result.raw.length > 0;
  }

  /** The addresses of a game's wallets among `ids`. */
  findAddresses(applicationId: string, ids: string[]): Promise<Pick<WalletEntity, 'id' | 'addressEvm' | 'addressSol' | 'addressSui'>[]> {
    return this.wallets.find({ select: ['id', 'addressEvm', 'addressSol', 'addressSui'], where: { applicationId, id: In(ids) } });
  }

  async touch(applicationId: string, id: string, at: Date, manager: EntityManager): Promise<void> {
    await manager.update(WalletEntity, { applicationId, id }, { lastUsedAt: at });
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.wallets.manager.transaction(work);
  }
}

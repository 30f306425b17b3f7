import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { WalletEntity } from './entities/wallet.entity';

/** A wallet without its sealed secret. */
export type WalletPublic = Pick<WalletEntity, 'id' | 'applicationId' | 'profileId' | 'addressEvm' | 'addressSol' | 'addressSui' | 'createdAt' | 'lastUsedAt'>;

@Injectable()
export class WalletsRepository {
  constructor(@InjectRepository(WalletEntity) private readonly wallets: Repository<WalletEntity>) {}

  /** The whole row, sealed secret included: for signing only. */
  findWithSecret(id: string): Promise<WalletEntity | null> {
    return this.wallets.findOneBy({ id });
  }

  /** What a read shows: never the sealed secret. */
  async findPublic(id: string): Promise<WalletPublic | null> {
    const rows: WalletPublic[] = await this.wallets.query(
      `SELECT id, application_id AS "applicationId", profile_id AS "profileId", address_evm AS "addressEvm", address_sol AS "addressSol",
              address_sui AS "addressSui", created_at AS "createdAt", last_used_at AS "lastUsedAt"
       FROM wallet.wallets WHERE id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  async findIdForProfile(applicationId: string, profileId: string): Promise<string | null> {
    const rows: { id: string }[] = await this.wallets.query('SELECT id FROM wallet.wallets WHERE application_id = $1 AND profile_id = $2', [applicationId, profileId]);
    return rows[0]?.id ?? null;
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

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
    const inserted: { id: string }[] = await this.wallets.query(
      `INSERT INTO wallet.wallets (id, application_id, profile_id, address_evm, address_sol, address_sui, created_at, last_used_at,
                                   entropy_ciphertext, entropy_iv, entropy_tag, data_key_ciphertext, data_key_iv, data_key_tag, master_key_id, aad_version)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
       ON CONFLICT DO NOTHING RETURNING id`,
      [
        wallet.id,
        wallet.applicationId,
        wallet.profileId,
        wallet.addressEvm,
        wallet.addressSol,
        wallet.addressSui,
        wallet.createdAt,
        wallet.lastUsedAt,
        wallet.entropyCiphertext,
        wallet.entropyIv,
        wallet.entropyTag,
        wallet.dataKeyCiphertext,
        wallet.dataKeyIv,
        wallet.dataKeyTag,
        wallet.masterKeyId,
        wallet.aadVersion,
      ],
    );
    return inserted.length > 0;
  }

  /** The addresses of a game's wallets among `ids`. */
  findAddresses(applicationId: string, ids: string[]): Promise<Pick<WalletEntity, 'id' | 'addressEvm' | 'addressSol' | 'addressSui'>[]> {
    return this.wallets.find({ select: ['id', 'addressEvm', 'addressSol', 'addressSui'], where: { applicationId, id: In(ids) } });
  }

  /**
   * Moves `lastUsedAt` forward to `at` (never back, whatever order concurrent signatures commit in). By primary key
   * alone: the caller has already checked the wallet is the caller's, and a fresh table without statistics could
   * otherwise lead the planner to walk the game's (application_id, profile_id) index.
   */
  async touch(id: string, at: Date, manager: EntityManager): Promise<void> {
    await manager.query('UPDATE wallet.wallets SET last_used_at = GREATEST(last_used_at, $2) WHERE id = $1', [id, at]);
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.wallets.manager.transaction(work);
  }
}

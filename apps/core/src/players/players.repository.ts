import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { PlayerEntity } from './entities/player.entity';

@Injectable()
export class PlayersRepository {
  constructor(@InjectRepository(PlayerEntity) private readonly players: Repository<PlayerEntity>) {}

  /** Inserts the pending player unless the game already has one with this uniqueId; returns the stored row. */
  async insertOrGet(player: PlayerEntity): Promise<{ player: PlayerEntity; inserted: boolean }> {
    const result = await this.players.createQueryBuilder().insert().into(PlayerEntity).values(player as QueryDeepPartialEntity<PlayerEntity>).orIgnore().returning(['id']).execute();
    if (result.raw.length > 0) {
      return { player, inserted: true };
    }
    return { player: await this.players.findOneByOrFail({ applicationId: player.applicationId, uniqueId: player.uniqueId }), inserted: false };
  }

  /**
   * Marks the player ready with its profile and wallet, if it is still pending; returns the stored row either way (so
   * a second, concurrent completion does not touch a player another one already completed).
   */
  async complete(player: PlayerEntity, profileId: string, walletId: string, at: Date): Promise<PlayerEntity> {
    const [updated]: [PlayerEntity[], number] = await this.players.query(
      `UPDATE core.players SET profile_id = $3, wallet_id = $4, status = 'ready', updated_at = $5
       WHERE id = $1 AND application_id = $2 AND status = 'pending'
       RETURNING updated_at AS "updatedAt"`,
      [player.id, player.applicationId, profileId, walletId, at],
    );
    if (updated.length > 0) {
      return { ...player, profileId, walletId, status: 'ready', updatedAt: updated[0].updatedAt };
    }
    return this.players.findOneByOrFail({ id: player.id });
  }

  findReady(id: string): Promise<PlayerEntity | null> {
    return this.players.findOneBy({ id, status: 'ready' });
  }

  /** A game's ready players, newest first; `uniqueId` filters to an exact match. */
  listReady(applicationId: string, limit: number, beforeId?: string, uniqueId?: string): Promise<PlayerEntity[]> {
    const query = this.players
      .createQueryBuilder('p')
      .where('p.application_id = :applicationId AND p.status = :ready', { applicationId, ready: 'ready' })
      .orderBy('p.id', 'DESC')
      .take(limit);
    if (beforeId !== undefined) {
      query.andWhere('p.id < :beforeId', { beforeId });
    }
    if (uniqueId !== undefined) {
      query.andWhere('p.unique_id = :uniqueId', { uniqueId });
    }
    return query.getMany();
  }
}

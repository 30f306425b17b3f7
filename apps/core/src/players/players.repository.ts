import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { PlayerEntity } from './entities/player.entity';

@Injectable()
export class PlayersRepository {
  constructor(@InjectRepository(PlayerEntity) private readonly players: Repository<PlayerEntity>) {}

  /** Inserts the pending player unless the game already has one with this uniqueId; returns the stored row. */
  async insertOrGet(player: PlayerEntity): Promise<{ player: PlayerEntity; inserted: boolean }> {
    const inserted: { id: string }[] = await this.players.query(
      `INSERT INTO core.players (id, application_id, unique_id, image, user_data, profile_id, wallet_id, status, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10)
       ON CONFLICT DO NOTHING RETURNING id`,
      [player.id, player.applicationId, player.uniqueId, player.image, JSON.stringify(player.userData), player.profileId, player.walletId, player.status, player.createdAt, player.updatedAt],
    );
    if (inserted.length > 0) {
      return { player, inserted: true };
    }
    return { player: await this.players.findOneByOrFail({ applicationId: player.applicationId, uniqueId: player.uniqueId }), inserted: false };
  }

  /**
   * Marks the player ready with its profile and wallet, if it is still pending; returns the stored row either way (so
   * a second, concurrent completion does not touch a player another one already completed). The row is found by its
   * primary key alone — it came from this game's own insert or lookup — so the planner cannot pick the game's
   * (application_id, …) index and walk every player of the game while a fresh table has no statistics yet.
   */
  async complete(player: PlayerEntity, profileId: string, walletId: string, at: Date): Promise<PlayerEntity> {
    const [updated]: [PlayerEntity[], number] = await this.players.query(
      `UPDATE core.players SET profile_id = $2, wallet_id = $3, status = 'ready', updated_at = $4
       WHERE id = $1 AND status = 'pending'
       RETURNING updated_at AS "updatedAt"`,
      [player.id, profileId, walletId, at],
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

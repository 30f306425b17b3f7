import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, LessThan, Repository } from 'typeorm';
import { GameEntity } from './entities/game.entity';

@Injectable()
export class GamesRepository {
  constructor(@InjectRepository(GameEntity) private readonly games: Repository<GameEntity>) {}

  findById(id: string): Promise<GameEntity | null> {
    return this.games.findOneBy({ id });
  }

  async insert(game: GameEntity, manager: EntityManager): Promise<void> {
    await manager.insert(GameEntity, game);
  }

  /** Games, newest first, strictly older than `beforeId`. */
  list(limit: number, beforeId?: string): Promise<GameEntity[]> {
    return this.games.find({ where: beforeId === undefined ? {} : { id: LessThan(beforeId) }, order: { id: 'DESC' }, take: limit });
  }

  /** How many API keys each of `gameIds` has (deleted keys are gone); a game without keys is absent. */
  async apiKeyCounts(gameIds: string[]): Promise<Map<string, number>> {
    if (gameIds.length === 0) {
      return new Map();
    }
    const rows: { application_id: string; count: number }[] = await this.games.query(
      'SELECT application_id, count(*)::int AS count FROM identity.api_keys WHERE application_id = ANY($1::uuid[]) GROUP BY application_id',
      [gameIds],
    );
    return new Map(rows.map((row) => [row.application_id, row.count]));
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.games.manager.transaction(work);
  }
}

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { And, EntityManager, FindOptionsWhere, In, LessThan, Repository } from 'typeorm';
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

  /** Games, newest first, strictly older than `beforeId`; `only`: just these ids (null: every game). */
  list(limit: number, beforeId: string | undefined, only: string[] | null): Promise<GameEntity[]> {
    const where: FindOptionsWhere<GameEntity> = {};
    if (beforeId !== undefined) {
      where.id = only === null ? LessThan(beforeId) : And(LessThan(beforeId), In(only));
    } else if (only !== null) {
      where.id = In(only);
    }
    return this.games.find({ where, order: { id: 'DESC' }, take: limit });
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

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

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.games.manager.transaction(work);
  }
}

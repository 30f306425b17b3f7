import { Injectable } from '@nestjs/common';
import { AppError, GameSummaryView, GameView, Page, Principal, decodeCursor, pageOf } from '@game-wallet/contracts';
import { isUuid, newId } from '@game-wallet/database';
import { AuditService } from '../audit/audit.service';
import { GameEntity } from './entities/game.entity';
import { GamesRepository } from './games.repository';

export function toGameView(game: GameEntity): GameView {
  return { id: game.id, name: game.name, createdAt: game.createdAt.toISOString() };
}

@Injectable()
export class GamesService {
  constructor(
    private readonly games: GamesRepository,
    private readonly audit: AuditService,
  ) {}

  /** The game, or 404 `GAME_NOT_FOUND` (a malformed id is simply not found). */
  async get(gameId: string): Promise<GameEntity> {
    const game = isUuid(gameId) ? await this.games.findById(gameId) : null;
    if (!game) {
      throw new AppError('GAME_NOT_FOUND', 'No game with this id');
    }
    return game;
  }

  /** A page of games, newest first, each with its API key count; `only`: just these games (null: every game). */
  async list(limit: number, cursor: string | undefined, only: string[] | null): Promise<Page<GameSummaryView>> {
    const page = pageOf(await this.games.list(limit + 1, decodeCursor(cursor), only), limit, toGameView);
    const counts = await this.games.apiKeyCounts(page.items.map((game) => game.id));
    return { ...page, items: page.items.map((game) => ({ ...game, apiKeyCount: counts.get(game.id) ?? 0 })) };
  }

  create(name: string, principal: Principal): Promise<GameView> {
    const game: GameEntity = { id: newId(), name, createdAt: new Date() };
    return this.games.transaction(async (manager) => {
      await this.games.insert(game, manager);
      await this.audit.record({ applicationId: game.id, principal, action: 'game.created', target: `game:${game.id}`, details: { name } }, manager);
      return toGameView(game);
    });
  }
}

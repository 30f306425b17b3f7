import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { GameSummaryView, GameView, MessageEnvelope, PATTERNS, Page, RequestOf, requireOperator } from '@game-wallet/contracts';
import { GamesService, toGameView } from './games.service';

@Controller()
export class GamesController {
  constructor(private readonly games: GamesService) {}

  @MessagePattern(PATTERNS.identity.listGames)
  list(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'identity.games.list'>>): Promise<Page<GameSummaryView>> {
    requireOperator(principal);
    return this.games.list(payload.limit, payload.cursor);
  }

  @MessagePattern(PATTERNS.identity.createGame)
  create(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'identity.games.create'>>): Promise<GameView> {
    return this.games.create(payload.name, requireOperator(principal));
  }

  @MessagePattern(PATTERNS.identity.getGame)
  async get(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'identity.games.get'>>): Promise<GameView> {
    requireOperator(principal);
    return toGameView(await this.games.get(payload.gameId));
  }
}

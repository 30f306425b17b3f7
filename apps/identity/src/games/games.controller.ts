import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { GameSummaryView, GameView, PATTERNS, Page, requireOperator } from '@game-wallet/contracts';
import { EnvelopeOf, Handles } from '@game-wallet/transport';
import { GamesService, toGameView } from './games.service';

@Controller()
export class GamesController {
  constructor(private readonly games: GamesService) {}

  @Handles(PATTERNS.identity.listGames)
  list(@Payload() { payload, principal }: EnvelopeOf<'identity.games.list'>): Promise<Page<GameSummaryView>> {
    requireOperator(principal);
    return this.games.list(payload.limit, payload.cursor);
  }

  @Handles(PATTERNS.identity.createGame)
  create(@Payload() { payload, principal }: EnvelopeOf<'identity.games.create'>): Promise<GameView> {
    return this.games.create(payload.name, requireOperator(principal));
  }

  @Handles(PATTERNS.identity.getGame)
  async get(@Payload() { payload, principal }: EnvelopeOf<'identity.games.get'>): Promise<GameView> {
    requireOperator(principal);
    return toGameView(await this.games.get(payload.gameId));
  }
}

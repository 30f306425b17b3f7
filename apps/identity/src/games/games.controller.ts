import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { GameSummaryView, GameView, PATTERNS, Page } from '@game-wallet/contracts';
import { EnvelopeOf, Handles } from '@game-wallet/transport';
import { ConsoleAccessService } from '../access/console-access.service';
import { GamesService, toGameView } from './games.service';

@Controller()
export class GamesController {
  constructor(
    private readonly games: GamesService,
    private readonly access: ConsoleAccessService,
  ) {}

  /** The games the operator's grants reach (every game with a grant for all of them). */
  @Handles(PATTERNS.identity.listGames)
  async list(@Payload() { payload, principal }: EnvelopeOf<'identity.games.list'>): Promise<Page<GameSummaryView>> {
    const caller = await this.access.member(principal);
    return this.games.list(payload.limit, payload.cursor, this.access.visibleGames(caller));
  }

  @Handles(PATTERNS.identity.createGame)
  async create(@Payload() { payload, principal }: EnvelopeOf<'identity.games.create'>): Promise<GameView> {
    const caller = await this.access.require(principal, 'games.create');
    return this.games.create(payload.name, this.access.acting(caller, null));
  }

  @Handles(PATTERNS.identity.getGame)
  async get(@Payload() { payload, principal }: EnvelopeOf<'identity.games.get'>): Promise<GameView> {
    await this.access.require(principal, 'games.read', payload.gameId);
    return toGameView(await this.games.get(payload.gameId));
  }
}

import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { PATTERNS, Page, PlayerView, requireApiKey } from '@game-wallet/contracts';
import { ConsoleAuthorizer } from '@game-wallet/service';
import { EnvelopeOf, Handles, RedisStreamsContext } from '@game-wallet/transport';
import { PlayersService } from './players.service';

@Controller()
export class PlayersController {
  constructor(
    private readonly players: PlayersService,
    private readonly access: ConsoleAuthorizer,
  ) {}

  @Handles(PATTERNS.core.createPlayer)
  create(
    @Payload() { payload, principal }: EnvelopeOf<'core.players.create'>,
    @Ctx() context: RedisStreamsContext,
  ): Promise<{ player: PlayerView; created: boolean }> {
    return this.players.create(payload, requireApiKey(principal), context.getRequestId());
  }

  @Handles(PATTERNS.core.getPlayer)
  get(@Payload() { payload, principal }: EnvelopeOf<'core.players.get'>): Promise<PlayerView> {
    return this.players.get(payload.playerId, requireApiKey(principal));
  }

  /** Console only (identity decides who may). */
  @Handles(PATTERNS.core.listPlayers)
  async list(@Payload() { payload, principal }: EnvelopeOf<'core.players.list'>, @Ctx() context: RedisStreamsContext): Promise<Page<PlayerView>> {
    await this.access.require(principal, 'players.read', payload.gameId, context);
    return this.players.list(payload.gameId, payload.limit, payload.cursor, payload.uniqueId);
  }
}

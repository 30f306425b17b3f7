import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { PATTERNS, Page, PlayerView, requireApiKey, requireOperator } from '@game-wallet/contracts';
import { EnvelopeOf, Handles, RedisStreamsContext } from '@game-wallet/transport';
import { PlayersService } from './players.service';

@Controller()
export class PlayersController {
  constructor(private readonly players: PlayersService) {}

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

  /** Console only (the gateway checked the session and that the game exists). */
  @Handles(PATTERNS.core.listPlayers)
  list(@Payload() { payload, principal }: EnvelopeOf<'core.players.list'>): Promise<Page<PlayerView>> {
    requireOperator(principal);
    return this.players.list(payload.gameId, payload.limit, payload.cursor, payload.uniqueId);
  }
}

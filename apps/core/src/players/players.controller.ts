import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { MessageEnvelope, PATTERNS, Page, PlayerView, RequestOf, requireApiKey, requireOperator } from '@game-wallet/contracts';
import { RedisStreamsContext } from '@game-wallet/transport';
import { PlayersService } from './players.service';

@Controller()
export class PlayersController {
  constructor(private readonly players: PlayersService) {}

  @MessagePattern(PATTERNS.core.createPlayer)
  create(
    @Payload() { payload, principal }: MessageEnvelope<RequestOf<'core.players.create'>>,
    @Ctx() context: RedisStreamsContext,
  ): Promise<{ player: PlayerView; created: boolean }> {
    return this.players.create(payload, requireApiKey(principal), context.getRequestId());
  }

  @MessagePattern(PATTERNS.core.getPlayer)
  get(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'core.players.get'>>): Promise<PlayerView> {
    return this.players.get(payload.playerId, requireApiKey(principal));
  }

  /** Console only (the gateway checked the session and that the game exists). */
  @MessagePattern(PATTERNS.core.listPlayers)
  list(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'core.players.list'>>): Promise<Page<PlayerView>> {
    requireOperator(principal);
    return this.players.list(payload.gameId, payload.limit, payload.cursor, payload.uniqueId);
  }
}

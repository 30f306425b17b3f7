import { Body, Controller, Get, Param, Post, Res } from '@nestjs/common';
import { Authenticated, Caller, ServiceCaller } from '@game-wallet/auth';
import { PATTERNS, PlayerView } from '@game-wallet/contracts';
import type { FastifyReply } from 'fastify';
import { ServiceCalls } from '../services/service-calls';
import { parseCreatePlayer } from './player-input';

/** Routes of `core_url` (SPEC §4.4, §4.5): players, with an API key only. */
@Controller('v1/player')
@Authenticated({ apiKey: true })
export class PlayersController {
  constructor(private readonly services: ServiceCalls) {}

  /** 201 with the new player; 200 with the existing one when the game already has this uniqueId. */
  @Post('create')
  async create(
    @Body() body: unknown,
    @Caller() caller: ServiceCaller,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PlayerView> {
    const { player, created } = await this.services.call(PATTERNS.core.createPlayer, parseCreatePlayer(body), caller);
    void reply.status(created ? 201 : 200);
    return player;
  }

  @Get(':playerId')
  get(@Param('playerId') playerId: string, @Caller() caller: ServiceCaller): Promise<PlayerView> {
    return this.services.call(PATTERNS.core.getPlayer, { playerId }, caller);
  }
}

import { Injectable } from '@nestjs/common';
import { ApiKeyPrincipal, Ownership, actorOf, PATTERNS, Page, PlayerView, decodeCursor, pageOf, requireOwned } from '@game-wallet/contracts';
import { isUuid, newId } from '@game-wallet/database';
import { RedisStreamsClient } from '@game-wallet/transport';
import { PlayerEntity } from './entities/player.entity';
import { PlayersRepository } from './players.repository';

/** Players are reached with the game's API key only. */
const PLAYER_OWNERSHIP: Ownership<PlayerEntity> = {
  notFound: ['PLAYER_NOT_FOUND', 'No player with this id'],
  forbidden: 'This player belongs to another game',
};

export function toPlayerView(player: PlayerEntity): PlayerView {
  return {
    id: player.id,
    applicationId: player.applicationId,
    uniqueId: player.uniqueId,
    image: player.image,
    userData: player.userData,
    profileId: player.profileId as string,
    walletId: player.walletId as string,
    createdAt: player.createdAt.toISOString(),
    updatedAt: player.updatedAt.toISOString(),
  };
}

/**
 * Player creation, idempotent by (game, uniqueId), in three steps that can each be repeated: (1) the pending player
 * row, (2) its profile — identity's create-or-get keyed by the player's id, (3) its wallet — the wallet service's
 * create-or-get keyed by the profile. A request that finds a pending player (a concurrent one, or one left by a
 * crash) runs the remaining steps itself; every step returns what the first run made, so nothing is made twice and
 * every answer carries the same ids.
 */
@Injectable()
export class PlayersService {
  constructor(
    private readonly players: PlayersRepository,
    private readonly transport: RedisStreamsClient,
  ) {}

  async create(
    input: { uniqueId: string; image: string | null; userData: Record<string, unknown> },
    caller: ApiKeyPrincipal,
    requestId: string,
  ): Promise<{ player: PlayerView; created: boolean }> {
    const now = new Date();
    const { player, inserted } = await this.players.insertOrGet({
      id: newId(),
      applicationId: caller.applicationId,
      uniqueId: input.uniqueId,
      image: input.image,
      userData: input.userData,
      profileId: null,
      walletId: null,
      status: 'pending',
      createdAt: now,
      updatedAt: now,
    });
    const ready = player.status === 'ready' ? player : await this.complete(player, caller, requestId);
    return { player: toPlayerView(ready), created: inserted };
  }

  /** Steps (2) and (3); both are keyed by what came before, so a repeat finds what the first run made. */
  private async complete(player: PlayerEntity, caller: ApiKeyPrincipal, requestId: string): Promise<PlayerEntity> {
    const profile = await this.transport.call(PATTERNS.identity.createOrGetProfile, { payload: { externalKey: `player:${player.id}` }, principal: caller }, { requestId });
    const wallet = await this.transport.call(PATTERNS.wallet.createOrGetWallet, { payload: { profileId: profile.id }, principal: caller }, { requestId });
    return this.players.complete(player, profile.id, wallet.walletId, new Date(), actorOf(caller));
  }

  /** 404 `PLAYER_NOT_FOUND` (pending players included), then 403 for another game's player. */
  async get(playerId: string, caller: ApiKeyPrincipal): Promise<PlayerView> {
    const player = isUuid(playerId) ? await this.players.findReady(playerId) : null;
    return toPlayerView(requireOwned(player, caller, PLAYER_OWNERSHIP));
  }

  async list(gameId: string, limit: number, cursor?: string, uniqueId?: string): Promise<Page<PlayerView>> {
    return pageOf(await this.players.listReady(gameId, limit + 1, decodeCursor(cursor), uniqueId), limit, toPlayerView);
  }
}

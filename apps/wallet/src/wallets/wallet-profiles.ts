import { Injectable } from '@nestjs/common';
import { GamePrincipal, PATTERNS, ProfileView } from '@game-wallet/contracts';
import { RedisStreamsClient, RedisStreamsContext } from '@game-wallet/transport';

/** A wallet's profile, asked of identity within what is left of the request's deadline (`include=profile`). */
@Injectable()
export class WalletProfiles {
  constructor(private readonly transport: RedisStreamsClient) {}

  read(profileId: string, caller: GamePrincipal, context: RedisStreamsContext): Promise<ProfileView> {
    return this.transport.call(PATTERNS.identity.getProfile, { payload: { profileId }, principal: caller }, {
      requestId: context.getRequestId(),
      timeoutMs: Math.max(1, context.getDeadline() - Date.now()),
    });
  }
}

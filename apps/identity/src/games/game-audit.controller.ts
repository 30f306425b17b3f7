import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AuditEntryView, MessageEnvelope, PATTERNS, Page, RequestOf, requireOperator } from '@game-wallet/contracts';
import { AuditService } from '../audit/audit.service';
import { GamesService } from './games.service';

/** A game's audit trail, for the console. */
@Controller()
export class GameAuditController {
  constructor(
    private readonly audit: AuditService,
    private readonly games: GamesService,
  ) {}

  @MessagePattern(PATTERNS.identity.listAudit)
  async list(@Payload() { payload, principal }: MessageEnvelope<RequestOf<'identity.audit.list'>>): Promise<Page<AuditEntryView>> {
    requireOperator(principal);
    const game = await this.games.get(payload.gameId);
    return this.audit.listForGame(game.id, payload.limit, payload.cursor);
  }
}

import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { AuditEntryView, AuditExportLineView, PATTERNS, Page, auditExportWindow } from '@game-wallet/contracts';
import { EnvelopeOf, Handles } from '@game-wallet/transport';
import { ConsoleAccessService } from '../access/console-access.service';
import { AuditService } from '../audit/audit.service';
import { GamesService } from './games.service';

/** A game's audit trail, for the console. */
@Controller()
export class GameAuditController {
  constructor(
    private readonly audit: AuditService,
    private readonly games: GamesService,
    private readonly access: ConsoleAccessService,
  ) {}

  @Handles(PATTERNS.identity.listAudit)
  async list(@Payload() { payload, principal }: EnvelopeOf<'identity.audit.list'>): Promise<Page<AuditEntryView>> {
    await this.access.require(principal, 'audit.read', payload.gameId);
    const game = await this.games.get(payload.gameId);
    return this.audit.listForGame(game.id, payload.limit, payload.cursor);
  }

  @Handles(PATTERNS.identity.exportAudit)
  async export(@Payload() { payload, principal }: EnvelopeOf<'identity.audit.export'>): Promise<{ lines: AuditExportLineView[] }> {
    await this.access.require(principal, 'audit.read', payload.gameId);
    const game = await this.games.get(payload.gameId);
    return { lines: await this.audit.exportForGame(auditExportWindow(game.id, payload)) };
  }
}

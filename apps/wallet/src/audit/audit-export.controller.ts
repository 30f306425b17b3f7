import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { AuditExportLineView, PATTERNS, auditExportWindow } from '@game-wallet/contracts';
import { ConsoleAuthorizer } from '@game-wallet/service';
import { EnvelopeOf, Handles, RedisStreamsContext } from '@game-wallet/transport';
import { AuditExportRepository } from './audit-export.repository';

/** The wallet's part of a game's audit export (the gateway streams both services' parts). */
@Controller()
export class AuditExportController {
  constructor(
    private readonly exports: AuditExportRepository,
    private readonly access: ConsoleAuthorizer,
  ) {}

  @Handles(PATTERNS.wallet.exportAudit)
  async export(@Payload() { payload, principal }: EnvelopeOf<'wallet.audit.export'>, @Ctx() context: RedisStreamsContext): Promise<{ lines: AuditExportLineView[] }> {
    await this.access.require(principal, 'audit.read', payload.gameId, context);
    return { lines: await this.exports.page(auditExportWindow(payload.gameId, payload)) };
  }
}

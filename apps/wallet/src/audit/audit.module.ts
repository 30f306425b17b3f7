import { Module } from '@nestjs/common';
import { ConsoleAuthorizer } from '@game-wallet/service';
import { AuditChainer } from './audit-chainer';
import { AuditExportController } from './audit-export.controller';
import { AuditExportRepository } from './audit-export.repository';

/** The wallet's audit hash chain: linking rows written without it, and the game's export. */
@Module({
  controllers: [AuditExportController],
  providers: [ConsoleAuthorizer, AuditExportRepository, AuditChainer],
})
export class WalletAuditModule {}

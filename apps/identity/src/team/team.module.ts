import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { passwordBoxProvider } from '../operators/password-box';
import { TokensModule } from '../tokens/tokens.module';
import { FirstOperator } from './first-operator';
import { InvitationMailer } from './invitation-mailer';
import { InvitationsController } from './invitations.controller';
import { InvitationsService } from './invitations.service';
import { SettingsService } from './settings.service';
import { TeamController } from './team.controller';
import { TeamRepository } from './team.repository';
import { TeamService } from './team.service';

/** The console's team: operators as owners manage them, invitations, the instance's console settings, the first owner. */
@Module({
  imports: [TokensModule, AuditModule],
  controllers: [TeamController, InvitationsController],
  providers: [TeamRepository, TeamService, InvitationsService, InvitationMailer, SettingsService, FirstOperator, passwordBoxProvider],
  exports: [FirstOperator, InvitationsService],
})
export class TeamModule {}

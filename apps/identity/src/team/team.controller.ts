import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ConsoleSessionEntryView, ConsoleSettingsView, OperatorView, PATTERNS } from '@game-wallet/contracts';
import { EnvelopeOf, Handles } from '@game-wallet/transport';
import { SettingsService } from './settings.service';
import { TeamService } from './team.service';

/** The team's operators, their sessions, and the instance's console settings. */
@Controller()
export class TeamController {
  constructor(
    private readonly team: TeamService,
    private readonly settings: SettingsService,
  ) {}

  @Handles(PATTERNS.identity.listOperators)
  list(@Payload() { principal }: EnvelopeOf<'identity.operators.list'>): Promise<{ items: OperatorView[] }> {
    return this.team.list(principal);
  }

  @Handles(PATTERNS.identity.updateOperator)
  update(@Payload() { payload, principal }: EnvelopeOf<'identity.operators.update'>): Promise<OperatorView> {
    return this.team.update(principal, payload.operatorId, { grants: payload.grants, status: payload.status });
  }

  @Handles(PATTERNS.identity.removeOperator)
  async remove(@Payload() { payload, principal }: EnvelopeOf<'identity.operators.remove'>): Promise<{ removed: true }> {
    await this.team.remove(principal, payload.operatorId);
    return { removed: true };
  }

  @Handles(PATTERNS.identity.listOperatorSessions)
  sessions(@Payload() { payload, principal }: EnvelopeOf<'identity.operators.sessions.list'>): Promise<{ items: ConsoleSessionEntryView[] }> {
    return this.team.sessions(principal, payload.operatorId);
  }

  @Handles(PATTERNS.identity.endOperatorSessions)
  endSessions(@Payload() { payload, principal }: EnvelopeOf<'identity.operators.sessions.end'>): Promise<{ ended: number }> {
    return this.team.endSessions(principal, payload.operatorId, payload.sessionId);
  }

  @Handles(PATTERNS.identity.getSettings)
  getSettings(@Payload() { principal }: EnvelopeOf<'identity.settings.get'>): Promise<ConsoleSettingsView> {
    return this.settings.get(principal);
  }

  @Handles(PATTERNS.identity.updateSettings)
  updateSettings(@Payload() { payload, principal }: EnvelopeOf<'identity.settings.update'>): Promise<ConsoleSettingsView> {
    return this.settings.update(principal, payload);
  }
}

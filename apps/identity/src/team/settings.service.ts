import { Injectable } from '@nestjs/common';
import { AppError, ConsoleSettingsView, Principal } from '@game-wallet/contracts';
import { ConsoleAccessService } from '../access/console-access.service';
import { AuditService } from '../audit/audit.service';
import { TeamRepository } from './team.repository';

/** The instance's console settings: every signed-in operator reads them, an owner of every game changes them. */
@Injectable()
export class SettingsService {
  constructor(
    private readonly team: TeamRepository,
    private readonly access: ConsoleAccessService,
    private readonly audit: AuditService,
  ) {}

  async get(principal: Principal): Promise<ConsoleSettingsView> {
    await this.access.current(principal);
    return { requireTwoFactor: await this.team.requireTwoFactor() };
  }

  async update(principal: Principal, change: { requireTwoFactor: boolean }): Promise<ConsoleSettingsView> {
    const caller = await this.access.require(principal, 'settings.manage');
    if (typeof change.requireTwoFactor !== 'boolean') {
      throw new AppError('VALIDATION_FAILED', 'requireTwoFactor is true or false');
    }
    const before = await this.team.requireTwoFactor();
    await this.team.setRequireTwoFactor(change.requireTwoFactor);
    await this.audit.record({
      applicationId: null,
      principal: this.access.acting(caller, null),
      action: 'settings.updated',
      target: 'console-settings',
      details: { before: { requireTwoFactor: before }, after: { requireTwoFactor: change.requireTwoFactor } },
    });
    return { requireTwoFactor: change.requireTwoFactor };
  }
}

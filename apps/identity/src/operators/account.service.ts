import { Inject, Injectable } from '@nestjs/common';
import { AppError, ConsoleAccountView, ConsoleSessionEntryView, OperatorPrincipal, isUuid } from '@game-wallet/contracts';
import { BoxKeyPair } from '@game-wallet/crypto';
import { ConsoleAccessService, ConsoleCaller } from '../access/console-access.service';
import { AuditService } from '../audit/audit.service';
import { RevocationsService } from '../tokens/revocations.service';
import { ConsoleSessionsRepository } from './console-sessions.repository';
import { ConsoleSessionEntity } from './entities/console-session.entity';
import { OperatorsRepository } from './operators.repository';
import { OperatorsService } from './operators.service';
import { PASSWORD_BOX, openPassword } from './password-box';
import { OwnPassword } from './own-password';
import { hashPassword } from './passwords';

/**
 * The signed-in operator's own account: display name, password, sessions. Open to every operator of a live session,
 * whatever their role (and also to one without the second factor the instance requires, so they can set it up).
 */
@Injectable()
export class AccountService {
  constructor(
    private readonly operators: OperatorsRepository,
    private readonly operatorsService: OperatorsService,
    private readonly sessions: ConsoleSessionsRepository,
    private readonly password: OwnPassword,
    private readonly revocations: RevocationsService,
    private readonly access: ConsoleAccessService,
    private readonly audit: AuditService,
    @Inject(PASSWORD_BOX) private readonly passwordBox: BoxKeyPair,
  ) {}

  async update(principal: OperatorPrincipal, displayName: string): Promise<ConsoleAccountView> {
    const caller = await this.access.current(principal);
    await this.operators.updateDisplayName(caller.operatorId, displayName);
    await this.record(caller, 'operator.account_updated', { displayName });
    return this.operatorsService.session(principal);
  }

  /**
   * Both passwords sealed by the gateway (the operator's e-mail as associated data). The current one is checked as a
   * sign-in is (its failures count per e-mail and address); the operator's other sessions end on every gateway.
   */
  async changePassword(principal: OperatorPrincipal, sealedCurrent: string, sealedNew: string): Promise<{ endedSessions: number }> {
    const caller = await this.access.current(principal);
    const current = openPassword(this.passwordBox, sealedCurrent, caller.email);
    const next = openPassword(this.passwordBox, sealedNew, caller.email);
    await this.password.check(caller, principal.ip ?? 'unknown', current, 'The current password is wrong');
    await this.operators.updatePasswordHash(caller.operatorId, await hashPassword(next));
    const ended = await this.endAndBroadcast(caller, { except: caller.sessionId });
    await this.record(caller, 'operator.password_changed', { endedSessions: ended.length });
    return { endedSessions: ended.length };
  }

  async listSessions(principal: OperatorPrincipal): Promise<{ items: ConsoleSessionEntryView[] }> {
    const caller = await this.access.current(principal);
    const open = await this.sessions.listOpen(caller.operatorId);
    return { items: open.map((session) => toSessionEntry(session, caller.sessionId)) };
  }

  /** Ends one of the operator's sessions (404 `NOT_FOUND` when it is not theirs or not open), or every other one. */
  async endSessions(principal: OperatorPrincipal, which: { sessionId?: string; others?: boolean }): Promise<{ ended: number }> {
    const caller = await this.access.current(principal);
    let ended: ConsoleSessionEntity[];
    if (which.sessionId !== undefined && which.others === undefined) {
      ended = isUuid(which.sessionId) ? await this.endAndBroadcast(caller, { sessionId: which.sessionId }) : [];
      if (ended.length === 0) {
        throw new AppError('NOT_FOUND', 'No open session of yours with this id');
      }
    } else if (which.others === true && which.sessionId === undefined) {
      ended = await this.endAndBroadcast(caller, { except: caller.sessionId });
    } else {
      throw new AppError('VALIDATION_FAILED', 'Name one session, or ask for every other one');
    }
    await this.record(caller, 'operator.sessions_ended', { sessionIds: ended.map((session) => session.id) });
    return { ended: ended.length };
  }

  private async endAndBroadcast(caller: ConsoleCaller, which: { sessionId: string } | { except: string }): Promise<ConsoleSessionEntity[]> {
    const ended = await this.sessions.end(caller.operatorId, which);
    await Promise.all(ended.map((session) => this.revocations.sessionRevoked(session.id, session.expiresAt)));
    return ended;
  }

  private record(caller: ConsoleCaller, action: string, details: Record<string, unknown>): Promise<void> {
    return this.audit.record({ applicationId: null, principal: this.access.acting(caller, null), action, target: `operator:${caller.operatorId}`, details });
  }
}

export function toSessionEntry(session: ConsoleSessionEntity, currentSessionId: string | null): ConsoleSessionEntryView {
  return {
    id: session.id,
    createdAt: session.createdAt.toISOString(),
    lastSeenAt: (session.lastSeenAt ?? session.createdAt).toISOString(),
    expiresAt: session.expiresAt.toISOString(),
    ip: session.ip,
    userAgent: session.userAgent,
    current: session.id === currentSessionId,
  };
}

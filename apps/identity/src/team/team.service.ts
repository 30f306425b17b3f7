import { Injectable } from '@nestjs/common';
import { AppError, ConsoleSessionEntryView, OperatorPrincipal, OperatorStatus, OperatorView, Principal, RoleGrant, isUuid } from '@game-wallet/contracts';
import { EntityManager } from 'typeorm';
import { ConsoleAccessService, ConsoleCaller } from '../access/console-access.service';
import { AuditService } from '../audit/audit.service';
import { RevocationsService } from '../tokens/revocations.service';
import { checkGrants, isOwnerOfEveryGame, reachedGrants, reachesAll, replaceReachedGrants, sortedGrants } from './grants';
import { TeamMember, TeamRepository } from './team.repository';

/**
 * The team as owners manage it: operators, their roles, status and sessions. An owner of every game reaches everyone;
 * an owner of listed games sees the operators with a grant in one of them (and only those grants), and gives or takes
 * grants within them only. Suspending or removing an operator needs every grant they hold within reach, and ends all
 * their sessions on every gateway.
 */
@Injectable()
export class TeamService {
  constructor(
    private readonly team: TeamRepository,
    private readonly access: ConsoleAccessService,
    private readonly revocations: RevocationsService,
    private readonly audit: AuditService,
  ) {}

  async list(principal: Principal): Promise<{ items: OperatorView[] }> {
    const caller = await this.access.require(principal, 'operators.read');
    const members = await this.team.listMembers(ownedGames(caller));
    return { items: members.map((member) => toOperatorView(member, caller.grants)) };
  }

  async update(principal: Principal, operatorId: string, change: { grants?: RoleGrant[]; status?: OperatorStatus }): Promise<OperatorView> {
    const caller = await this.access.require(principal, 'operators.manage');
    const wanted = change.grants === undefined ? undefined : await this.validGrants(change.grants);
    if (change.status !== undefined && change.status !== 'active' && change.status !== 'suspended') {
      throw new AppError('VALIDATION_FAILED', 'status is active or suspended');
    }
    const { after, ended } = await this.team.locked(async (manager) => {
      const target = await this.reachableMember(caller, operatorId, manager);
      const grants = wanted === undefined ? target.grants : replaceReachedGrants(caller.grants, target.grants, wanted);
      const status = change.status ?? target.status;
      if (status !== target.status) {
        if (target.id === caller.operatorId) {
          throw new AppError('FORBIDDEN', 'You cannot suspend yourself; another owner can');
        }
        if (!reachesAll(caller.grants, target.grants)) {
          throw new AppError('FORBIDDEN', 'Suspending this operator needs every game they have a role in: ask an owner of every game');
        }
      }
      await this.keepAnOwnerOfEveryGame(target, status === 'active' && isOwnerOfEveryGame(grants), manager);
      if (wanted !== undefined) {
        await this.team.replaceGrants(target.id, grants, manager);
      }
      if (status !== target.status) {
        await this.team.setStatus(target.id, status, manager);
      }
      const suspending = status === 'suspended' && target.status !== 'suspended';
      const endedSessions = suspending ? await this.team.endSessions(target.id, null, manager) : [];
      // A suspended operator's pending invitations stop working too (an account suspended as compromised may have invited).
      if (suspending) {
        await this.team.revokeInvitationsBy(target.id, manager);
      }
      await this.audit.record(
        {
          applicationId: null,
          principal: teamActor(this.access, caller),
          action: 'operator.updated',
          target: `operator:${target.id}`,
          details: {
            email: target.email,
            before: { status: target.status, grants: sortedGrants(target.grants) },
            after: { status, grants: sortedGrants(grants) },
            ...(endedSessions.length > 0 ? { endedSessions: endedSessions.length } : {}),
          },
        },
        manager,
      );
      return { after: { ...target, grants, status }, ended: endedSessions };
    });
    await this.revocations.sessionsRevoked(ended);
    return toOperatorView(after, caller.grants);
  }

  async remove(principal: Principal, operatorId: string): Promise<void> {
    const caller = await this.access.require(principal, 'operators.manage');
    const ended = await this.team.locked(async (manager) => {
      const target = await this.reachableMember(caller, operatorId, manager);
      if (target.id === caller.operatorId) {
        throw new AppError('FORBIDDEN', 'You cannot remove yourself; another owner can');
      }
      if (!reachesAll(caller.grants, target.grants)) {
        throw new AppError('FORBIDDEN', 'Removing this operator needs every game they have a role in: ask an owner of every game');
      }
      await this.keepAnOwnerOfEveryGame(target, false, manager);
      await this.team.setStatus(target.id, 'removed', manager);
      await this.team.replaceGrants(target.id, [], manager);
      const sessions = await this.team.endSessions(target.id, null, manager);
      const invitations = await this.team.revokeInvitationsBy(target.id, manager);
      await this.audit.record(
        {
          applicationId: null,
          principal: teamActor(this.access, caller),
          action: 'operator.removed',
          target: `operator:${target.id}`,
          details: { email: target.email, grants: sortedGrants(target.grants), status: target.status, endedSessions: sessions.length, revokedInvitations: invitations },
        },
        manager,
      );
      return sessions;
    });
    await this.revocations.sessionsRevoked(ended);
  }

  async sessions(principal: Principal, operatorId: string): Promise<{ items: ConsoleSessionEntryView[] }> {
    const caller = await this.access.require(principal, 'operators.read');
    const member = await this.reachableMember(caller, operatorId);
    // Where someone signs in from is theirs: only an owner who reaches every role they hold sees it.
    if (!reachesAll(caller.grants, member.grants)) {
      throw new AppError('FORBIDDEN', "Seeing this operator's sessions needs every game they have a role in");
    }
    const sessions = await this.team.openSessions(operatorId);
    return {
      items: sessions.map((session) => ({
        id: session.id,
        createdAt: session.createdAt.toISOString(),
        lastSeenAt: (session.lastSeenAt ?? session.createdAt).toISOString(),
        expiresAt: session.expiresAt.toISOString(),
        ip: session.ip,
        userAgent: session.userAgent,
        current: session.id === caller.sessionId,
      })),
    };
  }

  /** Ends one session of the operator's (`sessionId`) or all of them; 404 for a session that is not open. */
  async endSessions(principal: Principal, operatorId: string, sessionId?: string): Promise<{ ended: number }> {
    const caller = await this.access.require(principal, 'operators.manage');
    const target = await this.reachableMember(caller, operatorId);
    if (!reachesAll(caller.grants, target.grants)) {
      throw new AppError('FORBIDDEN', "Ending this operator's sessions needs every game they have a role in: ask an owner of every game");
    }
    const ended = sessionId === undefined || isUuid(sessionId) ? await this.team.endSessions(target.id, sessionId ?? null) : [];
    if (sessionId !== undefined && ended.length === 0) {
      throw new AppError('NOT_FOUND', 'No open session with this id');
    }
    await this.revocations.sessionsRevoked(ended);
    await this.audit.record({
      applicationId: null,
      principal: teamActor(this.access, caller),
      action: 'operator.sessions_ended',
      target: `operator:${target.id}`,
      details: { email: target.email, sessions: ended.map((session) => session.id) },
    });
    return { ended: ended.length };
  }

  /** The operator, when the caller sees them (a grant within reach, or the caller owns every game); else 404. */
  private async reachableMember(caller: ConsoleCaller, operatorId: string, manager?: EntityManager): Promise<TeamMember> {
    const member = isUuid(operatorId) ? await this.team.findMember(operatorId, manager) : null;
    if (!member || (!isOwnerOfEveryGame(caller.grants) && reachedGrants(caller.grants, member.grants).length === 0)) {
      throw new AppError('NOT_FOUND', 'No operator with this id');
    }
    return member;
  }

  /** 403 when the change would leave no active owner of every game (`staysOwner`: the operator still is one after it). */
  private async keepAnOwnerOfEveryGame(target: TeamMember, staysOwner: boolean, manager: EntityManager): Promise<void> {
    const isLastCandidate = target.status === 'active' && isOwnerOfEveryGame(target.grants);
    if (isLastCandidate && !staysOwner && !(await this.team.anotherActiveOwnerOfEveryGame(target.id, manager))) {
      throw new AppError('FORBIDDEN', 'This is the last active owner of every game: make another operator owner of every game first');
    }
  }

  /** Grants as a caller sent them, checked ({@link checkGrants}) and naming only games that exist (else 400). */
  async validGrants(input: readonly unknown[]): Promise<RoleGrant[]> {
    const grants = checkGrants(input);
    const ids = [...new Set(grants.flatMap((grant) => (grant.gameId === null ? [] : [grant.gameId])))];
    const existing = await this.team.existingGames(ids);
    if (ids.some((id) => !existing.has(id))) {
      throw new AppError('VALIDATION_FAILED', 'A grant names a game that does not exist');
    }
    return grants;
  }
}

/**
 * The caller as the audit trail records a team action: `acting(caller, null)` names the roles for every game, which an
 * owner of listed games has none of; they act as owner (the team permissions are owners' only).
 */
export function teamActor(access: ConsoleAccessService, caller: ConsoleCaller): OperatorPrincipal {
  const principal = access.acting(caller, null);
  return principal.roles !== undefined && principal.roles.length > 0 ? principal : { ...principal, roles: ['owner'] };
}

/** The games the caller owns, or null when they own every game (they see the whole team). */
export function ownedGames(caller: Pick<ConsoleCaller, 'grants'>): string[] | null {
  if (isOwnerOfEveryGame(caller.grants)) {
    return null;
  }
  return [...new Set(caller.grants.filter((grant) => grant.role === 'owner' && grant.gameId !== null).map((grant) => grant.gameId as string))];
}

/** The operator as the caller may see them: only the grants within the caller's reach. */
export function toOperatorView(member: TeamMember, callerGrants: readonly RoleGrant[]): OperatorView {
  return {
    id: member.id,
    email: member.email,
    displayName: member.displayName,
    status: member.status,
    grants: sortedGrants(reachedGrants(callerGrants, member.grants)),
    twoFactor: { totp: member.hasTotp, passkeys: member.passkeys },
    createdAt: member.createdAt.toISOString(),
    lastSignInAt: member.lastSignInAt?.toISOString() ?? null,
  };
}

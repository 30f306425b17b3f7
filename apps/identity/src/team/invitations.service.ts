import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  ConsoleSessionView,
  CreatedInvitationView,
  InvitationPreview,
  InvitationView,
  Principal,
  RoleGrant,
  isUuid,
  normalizeEmail,
} from '@game-wallet/contracts';
import { BoxKeyPair, IntegrityError, openSealed } from '@game-wallet/crypto';
import { newId } from '@game-wallet/database';
import { createHash, randomBytes } from 'node:crypto';
import { ConsoleAccessService } from '../access/console-access.service';
import { AuditService } from '../audit/audit.service';
import { InvitationEntity } from '../operators/entities/invitation.entity';
import { newOperator } from '../operators/operators.service';
import { SESSION_TTL_MS } from '../operators/sign-in.service';
import { PASSWORD_BOX } from '../operators/password-box';
import { hashPassword } from '../operators/passwords';
import { TokenIssuer } from '../tokens/token-issuer';
import { OWNER_OF_EVERY_GAME, reachedGrants, reachesAll, sortedGrants } from './grants';
import { InvitationMailer } from './invitation-mailer';
import { ownedGames, teamActor, TeamService } from './team.service';
import { InvitationRow, TeamRepository } from './team.repository';

/** How long an invitation link works. */
export const INVITATION_TTL_MS = 72 * 60 * 60 * 1000;
/** The SHA-256 (hex) of a token: what the gateway sends of the link's token. */
const TOKEN_HASH_FORMAT = /^[0-9a-f]{64}$/;
/** A plausible address, one line (the gateway checks the form more closely; the command line only this). */
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

/**
 * Invitations: single-use links (the token is 32 random bytes, stored only as its SHA-256) that expire after 72 hours
 * and can be revoked. Accepting one sets the new operator's password, gives them the invitation's grants and signs
 * them in; the invitation is marked accepted in the same transaction, under a row lock, so a link works once however
 * many accept it at the same moment.
 */
@Injectable()
export class InvitationsService {
  constructor(
    private readonly team: TeamRepository,
    private readonly members: TeamService,
    private readonly access: ConsoleAccessService,
    private readonly audit: AuditService,
    private readonly issuer: TokenIssuer,
    private readonly mailer: InvitationMailer,
    @Inject(PASSWORD_BOX) private readonly passwordBox: BoxKeyPair,
  ) {}

  async list(principal: Principal): Promise<{ items: InvitationView[] }> {
    const caller = await this.access.require(principal, 'operators.read');
    const rows = await this.team.listInvitations(ownedGames(caller));
    return { items: rows.map((row) => ({ ...toInvitationView(row), grants: sortedGrants(reachedGrants(caller.grants, row.grants)) })) };
  }

  async create(principal: Principal, input: { email: string; grants: RoleGrant[]; consoleUrl: string }): Promise<CreatedInvitationView> {
    const caller = await this.access.require(principal, 'operators.manage');
    const grants = await this.members.validGrants(input.grants);
    if (grants.length === 0) {
      throw new AppError('VALIDATION_FAILED', 'An invitation gives at least one role');
    }
    if (!reachesAll(caller.grants, grants)) {
      throw new AppError('FORBIDDEN', 'You can only give roles in games you own');
    }
    return this.invite(normalizeEmail(input.email), grants, input.consoleUrl, { id: caller.operatorId, email: caller.email }, teamActor(this.access, caller));
  }

  /**
   * An invitation to be owner of every game, made from the command line (`npm run operator:create`) for the first
   * owner of an instance, or with `force` to recover one when every owner is locked out.
   */
  async inviteFirstOwner(email: string, consoleUrl: string, force: boolean): Promise<CreatedInvitationView> {
    if (!force && (await this.team.countOperators()) > 0) {
      throw new AppError('FORBIDDEN', 'An operator exists already: an owner invites new operators from the Team page (or use --force-invite to recover)');
    }
    return this.invite(normalizeEmail(email), [OWNER_OF_EVERY_GAME], consoleUrl, null, { kind: 'system' });
  }

  async revoke(principal: Principal, invitationId: string): Promise<void> {
    const caller = await this.access.require(principal, 'operators.manage');
    const invitation = isUuid(invitationId) ? await this.team.findInvitation(invitationId) : null;
    if (!invitation || reachedGrants(caller.grants, invitation.grants).length === 0) {
      throw new AppError('NOT_FOUND', 'No pending invitation with this id');
    }
    if (!reachesAll(caller.grants, invitation.grants)) {
      throw new AppError('FORBIDDEN', 'This invitation gives roles in games you do not own: ask an owner of every game');
    }
    if (!(await this.team.revokeInvitation(invitation.id))) {
      throw new AppError('NOT_FOUND', 'No pending invitation with this id');
    }
    await this.audit.record({
      applicationId: null,
      principal: teamActor(this.access, caller),
      action: 'invitation.revoked',
      target: `invitation:${invitation.id}`,
      details: { email: invitation.email, grants: sortedGrants(invitation.grants) },
    });
  }

  /** `tokenHash`: the SHA-256 (hex) of the link's token, as the gateway sends it ({@link hashOf}). */
  async preview(tokenHash: string): Promise<InvitationPreview> {
    const invitation = await this.pending(tokenHash);
    return { email: invitation.email, grants: sortedGrants(invitation.grants), expiresAt: invitation.expiresAt.toISOString() };
  }

  /** `sealedPassword`: {@link consolePasswordDigest} sealed to identity's password key, the invitation's e-mail as associated data. */
  async accept(input: { tokenHash: string; sealedPassword: string; displayName: string; ip: string; userAgent?: string }): Promise<ConsoleSessionView> {
    // The token is checked before the (slow) password hash: a guessed token costs the guesser a request, not a hash.
    const found = await this.pending(input.tokenHash);
    const passwordHash = await hashPassword(this.openPassword(input.sealedPassword, found.email));
    const displayName = input.displayName.trim();
    if (displayName.length === 0 || displayName.length > 100) {
      throw new AppError('VALIDATION_FAILED', 'displayName: 1 to 100 characters');
    }
    const now = new Date();
    const operator = { ...newOperator(found.email, passwordHash, displayName), lastSignInAt: now };
    const session = {
      id: newId(),
      operatorId: operator.id,
      createdAt: now,
      expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
      revokedAt: null,
      ip: input.ip.slice(0, 64),
      userAgent: input.userAgent ?? null,
      lastSeenAt: now,
      // The password was just chosen: as at a sign-in, it counts as a fresh factor for step-up actions.
      secondFactorAt: now,
    };
    await this.team.locked(async (manager) => {
      const invitation = await this.team.findPending(input.tokenHash, manager);
      if (!invitation) {
        throw new AppError('NOT_FOUND', 'This invitation link is not valid: it was used, revoked or has expired');
      }
      if (await this.team.emailTaken(invitation.email, manager)) {
        throw new AppError('VALIDATION_FAILED', 'An operator with this e-mail exists already: sign in instead');
      }
      const existing = await this.team.existingGames(invitation.grants.flatMap((grant) => (grant.gameId === null ? [] : [grant.gameId])));
      await this.team.insertOperator(operator, invitation.grants.filter((grant) => grant.gameId === null || existing.has(grant.gameId)), manager);
      await this.team.insertSession(session, manager);
      await this.team.markAccepted(invitation.id, operator.id, manager);
      await this.audit.record(
        {
          applicationId: null,
          principal: { kind: 'operator', operatorId: operator.id, sessionId: session.id, ip: input.ip },
          action: 'invitation.accepted',
          target: `invitation:${invitation.id}`,
          details: { email: invitation.email, operatorId: operator.id, grants: sortedGrants(invitation.grants) },
        },
        manager,
      );
    });
    return { token: this.issuer.consoleToken(operator.id, session.id, session.expiresAt), expiresAt: session.expiresAt.toISOString() };
  }

  private async invite(
    email: string,
    grants: RoleGrant[],
    consoleUrl: string,
    inviter: { id: string; email: string } | null,
    principal: Principal,
  ): Promise<CreatedInvitationView> {
    const base = consoleBase(consoleUrl);
    if (!EMAIL.test(email)) {
      throw new AppError('VALIDATION_FAILED', 'email must be an e-mail address');
    }
    if (await this.team.emailTaken(email)) {
      throw new AppError('VALIDATION_FAILED', 'This e-mail already belongs to an operator of this console (active or suspended): change their roles instead');
    }
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    const invitation: InvitationEntity = {
      id: newId(),
      email,
      grants,
      tokenHash: hashOf(token),
      invitedBy: inviter?.id ?? null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
      acceptedAt: null,
      acceptedBy: null,
      revokedAt: null,
    };
    await this.team.insertInvitation(invitation);
    // A fragment: browsers never send it, so the token reaches no server's access log.
    const link = `${base}/console/invitation#token=${token}`;
    const mailed = await this.mailer.send({ to: email, link, expiresAt: invitation.expiresAt, invitedBy: inviter?.email ?? null });
    await this.audit.record({
      applicationId: null,
      principal,
      action: 'operator.invited',
      target: `invitation:${invitation.id}`,
      details: { email, grants: sortedGrants(grants), expiresAt: invitation.expiresAt.toISOString(), mailed },
    });
    return { ...toInvitationView({ ...invitation, inviterEmail: inviter?.email ?? null }), link, mailed };
  }

  /** The pending invitation of a token's hash; 404 for any that is malformed, unknown, used, revoked or expired. */
  private async pending(tokenHash: string): Promise<InvitationEntity> {
    const invitation = TOKEN_HASH_FORMAT.test(tokenHash) ? await this.team.findPending(tokenHash) : null;
    if (!invitation) {
      throw new AppError('NOT_FOUND', 'This invitation link is not valid: it was used, revoked or has expired');
    }
    return invitation;
  }

  private openPassword(sealedPassword: string, email: string): string {
    try {
      return openSealed(this.passwordBox, sealedPassword, Buffer.from(email)).toString('utf8');
    } catch (error) {
      if (error instanceof IntegrityError) {
        // Sealed to another key (identity's key-encryption key changed meanwhile): the gateway fetches the key again.
        throw new AppError('SERVICE_UNAVAILABLE', 'The password could not be read; try again');
      }
      throw new AppError('VALIDATION_FAILED', 'The password could not be read');
    }
  }
}

/** The SHA-256 (hex) of an invitation token: all that is stored of it. */
export function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The console's public address without a trailing slash; 400 for anything but an http(s) origin and path. */
function consoleBase(consoleUrl: string): string {
  let url: URL;
  try {
    url = new URL(consoleUrl);
  } catch {
    throw new AppError('VALIDATION_FAILED', 'consoleUrl must be an http(s) URL');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new AppError('VALIDATION_FAILED', 'consoleUrl must be an http(s) URL');
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

function toInvitationView(row: Omit<InvitationRow, 'tokenHash'> & { tokenHash?: string }): InvitationView {
  const status: InvitationView['status'] =
    row.acceptedAt !== null ? 'accepted' : row.revokedAt !== null ? 'revoked' : row.expiresAt.getTime() <= Date.now() ? 'expired' : 'pending';
  return {
    id: row.id,
    email: row.email,
    grants: sortedGrants(row.grants),
    invitedBy: row.inviterEmail ?? 'command line',
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    status,
  };
}

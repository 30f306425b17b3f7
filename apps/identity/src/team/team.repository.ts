import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { RoleGrant } from '@game-wallet/contracts';
import { newId } from '@game-wallet/database';
import { DataSource, EntityManager } from 'typeorm';
import { ConsoleSessionEntity } from '../operators/entities/console-session.entity';
import { InvitationEntity } from '../operators/entities/invitation.entity';
import { OperatorGrantEntity } from '../operators/entities/operator-grant.entity';
import { OperatorEntity } from '../operators/entities/operator.entity';

/** An operator of the team (never a removed one) with their grants and second factors. */
export interface TeamMember {
  id: string;
  email: string;
  displayName: string;
  status: 'active' | 'suspended';
  grants: RoleGrant[];
  hasTotp: boolean;
  passkeys: number;
  createdAt: Date;
  lastSignInAt: Date | null;
}

interface MemberRow {
  id: string;
  email: string;
  display_name: string;
  status: 'active' | 'suspended';
  grants: RoleGrant[];
  has_totp: boolean;
  passkeys: number;
  created_at: Date;
  last_sign_in_at: Date | null;
}

export interface InvitationRow extends InvitationEntity {
  /** the inviter's e-mail; null for an invitation made from the command line */
  inviterEmail: string | null;
}

/** Team changes are made one at a time (a PostgreSQL advisory lock), so two cannot both remove "the other" last owner. */
const TEAM_LOCK = 'game-wallet:identity:team';

const MEMBER_SELECT = `
  SELECT o.id, o.email, o.display_name, o.status, o.created_at, o.last_sign_in_at, o.totp_secret IS NOT NULL AS has_totp,
         (SELECT count(*)::int FROM identity.operator_passkeys p WHERE p.operator_id = o.id) AS passkeys,
         COALESCE((SELECT json_agg(json_build_object('role', g.role, 'gameId', g.game_id) ORDER BY g.game_id NULLS FIRST, g.role)
                   FROM identity.operator_grants g WHERE g.operator_id = o.id), '[]'::json) AS grants
    FROM identity.operators o`;

/** The team's records: operators, their grants and sessions, invitations and the instance's console settings. */
@Injectable()
export class TeamRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs `work` in a transaction, after every other team change has finished. */
  locked<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [TEAM_LOCK]);
      return work(manager);
    });
  }

  /** How many operators exist (removed ones do not count). */
  async countOperators(): Promise<number> {
    const [row] = await this.dataSource.query<{ count: number }[]>(`SELECT count(*)::int AS count FROM identity.operators WHERE status <> 'removed'`);
    return row.count;
  }

  /**
   * The team, oldest first: every operator that is not removed, or (`games` given) those holding a grant in one of
   * these games.
   */
  async listMembers(games: string[] | null): Promise<TeamMember[]> {
    const rows = await this.dataSource.query<MemberRow[]>(
      `${MEMBER_SELECT}
        WHERE o.status <> 'removed'
          AND ($1::uuid[] IS NULL OR EXISTS (SELECT 1 FROM identity.operator_grants g WHERE g.operator_id = o.id AND g.game_id = ANY($1::uuid[])))
        ORDER BY o.created_at, o.id`,
      [games],
    );
    return rows.map(toMember);
  }

  /** The operator (not removed); with `manager`, locked for the rest of the transaction. */
  async findMember(operatorId: string, manager?: EntityManager): Promise<TeamMember | null> {
    const rows = await (manager ?? this.dataSource.manager).query<MemberRow[]>(
      `${MEMBER_SELECT} WHERE o.id = $1 AND o.status <> 'removed'${manager ? ' FOR UPDATE OF o' : ''}`,
      [operatorId],
    );
    return rows[0] ? toMember(rows[0]) : null;
  }

  /** Whether another operator than `exceptId` is active and owner of every game. */
  async anotherActiveOwnerOfEveryGame(exceptId: string, manager: EntityManager): Promise<boolean> {
    const rows = await manager.query<unknown[]>(
      `SELECT 1 FROM identity.operators o JOIN identity.operator_grants g ON g.operator_id = o.id
        WHERE o.id <> $1 AND o.status = 'active' AND g.role = 'owner' AND g.game_id IS NULL LIMIT 1`,
      [exceptId],
    );
    return rows.length > 0;
  }

  /** The ids among `gameIds` that are games of the instance. */
  async existingGames(gameIds: string[]): Promise<Set<string>> {
    if (gameIds.length === 0) {
      return new Set();
    }
    const rows = await this.dataSource.query<{ id: string }[]>(`SELECT id FROM identity.games WHERE id = ANY($1::uuid[])`, [gameIds]);
    return new Set(rows.map((row) => row.id));
  }

  /** Whether an operator that is not removed has this (normalized) e-mail. */
  async emailTaken(email: string, manager?: EntityManager): Promise<boolean> {
    const rows = await (manager ?? this.dataSource.manager).query<unknown[]>(`SELECT 1 FROM identity.operators WHERE email = $1 AND status <> 'removed'`, [email]);
    return rows.length > 0;
  }

  async replaceGrants(operatorId: string, grants: RoleGrant[], manager: EntityManager): Promise<void> {
    await manager.delete(OperatorGrantEntity, { operatorId });
    if (grants.length > 0) {
      await manager.insert(OperatorGrantEntity, grants.map((grant) => ({ id: newId(), operatorId, gameId: grant.gameId, role: grant.role })));
    }
  }

  async setStatus(operatorId: string, status: OperatorEntity['status'], manager: EntityManager): Promise<void> {
    await manager.update(OperatorEntity, { id: operatorId }, { status, removedAt: status === 'removed' ? new Date() : null });
  }

  /** A new operator and their grants (in the caller's transaction). */
  async insertOperator(operator: OperatorEntity, grants: RoleGrant[], manager: EntityManager): Promise<void> {
    await manager.insert(OperatorEntity, operator);
    await this.replaceGrants(operator.id, grants, manager);
  }

  // ---- sessions ----

  /** The operator's sessions that are still open, newest first. */
  openSessions(operatorId: string): Promise<ConsoleSessionEntity[]> {
    return this.dataSource.query<ConsoleSessionEntity[]>(
      `SELECT id, operator_id AS "operatorId", created_at AS "createdAt", expires_at AS "expiresAt", revoked_at AS "revokedAt", ip,
              user_agent AS "userAgent", last_seen_at AS "lastSeenAt", second_factor_at AS "secondFactorAt"
         FROM identity.console_sessions
        WHERE operator_id = $1 AND revoked_at IS NULL AND expires_at > now()
        ORDER BY created_at DESC, id
        LIMIT 1000`,
      [operatorId],
    );
  }

  /** Ends the operator's open sessions (one, with `sessionId`); returns those it ended. */
  async endSessions(operatorId: string, sessionId: string | null, manager?: EntityManager): Promise<{ id: string; expiresAt: Date }[]> {
    const [rows] = await (manager ?? this.dataSource.manager).query<[{ id: string; expires_at: Date }[], number]>(
      `UPDATE identity.console_sessions SET revoked_at = now()
        WHERE operator_id = $1 AND ($2::uuid IS NULL OR id = $2::uuid) AND revoked_at IS NULL AND expires_at > now()
        RETURNING id, expires_at`,
      [operatorId, sessionId],
    );
    return rows.map((row) => ({ id: row.id, expiresAt: row.expires_at }));
  }

  async insertSession(session: ConsoleSessionEntity, manager: EntityManager): Promise<void> {
    await manager.insert(ConsoleSessionEntity, session);
  }

  // ---- invitations ----

  async insertInvitation(invitation: InvitationEntity): Promise<void> {
    await this.dataSource.manager.insert(InvitationEntity, invitation);
  }

  /** The latest invitations (at most 500), newest first; `games` as for {@link listMembers}. */
  async listInvitations(games: string[] | null): Promise<InvitationRow[]> {
    const rows = await this.dataSource.query<(InvitationRow & { inviter_email: string | null })[]>(
      `SELECT i.id, i.email, i.grants, i.invited_by AS "invitedBy", i.created_at AS "createdAt", i.expires_at AS "expiresAt",
              i.accepted_at AS "acceptedAt", i.accepted_by AS "acceptedBy", i.revoked_at AS "revokedAt", o.email AS inviter_email
         FROM identity.operator_invitations i LEFT JOIN identity.operators o ON o.id = i.invited_by
        WHERE $1::uuid[] IS NULL OR EXISTS (SELECT 1 FROM jsonb_array_elements(i.grants) g WHERE g->>'gameId' = ANY($1::text[]))
        ORDER BY i.created_at DESC, i.id
        LIMIT 500`,
      [games],
    );
    return rows.map(({ inviter_email, ...row }) => ({ ...row, tokenHash: '', inviterEmail: inviter_email }));
  }

  findInvitation(invitationId: string): Promise<InvitationEntity | null> {
    return this.dataSource.manager.findOneBy(InvitationEntity, { id: invitationId });
  }

  /** The invitation with this token hash that can still be accepted; with `manager`, locked until the transaction ends. */
  async findPending(tokenHash: string, manager?: EntityManager): Promise<InvitationEntity | null> {
    const query = (manager ?? this.dataSource.manager)
      .createQueryBuilder(InvitationEntity, 'i')
      .where('i.token_hash = :tokenHash AND i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > now()', { tokenHash });
    return (manager ? query.setLock('pessimistic_write') : query).getOne();
  }

  async markAccepted(invitationId: string, operatorId: string, manager: EntityManager): Promise<void> {
    await manager.update(InvitationEntity, { id: invitationId }, { acceptedAt: new Date(), acceptedBy: operatorId });
  }

  /** Revokes the invitation if it is still pending; whether it was. */
  async revokeInvitation(invitationId: string, manager?: EntityManager): Promise<boolean> {
    const [, affected] = await (manager ?? this.dataSource.manager).query<[unknown[], number]>(
      `UPDATE identity.operator_invitations SET revoked_at = now() WHERE id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()`,
      [invitationId],
    );
    return affected > 0;
  }

  /** Revokes the pending invitations `operatorId` made (they were removed); how many. */
  async revokeInvitationsBy(operatorId: string, manager: EntityManager): Promise<number> {
    const [, affected] = await manager.query<[unknown[], number]>(
      `UPDATE identity.operator_invitations SET revoked_at = now() WHERE invited_by = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()`,
      [operatorId],
    );
    return affected;
  }

  // ---- settings ----

  async requireTwoFactor(): Promise<boolean> {
    const rows = await this.dataSource.query<{ require_two_factor: boolean }[]>(`SELECT require_two_factor FROM identity.console_settings WHERE id = 1`);
    return rows[0]?.require_two_factor ?? false;
  }

  async setRequireTwoFactor(value: boolean): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO identity.console_settings (id, require_two_factor, updated_at) VALUES (1, $1, now())
       ON CONFLICT (id) DO UPDATE SET require_two_factor = EXCLUDED.require_two_factor, updated_at = now()`,
      [value],
    );
  }
}

function toMember(row: MemberRow): TeamMember {
  return {
    id: row.id,
    email: row.email,
    displayName: row.display_name,
    status: row.status,
    grants: row.grants,
    hasTotp: row.has_totp,
    passkeys: row.passkeys,
    createdAt: row.created_at,
    lastSignInAt: row.last_sign_in_at,
  };
}

import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  AppError,
  CONSOLE_PERMISSIONS,
  CONSOLE_ROLES,
  ConsolePermission,
  ConsoleRole,
  OperatorPrincipal,
  Principal,
  RoleGrant,
  STEP_UP_WINDOW_MS,
  grantsAllow,
  isConsolePermission,
  isUuid,
  requireOperator,
  rolesFor,
} from '@game-wallet/contracts';
import { DataSource } from 'typeorm';

/** What identity knows of a console request's operator and session, once both are found alive. */
export interface ConsoleCaller {
  principal: OperatorPrincipal;
  operatorId: string;
  sessionId: string;
  email: string;
  displayName: string;
  grants: RoleGrant[];
  hasTotp: boolean;
  passkeys: number;
  requireTwoFactor: boolean;
  sessionExpiresAt: Date;
  secondFactorAt: Date | null;
}

interface CallerRow {
  operator_id: string;
  email: string;
  display_name: string;
  status: string;
  has_totp: boolean;
  passkeys: number;
  expires_at: Date;
  revoked_at: Date | null;
  last_seen_at: Date | null;
  second_factor_at: Date | null;
  require_two_factor: boolean;
  grants: RoleGrant[];
  game_exists: boolean | null;
}

/** A session's "last seen" is written at most this often. */
const LAST_SEEN_EVERY_MS = 60_000;

/**
 * The console's authorization, in one place: every console pattern of every service goes through {@link require}
 * (identity's own handlers directly, the wallet and core services with `identity.console.authorize`). It reads the
 * session, the operator, their grants and the instance's settings in one query and refuses, in this order: an ended
 * session or an operator no longer active (401 `INVALID_TOKEN`), a missing second factor the instance requires
 * (403), a game outside the operator's grants or that does not exist (404 `GAME_NOT_FOUND`, existence not revealed),
 * a role that does not allow the permission (403 `FORBIDDEN`), a step-up action without a fresh second factor (401
 * `STEP_UP_REQUIRED`). Anything it cannot read refuses.
 */
@Injectable()
export class ConsoleAccessService {
  private readonly logger = new Logger(ConsoleAccessService.name);

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The signed-in operator of a live session (what their own account's operations need). */
  async current(principal: Principal): Promise<ConsoleCaller> {
    return (await this.load(requireOperator(principal), null)).caller;
  }

  /**
   * The caller, for what every operator may see beyond their own account (the list of their games): refused (403)
   * without the second factor the instance requires, as {@link require} refuses it.
   */
  async member(principal: Principal): Promise<ConsoleCaller> {
    const caller = await this.current(principal);
    refuseWithoutRequiredFactor(caller);
    return caller;
  }

  /** The caller, once allowed `permission` (on `gameId` when the permission is about a game). */
  async require(principal: Principal, permission: ConsolePermission, gameId?: string): Promise<ConsoleCaller> {
    if (!isConsolePermission(permission)) {
      throw new AppError('FORBIDDEN', 'This console operation is not known');
    }
    const rule = CONSOLE_PERMISSIONS[permission];
    const scopedGame = rule.scope === 'game' ? (gameId ?? null) : null;
    if (rule.scope === 'game' && (scopedGame === null || !isUuid(scopedGame))) {
      throw new AppError('GAME_NOT_FOUND', 'No game with this id');
    }
    const { caller, gameExists } = await this.load(requireOperator(principal), scopedGame);
    refuseWithoutRequiredFactor(caller);
    if (scopedGame !== null && (gameExists !== true || rolesFor(caller.grants, scopedGame).size === 0)) {
      throw new AppError('GAME_NOT_FOUND', 'No game with this id');
    }
    if (!grantsAllow(caller.grants, permission, scopedGame)) {
      throw new AppError('FORBIDDEN', 'Your role does not allow this');
    }
    if (rule.stepUp && !isSteppedUp(caller)) {
      throw new AppError('STEP_UP_REQUIRED', 'Confirm it is you: give your second factor again');
    }
    return caller;
  }

  /**
   * The caller's principal with the roles they acted with, for the audit trail: those that apply to `gameId`, or for
   * an action on no game (their own account, the team, the instance) every role they hold.
   */
  acting(caller: ConsoleCaller, gameId: string | null): OperatorPrincipal {
    const roles = gameId === null ? CONSOLE_ROLES.filter((role) => caller.grants.some((grant) => grant.role === role)) : rolesOf(caller.grants, gameId);
    return { ...caller.principal, roles };
  }

  /** The ids of the games the caller's grants name, or null when a grant covers every game. */
  visibleGames(caller: ConsoleCaller): string[] | null {
    return caller.grants.some((grant) => grant.gameId === null) ? null : [...new Set(caller.grants.map((grant) => grant.gameId as string))];
  }

  private async load(principal: OperatorPrincipal, gameId: string | null): Promise<{ caller: ConsoleCaller; gameExists: boolean | null }> {
    if (!isUuid(principal.operatorId) || !isUuid(principal.sessionId)) {
      throw new AppError('INVALID_TOKEN', 'This console session has ended; sign in again');
    }
    const rows: CallerRow[] = await this.dataSource.query(
      `SELECT o.id AS operator_id, o.email, o.display_name, o.status, o.totp_secret IS NOT NULL AS has_totp,
              (SELECT count(*)::int FROM identity.operator_passkeys p WHERE p.operator_id = o.id) AS passkeys,
              s.expires_at, s.revoked_at, s.last_seen_at, s.second_factor_at,
              COALESCE((SELECT require_two_factor FROM identity.console_settings WHERE id = 1), false) AS require_two_factor,
              COALESCE((SELECT json_agg(json_build_object('role', g.role, 'gameId', g.game_id) ORDER BY g.role, g.game_id)
                        FROM identity.operator_grants g WHERE g.operator_id = o.id), '[]'::json) AS grants,
              CASE WHEN $3::uuid IS NULL THEN NULL ELSE EXISTS (SELECT 1 FROM identity.games WHERE id = $3::uuid) END AS game_exists
         FROM identity.console_sessions s JOIN identity.operators o ON o.id = s.operator_id
        WHERE s.id = $1 AND s.operator_id = $2`,
      [principal.sessionId, principal.operatorId, gameId],
    );
    const row = rows[0];
    if (!row || row.status !== 'active' || row.revoked_at !== null || row.expires_at.getTime() <= Date.now()) {
      throw new AppError('INVALID_TOKEN', 'This console session has ended; sign in again');
    }
    this.touch(principal.sessionId, row.last_seen_at);
    const caller: ConsoleCaller = {
      principal,
      operatorId: row.operator_id,
      sessionId: principal.sessionId,
      email: row.email,
      displayName: row.display_name,
      grants: row.grants,
      hasTotp: row.has_totp,
      passkeys: row.passkeys,
      requireTwoFactor: row.require_two_factor,
      sessionExpiresAt: row.expires_at,
      secondFactorAt: row.second_factor_at,
    };
    return { caller, gameExists: row.game_exists };
  }

  /** "Last seen" for the sessions list, written at most once a minute, never holding the request. */
  private touch(sessionId: string, lastSeenAt: Date | null): void {
    if (lastSeenAt !== null && Date.now() - lastSeenAt.getTime() < LAST_SEEN_EVERY_MS) {
      return;
    }
    this.dataSource
      .query(`UPDATE identity.console_sessions SET last_seen_at = now() WHERE id = $1`, [sessionId])
      .catch((error: unknown) => this.logger.warn(`Could not note a session's last use: ${String(error)}`));
  }
}

/** The roles of `grants` that apply to `gameId`, most trusted first. */
export function rolesOf(grants: readonly RoleGrant[], gameId: string | null): ConsoleRole[] {
  const roles = rolesFor(grants, gameId);
  return CONSOLE_ROLES.filter((role) => roles.has(role));
}

function refuseWithoutRequiredFactor(caller: ConsoleCaller): void {
  if (caller.requireTwoFactor && !hasSecondFactor(caller)) {
    throw new AppError('FORBIDDEN', 'This console requires a second factor: set one up on your Account page first');
  }
}

export function hasSecondFactor(caller: Pick<ConsoleCaller, 'hasTotp' | 'passkeys'>): boolean {
  return caller.hasTotp || caller.passkeys > 0;
}

/** Until when the caller's last second factor (or, without one, password) counts as fresh; null when it does not. */
export function stepUpUntil(caller: Pick<ConsoleCaller, 'secondFactorAt'>, now = Date.now()): Date | null {
  const until = caller.secondFactorAt === null ? 0 : caller.secondFactorAt.getTime() + STEP_UP_WINDOW_MS;
  return until > now ? new Date(until) : null;
}

function isSteppedUp(caller: ConsoleCaller): boolean {
  return stepUpUntil(caller) !== null;
}

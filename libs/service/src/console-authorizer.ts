import { Injectable } from '@nestjs/common';
import { ConsolePermission, OperatorPrincipal, PATTERNS, Principal, requireOperator } from '@game-wallet/contracts';
import { RedisStreamsClient, RedisStreamsContext } from '@game-wallet/transport';

/**
 * A console request's permission, asked of identity (which owns operators, roles and sessions) by a service that
 * owns console data: the gateway's own check is not enough. Answers nothing, or throws identity's refusal (404
 * `GAME_NOT_FOUND` for a game outside the operator's grants, 403, 401 `STEP_UP_REQUIRED`, 401 for an ended session).
 */
@Injectable()
export class ConsoleAuthorizer {
  constructor(private readonly transport: RedisStreamsClient) {}

  /** The operator principal, with the roles identity found them acting with (for the audit trail). */
  async require(principal: Principal, permission: ConsolePermission, gameId: string, context: RedisStreamsContext): Promise<OperatorPrincipal> {
    const operator = requireOperator(principal);
    const { roles } = await this.transport.call(PATTERNS.identity.authorize, { payload: { permission, gameId }, principal: operator }, {
      requestId: context.getRequestId(),
      timeoutMs: Math.max(1, context.getDeadline() - Date.now()),
    });
    return { ...operator, roles };
  }
}

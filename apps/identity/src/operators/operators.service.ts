import { Injectable } from '@nestjs/common';
import { ConsoleSessionInfo, OperatorPrincipal, PasskeyView } from '@game-wallet/contracts';
import { newId } from '@game-wallet/database';
import { ConsoleAccessService, stepUpUntil } from '../access/console-access.service';
import { AuditService } from '../audit/audit.service';
import { RevocationsService } from '../tokens/revocations.service';
import { OperatorEntity } from './entities/operator.entity';
import { PasskeyEntity } from './entities/passkey.entity';
import { OperatorsRepository } from './operators.repository';

/** Console operators: who is signed in, sign-out (sign-in: {@link SignInService}; the first operator: FirstOperator). */
@Injectable()
export class OperatorsService {
  constructor(
    private readonly operators: OperatorsRepository,
    private readonly revocations: RevocationsService,
    private readonly audit: AuditService,
    private readonly access: ConsoleAccessService,
  ) {}

  /** Who is signed in on this session, their grants and second factors, and until when (401 `INVALID_TOKEN` once it ended). */
  async session(principal: OperatorPrincipal): Promise<ConsoleSessionInfo> {
    const caller = await this.access.current(principal);
    const [passkeys, recoveryCodesLeft] = await Promise.all([this.operators.listPasskeys(caller.operatorId), this.operators.unusedRecoveryCodes(caller.operatorId)]);
    return {
      operator: { id: caller.operatorId, email: caller.email, displayName: caller.displayName, grants: caller.grants },
      expiresAt: caller.sessionExpiresAt.toISOString(),
      sessionId: caller.sessionId,
      twoFactor: { totp: caller.hasTotp, passkeys: passkeys.map(toPasskeyView), recoveryCodesLeft, required: caller.requireTwoFactor },
      stepUpUntil: stepUpUntil(caller)?.toISOString() ?? null,
    };
  }

  async signOut(principal: OperatorPrincipal): Promise<void> {
    const session = await this.operators.revokeSession(principal.operatorId, principal.sessionId);
    if (session) {
      await this.revocations.sessionRevoked(session.id, session.expiresAt);
      await this.audit.record({ applicationId: null, principal, action: 'operator.signed_out', target: `operator:${principal.operatorId}` });
    }
  }
}

/** A new, active operator with no second factor yet. */
export function newOperator(email: string, passwordHash: string, displayName = ''): OperatorEntity {
  return {
    id: newId(),
    email,
    passwordHash,
    createdAt: new Date(),
    displayName,
    status: 'active',
    totpSecret: null,
    totpPendingSecret: null,
    totpLastStep: null,
    lastSignInAt: null,
    removedAt: null,
  };
}

export function toPasskeyView(passkey: PasskeyEntity): PasskeyView {
  return { id: passkey.id, name: passkey.name, createdAt: passkey.createdAt.toISOString(), lastUsedAt: passkey.lastUsedAt?.toISOString() ?? null };
}

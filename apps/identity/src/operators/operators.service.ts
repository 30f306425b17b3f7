import { Injectable } from '@nestjs/common';
import { AppError, ConsoleSessionInfo, ConsoleSessionView, OperatorPrincipal, PasskeyView, Principal, normalizeEmail } from '@game-wallet/contracts';
import { newId } from '@game-wallet/database';
import { ConsoleAccessService, stepUpUntil } from '../access/console-access.service';
import { AuditService } from '../audit/audit.service';
import { RevocationsService } from '../tokens/revocations.service';
import { TokenIssuer } from '../tokens/token-issuer';
import { ConsoleSessionEntity } from './entities/console-session.entity';
import { OperatorEntity } from './entities/operator.entity';
import { PasskeyEntity } from './entities/passkey.entity';
import { OperatorsRepository } from './operators.repository';
import { DECOY_HASH_PROMISE, hashPassword, needsRehash, verifyPassword } from './passwords';
import { SignInLimiter } from './sign-in-limiter';

/** How long a console session lasts. */
const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

/** Console operators: sign-in with lockout, sessions that can be signed out. */
@Injectable()
export class OperatorsService {
  constructor(
    private readonly operators: OperatorsRepository,
    private readonly limiter: SignInLimiter,
    private readonly issuer: TokenIssuer,
    private readonly revocations: RevocationsService,
    private readonly audit: AuditService,
    private readonly access: ConsoleAccessService,
  ) {}

  /** `passwordDigest`: {@link consolePasswordDigest} of the password, made by the gateway. */
  async signIn(email: string, passwordDigest: string, ip: string, userAgent?: string): Promise<ConsoleSessionView> {
    const normalized = normalizeEmail(email);
    // Counted as a failure before the password is checked (a burst cannot outrun the limit), given back on success.
    await this.limiter.reserve(normalized, ip);
    let operator: OperatorEntity | null;
    let valid: boolean;
    try {
      operator = await this.operators.findByEmail(normalized);
      valid = await verifyPassword(passwordDigest, operator?.passwordHash ?? (await DECOY_HASH_PROMISE));
    } catch (error) {
      await this.limiter.release(normalized, ip);
      throw error;
    }
    if (!operator || !valid || operator.status !== 'active') {
      throw new AppError('INVALID_CREDENTIALS', 'Wrong e-mail or password');
    }
    await this.limiter.release(normalized, ip);
    if (needsRehash(operator.passwordHash)) {
      // Stored with older scrypt parameters: replaced now that the password is at hand.
      await this.operators.updatePasswordHash(operator.id, await hashPassword(passwordDigest));
    }
    const now = new Date();
    const session: ConsoleSessionEntity = {
      id: newId(),
      operatorId: operator.id,
      createdAt: now,
      expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
      revokedAt: null,
      ip,
      userAgent: userAgent ?? null,
      lastSeenAt: now,
      // The strongest factor this operator has was just given: step-up actions need no other for 5 minutes.
      secondFactorAt: now,
    };
    await this.operators.insertSession(session);
    await this.operators.noteSignIn(operator.id, now);
    const principal: Principal = { kind: 'operator', operatorId: operator.id, sessionId: session.id };
    await this.audit.record({ applicationId: null, principal, action: 'operator.signed_in', target: `operator:${operator.id}`, details: { email: operator.email, ip } });
    return { token: this.issuer.consoleToken(operator.id, session.id, session.expiresAt), expiresAt: session.expiresAt.toISOString() };
  }

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

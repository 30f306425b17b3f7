import { Injectable } from '@nestjs/common';
import { AppError, ConsoleSessionView, OperatorPrincipal, SecondFactorChallengeView, SecondFactorInput, WebAuthnOrigin, normalizeEmail } from '@game-wallet/contracts';
import { newId } from '@game-wallet/database';
import { ConsoleAccessService } from '../access/console-access.service';
import { AuditService } from '../audit/audit.service';
import { SecondFactorMethod, SecondFactorsService } from '../second-factors/second-factors.service';
import { PasskeysService } from '../second-factors/passkeys.service';
import { TokenIssuer } from '../tokens/token-issuer';
import { ConsoleSessionsRepository } from './console-sessions.repository';
import { ConsoleSessionEntity } from './entities/console-session.entity';
import { OperatorEntity } from './entities/operator.entity';
import { OperatorsRepository } from './operators.repository';
import { DECOY_HASH_PROMISE, hashPassword, needsRehash, verifyPassword } from './passwords';
import { SIGN_IN_CHALLENGE_TTL_SECONDS, SignInChallenges } from './sign-in-challenges';
import { SignInCount, SignInLimiter } from './sign-in-limiter';

/** How long a console session lasts. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

/** Where a sign-in comes from, for the limits, the sessions list and the passkey ceremony. */
export interface SignInClient {
  ip: string;
  userAgent?: string;
  webauthn: WebAuthnOrigin;
}

/**
 * Console sign-in: the password, then (for an operator with a second factor) a challenge the second factor completes.
 * The limits are {@link SignInLimiter}'s: per e-mail and per address for passwords, per challenge and per address for
 * second factors.
 */
@Injectable()
export class SignInService {
  constructor(
    private readonly operators: OperatorsRepository,
    private readonly sessions: ConsoleSessionsRepository,
    private readonly limiter: SignInLimiter,
    private readonly challenges: SignInChallenges,
    private readonly factors: SecondFactorsService,
    private readonly passkeys: PasskeysService,
    private readonly issuer: TokenIssuer,
    private readonly audit: AuditService,
    private readonly access: ConsoleAccessService,
  ) {}

  /** `passwordDigest`: `consolePasswordDigest` of the password, made by the gateway. */
  async signIn(email: string, passwordDigest: string, client: SignInClient): Promise<ConsoleSessionView | SecondFactorChallengeView> {
    const normalized = normalizeEmail(email);
    // Counted as a failure before the password is checked (a burst cannot outrun the limit), given back on success.
    const { counted, retryAfter } = await this.limiter.reserve(normalized, client.ip);
    try {
      return await this.checkPassword(normalized, passwordDigest, client, counted, retryAfter);
    } finally {
      await this.limiter.done(normalized, counted);
    }
  }

  private async checkPassword(
    normalized: string,
    passwordDigest: string,
    client: SignInClient,
    counted: SignInCount,
    retryAfter: number,
  ): Promise<ConsoleSessionView | SecondFactorChallengeView> {
    let operator: OperatorEntity | null;
    let valid: boolean;
    try {
      operator = await this.operators.findByEmail(normalized);
      valid = await verifyPassword(passwordDigest, operator?.passwordHash ?? (await DECOY_HASH_PROMISE));
    } catch (error) {
      await this.limiter.release(normalized, client.ip, counted);
      throw error;
    }
    // The e-mail is locked (counted on this clean address only): nothing but a second factor may follow the password.
    const emailLocked = () => new AppError('RATE_LIMITED', 'Too many failed sign-ins; try again later', retryAfter);
    if (!operator || !valid || operator.status !== 'active') {
      throw counted === 'address-only' ? emailLocked() : new AppError('INVALID_CREDENTIALS', 'Wrong e-mail or password');
    }
    const methods = await this.factors.methods(operator).catch(async (error: unknown) => {
      await this.limiter.release(normalized, client.ip, counted);
      throw error;
    });
    if (counted === 'address-only' && methods.length === 0) {
      // The password alone never passes a locked e-mail, and the address stays spent as for a wrong one: its answer
      // and its next attempt are those of a wrong password, so a locked e-mail tells nothing about the guess.
      throw emailLocked();
    }
    await this.limiter.release(normalized, client.ip, counted);
    if (needsRehash(operator.passwordHash)) {
      // Stored with older scrypt parameters: replaced now that the password is at hand.
      await this.operators.updatePasswordHash(operator.id, await hashPassword(passwordDigest));
    }
    if (methods.length > 0) {
      return this.challenge(operator.id, methods, client.webauthn);
    }
    return this.openSession(operator, client, 'password');
  }

  /** Step 2: the challenge of step 1 and one second factor. 401 `INVALID_CREDENTIALS` for anything wrong. */
  async completeSignIn(challenge: string, factor: SecondFactorInput, client: SignInClient): Promise<ConsoleSessionView> {
    await this.limiter.reserveSecondFactor(client.ip);
    let session: ConsoleSessionView;
    try {
      const pending = await this.challenges.attempt(challenge);
      if (pending === null) {
        throw new AppError('INVALID_CREDENTIALS', 'This sign-in has expired or was used: sign in again');
      }
      const operator = await this.operators.findById(pending.operatorId);
      const method =
        operator && operator.status === 'active'
          ? await this.factors.verify(operator, factor, { purpose: 'sign-in', boundTo: pending.challengeHash, webauthn: client.webauthn })
          : null;
      if (!operator || method === null) {
        throw new AppError('INVALID_CREDENTIALS', 'Wrong second factor');
      }
      if (!(await this.challenges.consume(pending))) {
        throw new AppError('INVALID_CREDENTIALS', 'This sign-in has expired or was used: sign in again');
      }
      session = await this.openSession(operator, client, method);
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'INVALID_CREDENTIALS')) {
        // Not a wrong factor (Redis or the database failed): it does not count.
        await this.limiter.releaseSecondFactor(client.ip);
      }
      throw error;
    }
    await this.limiter.releaseSecondFactor(client.ip);
    return session;
  }

  private async challenge(operatorId: string, methods: SecondFactorMethod[], webauthn: WebAuthnOrigin): Promise<SecondFactorChallengeView> {
    const { challenge, challengeHash, expiresAt } = await this.challenges.issue(operatorId);
    const passkey = methods.includes('passkey')
      ? await this.passkeys.authenticationOptions(operatorId, 'sign-in', challengeHash, webauthn, SIGN_IN_CHALLENGE_TTL_SECONDS)
      : null;
    return { secondFactor: { challenge, methods, passkey, expiresAt: expiresAt.toISOString() } };
  }

  /**
   * A new session for the operator, who just gave the strongest factor they have (a second factor, or their password
   * when they have none): step-up actions need no other for 5 minutes.
   */
  private async openSession(operator: OperatorEntity, client: SignInClient, method: SecondFactorMethod | 'password'): Promise<ConsoleSessionView> {
    const now = new Date();
    const session: ConsoleSessionEntity = {
      id: newId(),
      operatorId: operator.id,
      createdAt: now,
      expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
      revokedAt: null,
      ip: client.ip.slice(0, 64),
      userAgent: client.userAgent ?? null,
      lastSeenAt: now,
      secondFactorAt: now,
    };
    await this.sessions.insert(session);
    await this.operators.noteSignIn(operator.id, now);
    const principal: OperatorPrincipal = { kind: 'operator', operatorId: operator.id, sessionId: session.id, ip: client.ip };
    const caller = await this.access.current(principal);
    await this.audit.record({
      applicationId: null,
      principal: this.access.acting(caller, null),
      action: 'operator.signed_in',
      target: `operator:${operator.id}`,
      details: { email: operator.email, method },
    });
    return { token: this.issuer.consoleToken(operator.id, session.id, session.expiresAt), expiresAt: session.expiresAt.toISOString() };
  }
}

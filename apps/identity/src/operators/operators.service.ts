import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppError, ConsoleSessionInfo, ConsoleSessionView, OperatorPrincipal, Principal, consolePasswordDigest, normalizeEmail } from '@game-wallet/contracts';
import { newId } from '@game-wallet/database';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { AuditService } from '../audit/audit.service';
import { IdentityConfig } from '../config';
import { IDENTITY_CONFIG } from '../identity-config.token';
import { RevocationsService } from '../tokens/revocations.service';
import { TokenIssuer } from '../tokens/token-issuer';
import { OperatorEntity } from './entities/operator.entity';
import { OperatorsRepository } from './operators.repository';
import { DECOY_HASH_PROMISE, hashPassword, needsRehash, verifyPassword } from './passwords';
import { SignInLimiter } from './sign-in-limiter';

/** How long a console session lasts. */
const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
export const DEV_ADMIN_EMAIL = 'admin@localhost';

/** Console operators: the first one from configuration, sign-in with lockout, sessions that can be signed out. */
@Injectable()
export class OperatorsService {
  private readonly logger = new Logger(OperatorsService.name);

  constructor(
    private readonly operators: OperatorsRepository,
    private readonly limiter: SignInLimiter,
    private readonly issuer: TokenIssuer,
    private readonly revocations: RevocationsService,
    private readonly audit: AuditService,
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
  ) {}

  /**
   * Creates the first operator when there is none: from CONSOLE_ADMIN_EMAIL/PASSWORD, or in development
   * `admin@localhost` with a random password, printed once (and kept in the data folder for `npm start`).
   */
  async ensureFirstOperator(): Promise<void> {
    if ((await this.operators.count()) > 0) {
      return;
    }
    const fromConfig = this.config.consoleAdminEmail !== undefined && this.config.consoleAdminPassword !== undefined;
    if (!fromConfig && this.config.nodeEnv === 'production') {
      throw new Error('CONSOLE_ADMIN_EMAIL and CONSOLE_ADMIN_PASSWORD must be set to create the first console operator');
    }
    const email = fromConfig ? (this.config.consoleAdminEmail as string) : DEV_ADMIN_EMAIL;
    const password = fromConfig ? (this.config.consoleAdminPassword as string) : randomBytes(12).toString('base64url');
    await this.operators.insert({ id: newId(), email, passwordHash: await hashPassword(consolePasswordDigest(email, password)), createdAt: new Date() });
    if (fromConfig) {
      this.logger.log(`Created the first console operator ${email}`);
      return;
    }
    // Printed once, straight to the terminal (not the log stream), as SPEC §5 asks for development.
    const file = join(this.config.dataDir, 'console-admin.txt');
    mkdirSync(this.config.dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(file, `${email}\n${password}\n`, { mode: 0o600 });
    process.stdout.write(`CONSOLE SIGN-IN (development, shown once): ${email} / ${password}   (also in ${file})\n`);
  }

  /** `passwordDigest`: {@link consolePasswordDigest} of the password, made by the gateway. */
  async signIn(email: string, passwordDigest: string, ip: string): Promise<ConsoleSessionView> {
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
    if (!operator || !valid) {
      throw new AppError('INVALID_CREDENTIALS', 'Wrong e-mail or password');
    }
    await this.limiter.release(normalized, ip);
    if (needsRehash(operator.passwordHash)) {
      // Stored with older scrypt parameters: replaced now that the password is at hand.
      await this.operators.updatePasswordHash(operator.id, await hashPassword(passwordDigest));
    }
    const session = { id: newId(), operatorId: operator.id, createdAt: new Date(), expiresAt: new Date(Date.now() + SESSION_TTL_MS), revokedAt: null };
    await this.operators.insertSession(session);
    const principal: Principal = { kind: 'operator', operatorId: operator.id, sessionId: session.id };
    await this.audit.record({ applicationId: null, principal, action: 'operator.signed_in', target: `operator:${operator.id}`, details: { email: operator.email, ip } });
    return { token: this.issuer.consoleToken(operator.id, session.id, session.expiresAt), expiresAt: session.expiresAt.toISOString() };
  }

  /** Who is signed in on this session, and until when (401 `INVALID_TOKEN` once it was signed out). */
  async session(principal: OperatorPrincipal): Promise<ConsoleSessionInfo> {
    const [operator, session] = await Promise.all([
      this.operators.findById(principal.operatorId),
      this.operators.findSession(principal.operatorId, principal.sessionId),
    ]);
    if (!operator || !session || session.revokedAt) {
      throw new AppError('INVALID_TOKEN', 'This console session has ended; sign in again');
    }
    return { operator: { id: operator.id, email: operator.email }, expiresAt: session.expiresAt.toISOString() };
  }

  async signOut(principal: OperatorPrincipal): Promise<void> {
    const session = await this.operators.revokeSession(principal.operatorId, principal.sessionId);
    if (session) {
      await this.revocations.sessionRevoked(session.id, session.expiresAt);
      await this.audit.record({ applicationId: null, principal, action: 'operator.signed_out', target: `operator:${principal.operatorId}` });
    }
  }
}

import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConsoleSessionInfo, OperatorPrincipal, PasskeyView, consolePasswordDigest } from '@game-wallet/contracts';
import { newId } from '@game-wallet/database';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ConsoleAccessService, stepUpUntil } from '../access/console-access.service';
import { AuditService } from '../audit/audit.service';
import { IdentityConfig } from '../config';
import { IDENTITY_CONFIG } from '../identity-config.token';
import { RevocationsService } from '../tokens/revocations.service';
import { OperatorEntity } from './entities/operator.entity';
import { PasskeyEntity } from './entities/passkey.entity';
import { OperatorsRepository } from './operators.repository';
import { hashPassword } from './passwords';

export const DEV_ADMIN_EMAIL = 'admin@localhost';

/** Console operators: the first one from configuration, who is signed in, sign-out (sign-in: {@link SignInService}). */
@Injectable()
export class OperatorsService {
  private readonly logger = new Logger(OperatorsService.name);

  constructor(
    private readonly operators: OperatorsRepository,
    private readonly revocations: RevocationsService,
    private readonly audit: AuditService,
    private readonly access: ConsoleAccessService,
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
    await this.operators.insert(newOperator(email, await hashPassword(consolePasswordDigest(email, password))), [{ role: 'owner', gameId: null }]);
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

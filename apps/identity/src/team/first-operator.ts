import { Inject, Injectable, Logger } from '@nestjs/common';
import { consolePasswordDigest } from '@game-wallet/contracts';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { IdentityConfig } from '../config';
import { IDENTITY_CONFIG } from '../identity-config.token';
import { newOperator } from '../operators/operators.service';
import { hashPassword } from '../operators/passwords';
import { OWNER_OF_EVERY_GAME } from './grants';
import { TeamRepository } from './team.repository';

export const DEV_ADMIN_EMAIL = 'admin@localhost';

/** What identity logs at start in production when the instance has no operator yet. */
export const NO_OPERATOR_HINT =
  'No console operator exists yet. Create the first owner with `node cli/create-operator.js --email you@example.com` in the ' +
  'identity container (`npm run operator:create -- --email you@example.com` from a checkout): it prints a one-time invitation ' +
  'link. Or set CONSOLE_ADMIN_EMAIL and CONSOLE_ADMIN_PASSWORD and restart identity.';

/**
 * The instance's first operator, an owner of every game, made at start when there is none: from
 * CONSOLE_ADMIN_EMAIL/PASSWORD; in development `admin@localhost` with a random password, printed once (and kept in the
 * data folder for `npm start`); in production without them, no operator: identity starts and says how to invite the
 * first owner from the command line. Once an operator exists, a CONSOLE_ADMIN_PASSWORD still set is warned about.
 */
@Injectable()
export class FirstOperator {
  private readonly logger = new Logger(FirstOperator.name);

  constructor(
    private readonly team: TeamRepository,
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
  ) {}

  async ensure(): Promise<void> {
    if (this.config.firstOperatorAtStart === false) {
      return;
    }
    if ((await this.team.countOperators()) > 0) {
      if (this.config.consoleAdminPassword !== undefined) {
        this.logger.warn(
          'CONSOLE_ADMIN_PASSWORD is set, but the console has operators already: it is no longer used. Remove it (and ' +
            'CONSOLE_ADMIN_EMAIL) from the environment; owners invite new operators from the Team page.',
        );
      }
      return;
    }
    const fromConfig = this.config.consoleAdminEmail !== undefined && this.config.consoleAdminPassword !== undefined;
    if (!fromConfig && this.config.nodeEnv === 'production') {
      this.logger.warn(NO_OPERATOR_HINT);
      return;
    }
    const email = fromConfig ? (this.config.consoleAdminEmail as string) : DEV_ADMIN_EMAIL;
    const password = fromConfig ? (this.config.consoleAdminPassword as string) : randomBytes(12).toString('base64url');
    const operator = newOperator(email, await hashPassword(consolePasswordDigest(email, password)));
    await this.team.locked((manager) => this.team.insertOperator(operator, [OWNER_OF_EVERY_GAME], manager));
    if (fromConfig) {
      this.logger.log(`Created the first console operator ${email} (owner of every game); CONSOLE_ADMIN_PASSWORD is not needed any more`);
      return;
    }
    // Printed once, straight to the terminal (not the log stream), as SPEC §5 asks for development.
    const file = join(this.config.dataDir, 'console-admin.txt');
    mkdirSync(this.config.dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(file, `${email}\n${password}\n`, { mode: 0o600 });
    process.stdout.write(`CONSOLE SIGN-IN (development, shown once): ${email} / ${password}   (also in ${file})\n`);
  }
}

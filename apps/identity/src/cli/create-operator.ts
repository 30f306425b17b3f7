/**
 * Invites the first owner of the console (an owner of every game) and prints the invitation link: the way to start a
 * production instance without a standing admin password. Run with the identity service's environment:
 *
 *   node cli/create-operator.js --email you@example.com [--url https://wallet.example.com] [--force-invite]
 *   npm run operator:create -- --email you@example.com
 *
 * The link (`<url>/console/invitation#token=…`) works once, for 72 hours: opening it sets the password and signs the
 * new owner in. `--url` is the console's public address (default: `PUBLIC_BASE_URL`, else http://localhost:3000).
 * Refused once an operator exists, unless `--force-invite`: then it invites another owner of every game anyway, the
 * way back in when every owner is locked out (whoever runs it holds identity's secrets already). Every invitation is
 * in the audit trail (`operator.invited`, actor `system`).
 */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppError } from '@game-wallet/contracts';
import { ensureDatabase } from '@game-wallet/database';
import { runMain } from '@game-wallet/http';
import { AppMetrics, PinoNestLogger, createRootLogger } from '@game-wallet/observability';
import { createFailFastRedis, waitUntilReady, TransportKeys } from '@game-wallet/transport';
import { parseArgs } from 'node:util';
import { loadIdentityConfig } from '../config';
import { IdentityModule } from '../identity.module';
import { InvitationsService } from '../team/invitations.service';

const USAGE = 'usage: create-operator --email <address> [--url <console address>] [--force-invite]';

runMain('create-operator', async () => {
  const { values } = parseArgs({
    options: { email: { type: 'string' }, url: { type: 'string' }, 'force-invite': { type: 'boolean', default: false }, help: { type: 'boolean', default: false } },
    strict: true,
  });
  if (values.help || values.email === undefined) {
    process.stderr.write(`${USAGE}\n`);
    process.exit(values.help ? 0 : 2);
  }
  const config = { ...loadIdentityConfig(process.env), firstOperatorAtStart: false };
  const url = values.url ?? process.env.PUBLIC_BASE_URL ?? `http://localhost:${process.env.BASE_PORT ?? '3000'}`;
  const logger = createRootLogger({ service: 'identity-cli', level: config.logLevel === 'info' ? 'warn' : config.logLevel });
  if (config.nodeEnv !== 'production') {
    await ensureDatabase(config.databaseUrl);
  }
  const redis = createFailFastRedis(config.redisUrl, 'identity-cli');
  await waitUntilReady(redis, 5000);
  const app = await NestFactory.createApplicationContext(
    IdentityModule.forRoot(config, {
      redis,
      metrics: new AppMetrics('identity-cli'),
      logger,
      transportKeys: TransportKeys.fromConfig('identity', config.transportKeys, config.dataDir),
    }),
    { logger: new PinoNestLogger(logger) },
  );
  let exitCode = 0;
  try {
    const invitation = await app.get(InvitationsService).inviteFirstOwner(values.email, url, values['force-invite']);
    process.stdout.write(
      [
        `Invited ${invitation.email} as owner of every game. This link works once, until ${invitation.expiresAt}:`,
        '',
        `  ${invitation.link}`,
        '',
        `Open it in a browser to choose a password and sign in${invitation.mailed ? ' (it was mailed too)' : ''}. Anyone with the link can accept it: pass it on privately.`,
        '',
      ].join('\n'),
    );
  } catch (error) {
    if (!(error instanceof AppError)) {
      throw error;
    }
    process.stderr.write(`create-operator: ${error.message}\n`);
    exitCode = 1;
  } finally {
    await app.close();
    logger.flush();
  }
  process.exit(exitCode);
});

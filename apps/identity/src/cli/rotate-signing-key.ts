/**
 * Rotates the JWT signing key: a new key becomes current, the old one stays in the JWKS as previous (tokens it signed
 * keep verifying until they expire), the one before is retired. Gateways and identity replicas pick the change up at
 * once (broadcast). Run with the identity service's environment:
 *
 *   node dist/apps/identity/src/cli/rotate-signing-key.js
 */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ensureDatabase } from '@game-wallet/database';
import { runMain } from '@game-wallet/http';
import { AppMetrics, PinoNestLogger, createRootLogger } from '@game-wallet/observability';
import { createFailFastRedis, waitUntilReady, TransportKeys } from '@game-wallet/transport';
import { loadIdentityConfig } from '../config';
import { IdentityModule } from '../identity.module';
import { SigningKeysService } from '../tokens/signing-keys.service';

runMain('rotate-signing-key', async () => {
  const config = loadIdentityConfig(process.env);
  const logger = createRootLogger({ service: 'identity-cli', level: config.logLevel === 'info' ? 'warn' : config.logLevel });
  if (config.nodeEnv !== 'production') {
    await ensureDatabase(config.databaseUrl);
  }
  const redis = createFailFastRedis(config.redisUrl, 'identity-cli');
  await waitUntilReady(redis, 5000);
  const app = await NestFactory.createApplicationContext(IdentityModule.forRoot(config, {
    redis,
    metrics: new AppMetrics('identity-cli'),
    logger,
    transportKeys: TransportKeys.fromConfig('identity', config.transportKeys, config.dataDir),
  }), {
    logger: new PinoNestLogger(logger),
  });
  const kid = await app.get(SigningKeysService).rotate();
  await app.close();
  logger.flush();
  process.stdout.write(`Rotated the JWT signing key: ${kid} is now current; the previous key stays published until the next rotation.\n`);
  process.exit(0);
});

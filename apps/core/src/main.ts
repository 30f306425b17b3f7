import 'reflect-metadata';
import { TransportKeyring } from '@game-wallet/transport';
import { DatabaseOutage, ensureDatabase } from '@game-wallet/database';
import { runMain, startService } from '@game-wallet/http';
import { loadCoreConfig } from './config';
import { CoreModule } from './core.module';

runMain('core', async () => {
  const config = loadCoreConfig(process.env);
  if (config.nodeEnv !== 'production') {
    await ensureDatabase(config.databaseUrl);
  }
  await startService({
    service: 'core',
    logLevel: config.logLevel,
    redisUrl: config.redisUrl,
    keyPrefix: config.keyPrefix,
    port: config.port,
    transportKeyring: TransportKeyring.fromConfig(config.transportKeys, config.dataDir),
    // A database outage answers 503 SERVICE_UNAVAILABLE with Retry-After, not 500.
    translateError: new DatabaseOutage().translate,
    module: (runtime) => CoreModule.forRoot(config, runtime),
  });
});

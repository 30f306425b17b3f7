import 'reflect-metadata';
import { TransportKeyring } from '@game-wallet/transport';
import { DatabaseOutage, ensureDatabase } from '@game-wallet/database';
import { runMain, startService } from '@game-wallet/http';
import { loadWalletConfig } from './config';
import { WalletModule } from './wallet.module';

runMain('wallet', async () => {
  const config = loadWalletConfig(process.env);
  if (config.nodeEnv !== 'production') {
    await ensureDatabase(config.databaseUrl);
  }
  await startService({
    service: 'wallet',
    logLevel: config.logLevel,
    redisUrl: config.redisUrl,
    keyPrefix: config.keyPrefix,
    port: config.port,
    transportKeyring: TransportKeyring.fromConfig(config.transportKeys, config.dataDir),
    // A database outage answers 503 SERVICE_UNAVAILABLE with Retry-After, not 500.
    translateError: new DatabaseOutage().translate,
    module: (runtime) => WalletModule.forRoot(config, runtime),
  });
});

import 'reflect-metadata';
import { runDatabaseService } from '@game-wallet/service';
import { loadWalletConfig } from './config';
import { WalletModule } from './wallet.module';

runDatabaseService('wallet', loadWalletConfig, (config, runtime) => WalletModule.forRoot(config, runtime));

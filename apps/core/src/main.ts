import 'reflect-metadata';
import { runDatabaseService } from '@game-wallet/service';
import { loadCoreConfig } from './config';
import { CoreModule } from './core.module';

runDatabaseService('core', loadCoreConfig, (config, runtime) => CoreModule.forRoot(config, runtime));

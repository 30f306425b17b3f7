import 'reflect-metadata';
import { runDatabaseService } from '@game-wallet/service';
import { loadIdentityConfig } from './config';
import { IdentityModule } from './identity.module';

runDatabaseService('identity', loadIdentityConfig, (config, runtime) => IdentityModule.forRoot(config, runtime));

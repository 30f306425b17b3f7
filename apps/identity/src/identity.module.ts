import { DynamicModule, Module } from '@nestjs/common';
import { ServiceRuntime, serviceModule } from '@game-wallet/service';
import { ConsoleAccessModule } from './access/console-access.module';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { AuditModule } from './audit/audit.module';
import { IdentityConfig } from './config';
import { identityDataSourceOptions } from './database/data-source-options';
import { GamesModule } from './games/games.module';
import { IdentityBootstrap } from './identity-bootstrap';
import { IDENTITY_CONFIG } from './identity-config.token';
import { OperatorsModule } from './operators/operators.module';
import { ProfilesModule } from './profiles/profiles.module';
import { TeamModule } from './team/team.module';
import { TokensModule } from './tokens/tokens.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/** The identity service: games, API keys, profiles, tokens, console operators, audit, webhooks. */
@Module({})
export class IdentityModule {
  static forRoot(config: IdentityConfig, runtime: ServiceRuntime): DynamicModule {
    return serviceModule(IdentityModule, {
      service: 'identity',
      runtime,
      config: { token: IDENTITY_CONFIG, value: config },
      database: identityDataSourceOptions(config.databaseUrl),
      migrations: config.migrations,
      imports: [ConsoleAccessModule, AuditModule, GamesModule, ApiKeysModule, TokensModule, ProfilesModule, OperatorsModule, TeamModule, WebhooksModule],
      providers: [IdentityBootstrap],
    });
  }
}

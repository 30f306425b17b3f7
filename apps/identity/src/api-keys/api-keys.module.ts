import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { GamesModule } from '../games/games.module';
import { TokensModule } from '../tokens/tokens.module';
import { ApiKeyCache } from './api-key-cache';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';
import { ApiKeyEntity } from './entities/api-key.entity';
import { RequestSigningKeyEntity } from './entities/request-signing-key.entity';

@Module({
  imports: [TypeOrmModule.forFeature([ApiKeyEntity, RequestSigningKeyEntity]), GamesModule, AuditModule, TokensModule],
  controllers: [ApiKeysController],
  providers: [ApiKeysRepository, ApiKeysService, ApiKeyCache],
})
export class ApiKeysModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { ConsoleSessionEntity } from '../operators/entities/console-session.entity';
import { ProfileRevocationEntity } from '../profiles/entities/profile-revocation.entity';
import { ApiKeyRevocationEntity } from './entities/api-key-revocation.entity';
import { SigningKeyEntity } from './entities/signing-key.entity';
import { keyEncryptionKeyProvider } from './key-encryption-key';
import { RevocationsService } from './revocations.service';
import { SigningKeysRepository } from './signing-keys.repository';
import { SigningKeysService } from './signing-keys.service';
import { TokenIssuer } from './token-issuer';
import { TokensController } from './tokens.controller';

@Module({
  imports: [AuditModule, TypeOrmModule.forFeature([SigningKeyEntity, ProfileRevocationEntity, ApiKeyRevocationEntity, ConsoleSessionEntity])],
  controllers: [TokensController],
  providers: [keyEncryptionKeyProvider, SigningKeysRepository, SigningKeysService, TokenIssuer, RevocationsService],
  exports: [SigningKeysService, TokenIssuer, RevocationsService, keyEncryptionKeyProvider],
})
export class TokensModule {}

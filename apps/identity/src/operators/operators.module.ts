import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { TokensModule } from '../tokens/tokens.module';
import { ConsoleController } from './console.controller';
import { ConsoleSessionEntity } from './entities/console-session.entity';
import { OperatorEntity } from './entities/operator.entity';
import { OperatorsRepository } from './operators.repository';
import { OperatorsService } from './operators.service';
import { passwordBoxProvider } from './password-box';
import { SignInLimiter } from './sign-in-limiter';

@Module({
  imports: [TypeOrmModule.forFeature([OperatorEntity, ConsoleSessionEntity]), TokensModule, AuditModule],
  controllers: [ConsoleController],
  providers: [OperatorsRepository, OperatorsService, SignInLimiter, passwordBoxProvider],
  exports: [OperatorsService],
})
export class OperatorsModule {}

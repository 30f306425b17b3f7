import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { SecondFactorsModule } from '../second-factors/second-factors.module';
import { TokensModule } from '../tokens/tokens.module';
import { AccountFactorsService } from './account-factors.service';
import { AccountController } from './account.controller';
import { AccountService } from './account.service';
import { ConsoleController } from './console.controller';
import { ConsoleSessionsRepository } from './console-sessions.repository';
import { ConsoleSessionEntity } from './entities/console-session.entity';
import { OperatorEntity } from './entities/operator.entity';
import { OperatorsRepository } from './operators.repository';
import { OperatorsService } from './operators.service';
import { OwnPassword } from './own-password';
import { passwordBoxProvider } from './password-box';
import { SignInChallenges } from './sign-in-challenges';
import { SignInLimiter } from './sign-in-limiter';
import { SignInService } from './sign-in.service';
import { StepUpService } from './step-up.service';

@Module({
  imports: [TypeOrmModule.forFeature([OperatorEntity, ConsoleSessionEntity]), TokensModule, AuditModule, SecondFactorsModule],
  controllers: [ConsoleController, AccountController],
  providers: [
    OwnPassword,
    OperatorsRepository,
    OperatorsService,
    SignInLimiter,
    passwordBoxProvider,
    // Two-factor sign-in, step-up and the operator's own account
    ConsoleSessionsRepository,
    SignInChallenges,
    SignInService,
    StepUpService,
    AccountService,
    AccountFactorsService,
  ],
  exports: [OperatorsService],
})
export class OperatorsModule {}

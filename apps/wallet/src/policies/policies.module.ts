import { Module } from '@nestjs/common';
import { ConsoleAuthorizer } from '@game-wallet/service';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PoliciesController } from './policies.controller';
import { PolicyEventEntity } from './policy-event.entity';
import { SigningPoliciesRepository } from './signing-policies.repository';
import { SigningPoliciesService } from './signing-policies.service';
import { SigningPolicyEntity } from './signing-policy.entity';
import { PolicyEvaluationService } from './policy-evaluation.service';
import { ShadowPolicy } from './shadow-policy';
import { VelocityLimits } from './velocity';
import { WalletsModule } from '../wallets/wallets.module';

/** Each game's signing policy: ordered rules, their versions, dry runs, the draft in shadow and velocity limits (set from the console, each change audited). */
@Module({
  imports: [TypeOrmModule.forFeature([SigningPolicyEntity, PolicyEventEntity]), WalletsModule],
  controllers: [PoliciesController],
  providers: [ConsoleAuthorizer, SigningPoliciesService, SigningPoliciesRepository, PolicyEvaluationService, ShadowPolicy, VelocityLimits],
  exports: [SigningPoliciesService, ShadowPolicy, VelocityLimits],
})
export class PoliciesModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PoliciesController } from './policies.controller';
import { PolicyEventEntity } from './policy-event.entity';
import { SigningPoliciesRepository } from './signing-policies.repository';
import { SigningPoliciesService } from './signing-policies.service';
import { SigningPolicyEntity } from './signing-policy.entity';

/** Each game's signing policy: what its wallets may sign (read and set from the console, each change audited). */
@Module({
  imports: [TypeOrmModule.forFeature([SigningPolicyEntity, PolicyEventEntity])],
  controllers: [PoliciesController],
  providers: [SigningPoliciesService, SigningPoliciesRepository],
  exports: [SigningPoliciesService],
})
export class PoliciesModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PoliciesController } from './policies.controller';
import { SigningPoliciesService } from './signing-policies.service';
import { SigningPolicyEntity } from './signing-policy.entity';

/** Each game's signing policy: what its wallets may sign (read and set from the console). */
@Module({
  imports: [TypeOrmModule.forFeature([SigningPolicyEntity])],
  controllers: [PoliciesController],
  providers: [SigningPoliciesService],
  exports: [SigningPoliciesService],
})
export class PoliciesModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { KeyGenerator } from '../keys/key-generator';
import { PoliciesController } from '../policies/policies.controller';
import { SigningPoliciesService } from '../policies/signing-policies.service';
import { SigningPolicyEntity } from '../policies/signing-policy.entity';
import { SignatureEventEntity } from '../signatures/entities/signature-event.entity';
import { SignaturesRepository } from '../signatures/signatures.repository';
import { SignaturesService } from '../signatures/signatures.service';
import { SigningService } from '../signatures/signing.service';
import { WalletEntity } from './entities/wallet.entity';
import { WalletCache } from './wallet-cache';
import { WalletsController } from './wallets.controller';
import { WalletsRepository } from './wallets.repository';
import { WalletsService } from './wallets.service';

@Module({
  imports: [TypeOrmModule.forFeature([WalletEntity, SignatureEventEntity, SigningPolicyEntity])],
  controllers: [WalletsController, PoliciesController],
  providers: [WalletsRepository, WalletsService, WalletCache, KeyGenerator, SigningService, SignaturesRepository, SignaturesService, SigningPoliciesService],
  exports: [WalletsRepository],
})
export class WalletsModule {}

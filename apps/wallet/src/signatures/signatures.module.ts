import { Module } from '@nestjs/common';
import { ConsoleAuthorizer } from '@game-wallet/service';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PoliciesModule } from '../policies/policies.module';
import { WalletsModule } from '../wallets/wallets.module';
import { SignatureEventEntity } from './entities/signature-event.entity';
import { SignaturesController } from './signatures.controller';
import { SignaturesRepository } from './signatures.repository';
import { SignaturesService } from './signatures.service';
import { SigningService } from './signing.service';
import { OwnerBinding } from '../keys/owner-binding';
import { ChainKeys } from './chain-keys';
import { signingPlacementProvider } from './signing-placement';

/** Signatures: messages, transactions and typed data signed under the game's policy, and their audit trail. */
@Module({
  imports: [TypeOrmModule.forFeature([SignatureEventEntity]), WalletsModule, PoliciesModule],
  controllers: [SignaturesController],
  providers: [ConsoleAuthorizer, SigningService, SignaturesRepository, SignaturesService, OwnerBinding, ChainKeys, signingPlacementProvider],
})
export class SignaturesModule {}

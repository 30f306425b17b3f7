import { Module } from '@nestjs/common';
import { ConsoleAuthorizer } from '@game-wallet/service';
import { TypeOrmModule } from '@nestjs/typeorm';
import { KeyGenerator } from '../keys/key-generator';
import { WalletEntity } from './entities/wallet.entity';
import { WalletCache } from './wallet-cache';
import { WalletProfiles } from './wallet-profiles';
import { WalletsController } from './wallets.controller';
import { WalletsRepository } from './wallets.repository';
import { WalletsService } from './wallets.service';

/** Wallets: creation (keys generated off the event loop), reads from memory (with the profile on request), the console's address lookups. */
@Module({
  imports: [TypeOrmModule.forFeature([WalletEntity])],
  controllers: [WalletsController],
  providers: [ConsoleAuthorizer, WalletsRepository, WalletsService, WalletCache, WalletProfiles, KeyGenerator],
  exports: [WalletsRepository, WalletsService, WalletCache, KeyGenerator],
})
export class WalletsModule {}

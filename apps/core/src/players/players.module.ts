import { Module } from '@nestjs/common';
import { ConsoleAuthorizer } from '@game-wallet/service';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PlayerEntity } from './entities/player.entity';
import { PlayersController } from './players.controller';
import { PlayersRepository } from './players.repository';
import { PlayersService } from './players.service';

@Module({
  imports: [TypeOrmModule.forFeature([PlayerEntity])],
  controllers: [PlayersController],
  providers: [ConsoleAuthorizer, PlayersRepository, PlayersService],
})
export class PlayersModule {}

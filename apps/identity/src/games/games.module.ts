import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { GameEntity } from './entities/game.entity';
import { GameAuditController } from './game-audit.controller';
import { GamesController } from './games.controller';
import { GamesRepository } from './games.repository';
import { GamesService } from './games.service';

@Module({
  imports: [TypeOrmModule.forFeature([GameEntity]), AuditModule],
  controllers: [GamesController, GameAuditController],
  providers: [GamesRepository, GamesService],
  exports: [GamesService],
})
export class GamesModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditChainer } from './audit-chainer';
import { AuditRepository } from './audit.repository';
import { AuditService } from './audit.service';
import { AuditEventEntity } from './entities/audit-event.entity';

@Module({
  imports: [TypeOrmModule.forFeature([AuditEventEntity])],
  providers: [AuditRepository, AuditService, AuditChainer],
  exports: [AuditService],
})
export class AuditModule {}

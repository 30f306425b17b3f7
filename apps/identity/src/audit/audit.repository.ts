import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, LessThan, Repository } from 'typeorm';
import { AuditEventEntity } from './entities/audit-event.entity';

@Injectable()
export class AuditRepository {
  constructor(@InjectRepository(AuditEventEntity) private readonly events: Repository<AuditEventEntity>) {}

  /** Inserts within `manager`'s transaction when given, so an action and its audit entry commit together. */
  async insert(event: AuditEventEntity, manager?: EntityManager): Promise<void> {
    await (manager ?? this.events.manager).getRepository(AuditEventEntity).save(event, { reload: false });
  }

  /** A game's events, newest first, strictly older than `beforeId` (ids are time-ordered UUIDv7). */
  listForGame(applicationId: string, limit: number, beforeId?: string): Promise<AuditEventEntity[]> {
    return this.events.find({
      where: beforeId === undefined ? { applicationId } : { applicationId, id: LessThan(beforeId) },
      order: { id: 'DESC' },
      take: limit,
    });
  }
}

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, LessThan, Repository } from 'typeorm';
import { SignatureEventEntity } from './entities/signature-event.entity';

@Injectable()
export class SignaturesRepository {
  constructor(@InjectRepository(SignatureEventEntity) private readonly events: Repository<SignatureEventEntity>) {}

  async insert(event: SignatureEventEntity, manager: EntityManager): Promise<void> {
    await manager.insert(SignatureEventEntity, event);
  }

  listForGame(applicationId: string, limit: number, beforeId?: string): Promise<SignatureEventEntity[]> {
    return this.events.find({
      where: beforeId === undefined ? { applicationId } : { applicationId, id: LessThan(beforeId) },
      order: { id: 'DESC' },
      take: limit,
    });
  }
}

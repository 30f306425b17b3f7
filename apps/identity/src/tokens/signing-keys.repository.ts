import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { SigningKeyEntity } from './entities/signing-key.entity';

@Injectable()
export class SigningKeysRepository {
  constructor(@InjectRepository(SigningKeyEntity) private readonly keys: Repository<SigningKeyEntity>) {}

  /** The current key and the previous one (the JWKS). */
  findPublished(): Promise<SigningKeyEntity[]> {
    return this.keys.find({ where: { status: In(['current', 'previous']) }, order: { createdAt: 'DESC' } });
  }

  /** Makes `next` the current key: current → previous, previous → retired, in one transaction. */
  async rotateTo(next: SigningKeyEntity): Promise<void> {
    await this.keys.manager.transaction(async (manager) => {
      await manager.update(SigningKeyEntity, { status: 'previous' }, { status: 'retired' });
      await manager.update(SigningKeyEntity, { status: 'current' }, { status: 'previous' });
      await manager.insert(SigningKeyEntity, next);
    });
  }
}

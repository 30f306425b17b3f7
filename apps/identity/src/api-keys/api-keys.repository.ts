import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { ApiKeyEntity } from './entities/api-key.entity';

@Injectable()
export class ApiKeysRepository {
  constructor(@InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>) {}

  listForGame(applicationId: string): Promise<ApiKeyEntity[]> {
    return this.keys.find({ where: { applicationId }, order: { id: 'ASC' } });
  }

  findInGame(applicationId: string, id: string): Promise<ApiKeyEntity | null> {
    return this.keys.findOneBy({ applicationId, id });
  }

  findByHash(keyHash: string): Promise<ApiKeyEntity | null> {
    return this.keys.findOneBy({ keyHash });
  }

  async insert(key: ApiKeyEntity, manager: EntityManager): Promise<void> {
    await manager.insert(ApiKeyEntity, key);
  }

  async setActive(applicationId: string, id: string, active: boolean, manager: EntityManager): Promise<void> {
    await manager.update(ApiKeyEntity, { applicationId, id }, { active });
  }

  async delete(applicationId: string, id: string, manager: EntityManager): Promise<void> {
    await manager.delete(ApiKeyEntity, { applicationId, id });
  }

  /** Moves each key's last use forward (never back); one statement for the whole batch. */
  async touch(uses: { keyId: string; at: Date }[]): Promise<number> {
    if (uses.length === 0) {
      return 0;
    }
    const result: unknown[] = await this.keys.query(
      `UPDATE identity.api_keys AS k SET last_used_at = GREATEST(COALESCE(k.last_used_at, '-infinity'), u.at)
       FROM unnest($1::uuid[], $2::timestamptz[]) AS u(id, at)
       WHERE k.id = u.id RETURNING k.id`,
      [uses.map((use) => use.keyId), uses.map((use) => use.at.toISOString())],
    );
    return Array.isArray(result[0]) ? (result[0] as unknown[]).length : result.length;
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.keys.manager.transaction(work);
  }
}

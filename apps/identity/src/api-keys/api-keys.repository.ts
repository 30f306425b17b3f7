import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { SignedRequests } from '@game-wallet/contracts';
import { ApiKeyEntity } from './entities/api-key.entity';
import { RequestSigningKeyEntity } from './entities/request-signing-key.entity';

@Injectable()
export class ApiKeysRepository {
  constructor(
    @InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>,
    @InjectRepository(RequestSigningKeyEntity) private readonly signingKeys: Repository<RequestSigningKeyEntity>,
  ) {}

  /** The request-signing keys of these API keys, oldest first. */
  signingKeysOf(apiKeyIds: string[], manager?: EntityManager): Promise<RequestSigningKeyEntity[]> {
    if (apiKeyIds.length === 0) {
      return Promise.resolve([]);
    }
    return (manager?.getRepository(RequestSigningKeyEntity) ?? this.signingKeys).find({ where: { apiKeyId: In(apiKeyIds) }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** Locks the API key's row for a change of its signing settings (two changes at once cannot pass the limit). */
  async lockForUpdate(applicationId: string, id: string, manager: EntityManager): Promise<ApiKeyEntity | null> {
    return manager.getRepository(ApiKeyEntity).findOne({ where: { applicationId, id }, lock: { mode: 'pessimistic_write' } });
  }

  async insertSigningKey(key: RequestSigningKeyEntity, manager: EntityManager): Promise<void> {
    await manager.insert(RequestSigningKeyEntity, key);
  }

  async deleteSigningKey(apiKeyId: string, id: string, manager: EntityManager): Promise<void> {
    await manager.delete(RequestSigningKeyEntity, { apiKeyId, id });
  }

  async setSignedRequests(applicationId: string, id: string, signedRequests: SignedRequests, manager: EntityManager): Promise<void> {
    await manager.update(ApiKeyEntity, { applicationId, id }, { signedRequests });
  }

  /** Moves each signing key's last use forward (never back); one statement for the batch. */
  async touchSigningKeys(uses: { keyId: string; signingKeyId: string; at: Date }[]): Promise<void> {
    if (uses.length === 0) {
      return;
    }
    await this.signingKeys.query(
      `UPDATE identity.request_signing_keys AS k SET last_used_at = GREATEST(COALESCE(k.last_used_at, '-infinity'), u.at)
       FROM unnest($1::uuid[], $2::varchar[], $3::timestamptz[]) AS u(api_key_id, id, at)
       WHERE k.api_key_id = u.api_key_id AND k.id = u.id`,
      [uses.map((use) => use.keyId), uses.map((use) => use.signingKeyId), uses.map((use) => use.at.toISOString())],
    );
  }

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

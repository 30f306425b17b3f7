import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DEFAULT_SIGNING_POLICY, SigningPolicy, withPolicyDefaults } from '@game-wallet/contracts';
import { LRUCache } from 'lru-cache';
import { Repository } from 'typeorm';
import { SigningPolicyEntity } from './signing-policy.entity';

/**
 * Games' signing policies. Each replica keeps a policy it read for half a second at most, so a change reaches every
 * replica within a second (SPEC §11) without a broadcast, and a burst of signatures reads it once.
 */
@Injectable()
export class SigningPoliciesService {
  private readonly cache = new LRUCache<string, SigningPolicy>({ max: 10_000, ttl: 500 });

  constructor(@InjectRepository(SigningPolicyEntity) private readonly policies: Repository<SigningPolicyEntity>) {}

  async forGame(applicationId: string): Promise<SigningPolicy> {
    const cached = this.cache.get(applicationId);
    if (cached !== undefined) {
      return cached;
    }
    const row = await this.policies.findOneBy({ applicationId });
    // A policy saved before a limit existed has no value for it: no limit, as when it was saved.
    const policy = row === null ? DEFAULT_SIGNING_POLICY : withPolicyDefaults(row.policy);
    this.cache.set(applicationId, policy);
    return policy;
  }

  async put(applicationId: string, policy: SigningPolicy): Promise<SigningPolicy> {
    await this.policies.upsert({ applicationId, policy, updatedAt: new Date() }, ['applicationId']);
    this.cache.delete(applicationId);
    return policy;
  }
}

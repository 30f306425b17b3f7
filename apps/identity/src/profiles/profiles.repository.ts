import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ProfileEntity } from './entities/profile.entity';

@Injectable()
export class ProfilesRepository {
  constructor(@InjectRepository(ProfileEntity) private readonly profiles: Repository<ProfileEntity>) {}

  findById(id: string): Promise<ProfileEntity | null> {
    return this.profiles.findOneBy({ id });
  }

  /**
   * Inserts the profile unless the game already has one with this external key; either way returns the stored row
   * and whether this call created it. Safe under any number of concurrent calls.
   */
  async createOrGet(profile: ProfileEntity): Promise<{ profile: ProfileEntity; created: boolean }> {
    const inserted: ProfileEntity[] = await this.profiles.query(
      `INSERT INTO identity.profiles (id, application_id, external_key, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (application_id, external_key) DO NOTHING
       RETURNING id, application_id AS "applicationId", external_key AS "externalKey", created_at AS "createdAt"`,
      [profile.id, profile.applicationId, profile.externalKey, profile.createdAt],
    );
    if (inserted.length > 0) {
      return { profile: inserted[0], created: true };
    }
    const existing = await this.profiles.findOneByOrFail({ applicationId: profile.applicationId, externalKey: profile.externalKey ?? undefined });
    return { profile: existing, created: false };
  }
}

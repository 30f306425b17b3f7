import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { PoolStatement, StatementBatcher } from '@game-wallet/database';
import { Repository } from 'typeorm';
import { ProfileEntity } from './entities/profile.entity';

/** New profiles, any number in one statement (see StatementBatcher); answers those it inserted. */
const INSERT_PROFILES = new PoolStatement<ProfileEntity>(
  `INSERT INTO identity.profiles (id, application_id, external_key, created_at)
   SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::varchar[], $4::timestamptz[])
   ON CONFLICT (application_id, external_key) DO NOTHING
   RETURNING id, application_id AS "applicationId", external_key AS "externalKey", created_at AS "createdAt"`,
);

@Injectable()
export class ProfilesRepository {
  /** Concurrent player creations share one INSERT (and its commit). */
  private readonly inserts = new StatementBatcher<ProfileEntity, ProfileEntity | undefined>(async (profiles) => {
    const rows = await INSERT_PROFILES.run(this.profiles.manager.connection, [
      profiles.map((profile) => profile.id),
      profiles.map((profile) => profile.applicationId),
      profiles.map((profile) => profile.externalKey),
      profiles.map((profile) => profile.createdAt),
    ]);
    const inserted = new Map(rows.map((row) => [row.id, row]));
    return profiles.map((profile) => inserted.get(profile.id));
  });

  constructor(@InjectRepository(ProfileEntity) private readonly profiles: Repository<ProfileEntity>) {}

  findById(id: string): Promise<ProfileEntity | null> {
    return this.profiles.findOneBy({ id });
  }

  /**
   * Inserts the profile unless the game already has one with this external key; either way returns the stored row
   * and whether this call created it. Safe under any number of concurrent calls.
   */
  async createOrGet(profile: ProfileEntity): Promise<{ profile: ProfileEntity; created: boolean }> {
    const inserted = await this.inserts.run(profile);
    if (inserted) {
      return { profile: inserted, created: true };
    }
    const existing = await this.profiles.findOneByOrFail({ applicationId: profile.applicationId, externalKey: profile.externalKey ?? undefined });
    return { profile: existing, created: false };
  }
}

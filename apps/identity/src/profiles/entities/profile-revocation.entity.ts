import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Tokens of this profile issued before `revokedBefore` are refused everywhere. */
@Entity({ name: 'profile_revocations' })
export class ProfileRevocationEntity {
  @PrimaryColumn({ name: 'profile_id', type: 'uuid' })
  profileId!: string;

  @Column({ name: 'application_id', type: 'uuid' })
  applicationId!: string;

  @Column({ name: 'revoked_before', type: 'timestamptz' })
  revokedBefore!: Date;
}

import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Profile tokens issued by this (deleted) API key before `revokedBefore` are refused everywhere. */
@Entity({ name: 'api_key_revocations' })
export class ApiKeyRevocationEntity {
  @PrimaryColumn({ name: 'api_key_id', type: 'uuid' })
  apiKeyId!: string;

  @Column({ name: 'application_id', type: 'uuid' })
  applicationId!: string;

  @Column({ name: 'revoked_before', type: 'timestamptz' })
  revokedBefore!: Date;
}

import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { SignedRequests } from '@game-wallet/contracts';

/** An API key. Only the SHA-256 of the secret is kept (`keyHash`, hex); the secret is shown once, at creation. */
@Entity({ name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'application_id', type: 'uuid' })
  applicationId!: string;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ name: 'key_hash', type: 'char', length: 64 })
  keyHash!: string;

  @Column({ type: 'varchar', length: 16 })
  preview!: string;

  @Column({ type: 'boolean' })
  active!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;

  /** Which of its requests must carry a signature by one of its request-signing keys. */
  @Column({ name: 'signed_requests', type: 'varchar', length: 8 })
  signedRequests!: SignedRequests;
}

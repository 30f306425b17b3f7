import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { RequestSignatureAlgorithm, SigningPublicJwk } from '@game-wallet/contracts';

/** A public key an API key's requests may be signed with (RFC 9421); `id` is its RFC 7638 thumbprint, the `keyid`. */
@Entity({ name: 'request_signing_keys' })
export class RequestSigningKeyEntity {
  @PrimaryColumn({ name: 'api_key_id', type: 'uuid' })
  apiKeyId!: string;

  @PrimaryColumn({ type: 'varchar', length: 43 })
  id!: string;

  @Column({ name: 'application_id', type: 'uuid' })
  applicationId!: string;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'varchar', length: 20 })
  algorithm!: RequestSignatureAlgorithm;

  @Column({ name: 'public_key', type: 'jsonb' })
  publicKey!: SigningPublicJwk;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;
}

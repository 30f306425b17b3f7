import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A WebAuthn credential registered as an operator's second factor (its public key, never a secret). */
@Entity({ name: 'operator_passkeys' })
export class PasskeyEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'operator_id', type: 'uuid' })
  operatorId!: string;

  /** base64url, as the authenticator names it */
  @Column({ name: 'credential_id', type: 'varchar', length: 1366 })
  credentialId!: string;

  @Column({ name: 'public_key', type: 'bytea' })
  publicKey!: Buffer;

  @Column({ type: 'bigint', default: '0' })
  counter!: string;

  @Column({ type: 'jsonb', default: [] })
  transports!: string[];

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;
}

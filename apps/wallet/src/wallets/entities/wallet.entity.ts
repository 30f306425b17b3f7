import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A custodial wallet: one per profile. Addresses in clear; the secret only sealed (see keys/envelope.ts). */
@Entity({ name: 'wallets' })
export class WalletEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'application_id', type: 'uuid' })
  applicationId!: string;

  @Column({ name: 'profile_id', type: 'uuid' })
  profileId!: string;

  @Column({ name: 'address_evm', type: 'varchar', length: 42 })
  addressEvm!: string;

  @Column({ name: 'address_sol', type: 'varchar', length: 44 })
  addressSol!: string;

  @Column({ name: 'address_sui', type: 'varchar', length: 66 })
  addressSui!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz' })
  lastUsedAt!: Date;

  @Column({ name: 'entropy_ciphertext', type: 'bytea' })
  entropyCiphertext!: Buffer;

  @Column({ name: 'entropy_iv', type: 'bytea' })
  entropyIv!: Buffer;

  @Column({ name: 'entropy_tag', type: 'bytea' })
  entropyTag!: Buffer;

  @Column({ name: 'data_key_ciphertext', type: 'bytea' })
  dataKeyCiphertext!: Buffer;

  @Column({ name: 'data_key_iv', type: 'bytea' })
  dataKeyIv!: Buffer;

  @Column({ name: 'data_key_tag', type: 'bytea' })
  dataKeyTag!: Buffer;

  @Column({ name: 'master_key_id', type: 'varchar', length: 64 })
  masterKeyId!: string;

  /** Which associated data the sealed secret is bound to (see keys/envelope.ts). */
  @Column({ name: 'aad_version', type: 'smallint' })
  aadVersion!: number;

  /**
   * The chain private keys sealed under the data key, `iv ‖ ciphertext ‖ tag` (keys/chain-key-envelope.ts): null for a
   * wallet made before them until the backfill (`npm run rewrap -- --chain-keys`) fills all three at once.
   */
  @Column({ name: 'sealed_evm_key', type: 'bytea', nullable: true })
  sealedEvmKey!: Buffer | null;

  @Column({ name: 'sealed_sol_key', type: 'bytea', nullable: true })
  sealedSolKey!: Buffer | null;

  @Column({ name: 'sealed_sui_key', type: 'bytea', nullable: true })
  sealedSuiKey!: Buffer | null;
}

import { Column, Entity, PrimaryColumn } from 'typeorm';

export type PlayerStatus = 'pending' | 'ready';

/**
 * A game's player. Created `pending`, then completed with its profile (identity) and wallet (wallet service); only a
 * `ready` player is ever shown. A retry of the same creation completes a pending one, so nothing is made twice.
 */
@Entity({ name: 'players' })
export class PlayerEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'application_id', type: 'uuid' })
  applicationId!: string;

  @Column({ name: 'unique_id', type: 'varchar', length: 512 })
  uniqueId!: string;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  image!: string | null;

  @Column({ name: 'user_data', type: 'jsonb' })
  userData!: Record<string, unknown>;

  @Column({ name: 'profile_id', type: 'uuid', nullable: true })
  profileId!: string | null;

  @Column({ name: 'wallet_id', type: 'uuid', nullable: true })
  walletId!: string | null;

  @Column({ type: 'varchar', length: 16 })
  status!: PlayerStatus;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

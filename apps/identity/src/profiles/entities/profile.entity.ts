import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A profile: the identity a game client acts as. `externalKey` makes creation idempotent per game (a player's key). */
@Entity({ name: 'profiles' })
export class ProfileEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'application_id', type: 'uuid' })
  applicationId!: string;

  @Column({ name: 'external_key', type: 'varchar', length: 200, nullable: true })
  externalKey!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

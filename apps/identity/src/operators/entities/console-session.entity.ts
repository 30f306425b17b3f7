import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A console session; its id is the `jti` of the console token. Signing out sets `revokedAt`. */
@Entity({ name: 'console_sessions' })
export class ConsoleSessionEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'operator_id', type: 'uuid' })
  operatorId!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}

import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A console session; its id is the `jti` of the console token. Ending it sets `revokedAt`. `secondFactorAt` is when
 * the operator last gave a second factor on it (at sign-in or a step-up), or for an operator without one their
 * password: step-up actions need it within the last 5 minutes.
 */
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

  @Column({ type: 'varchar', length: 64, nullable: true })
  ip!: string | null;

  @Column({ name: 'user_agent', type: 'varchar', length: 256, nullable: true })
  userAgent!: string | null;

  @Column({ name: 'last_seen_at', type: 'timestamptz', nullable: true })
  lastSeenAt!: Date | null;

  @Column({ name: 'second_factor_at', type: 'timestamptz', nullable: true })
  secondFactorAt!: Date | null;
}

import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A console operator. `passwordHash` is an scrypt hash in `scrypt$N$r$p$salt$hash` form; `totpSecret` (and the one
 * being set up, `totpPendingSecret`) are sealed under identity's key-encryption key. A removed operator stays, so
 * that their ended sessions stay refused; their e-mail may be invited again.
 */
@Entity({ name: 'operators' })
export class OperatorEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ type: 'varchar', length: 320 })
  email!: string;

  @Column({ name: 'password_hash', type: 'text' })
  passwordHash!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'display_name', type: 'varchar', length: 100, default: '' })
  displayName!: string;

  @Column({ type: 'varchar', length: 16, default: 'active' })
  status!: 'active' | 'suspended' | 'removed';

  @Column({ name: 'totp_secret', type: 'text', nullable: true })
  totpSecret!: string | null;

  @Column({ name: 'totp_pending_secret', type: 'text', nullable: true })
  totpPendingSecret!: string | null;

  /** The last TOTP time step accepted: a code is never accepted twice. */
  @Column({ name: 'totp_last_step', type: 'bigint', nullable: true })
  totpLastStep!: string | null;

  @Column({ name: 'last_sign_in_at', type: 'timestamptz', nullable: true })
  lastSignInAt!: Date | null;

  @Column({ name: 'removed_at', type: 'timestamptz', nullable: true })
  removedAt!: Date | null;
}

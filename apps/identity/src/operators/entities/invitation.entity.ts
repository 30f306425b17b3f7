import type { RoleGrant } from '@game-wallet/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An invitation to join the console: its token is stored as its SHA-256 (hex) only, and works once, for 72 hours. */
@Entity({ name: 'operator_invitations' })
export class InvitationEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ type: 'varchar', length: 320 })
  email!: string;

  @Column({ type: 'jsonb' })
  grants!: RoleGrant[];

  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash!: string;

  /** null: made from the command line (`npm run operator:create`) */
  @Column({ name: 'invited_by', type: 'uuid', nullable: true })
  invitedBy!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'accepted_at', type: 'timestamptz', nullable: true })
  acceptedAt!: Date | null;

  @Column({ name: 'accepted_by', type: 'uuid', nullable: true })
  acceptedBy!: string | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}

import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A single-use recovery code, stored as the SHA-256 of the code (hex); `usedAt` once spent. */
@Entity({ name: 'operator_recovery_codes' })
export class RecoveryCodeEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'operator_id', type: 'uuid' })
  operatorId!: string;

  @Column({ name: 'code_hash', type: 'char', length: 64 })
  codeHash!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt!: Date | null;
}

import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One audited action: who (`actor`), what (`action`), on what (`target`), when; never a secret in `details`. */
@Entity({ name: 'audit_events' })
export class AuditEventEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'application_id', type: 'uuid', nullable: true })
  applicationId!: string | null;

  @Column({ type: 'timestamptz' })
  at!: Date;

  @Column({ type: 'varchar', length: 400 })
  actor!: string;

  @Column({ type: 'varchar', length: 64 })
  action!: string;

  @Column({ type: 'varchar', length: 400 })
  target!: string;

  @Column({ type: 'jsonb' })
  details!: Record<string, unknown>;
}

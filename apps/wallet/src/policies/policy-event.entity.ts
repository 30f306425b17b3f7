import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One change of a game's signing policy: who (`actor`, `operator:<id>`), what (`action`, `signing_policy.updated`), on
 * which game (`target`, `game:<id>`), when, and in `details` the operator's client address and the whole policy before
 * and after. Saved in the transaction that changes the policy.
 */
@Entity({ name: 'policy_events' })
export class PolicyEventEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'application_id', type: 'uuid' })
  applicationId!: string;

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

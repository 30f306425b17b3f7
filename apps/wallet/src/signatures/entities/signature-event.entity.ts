import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One signature made: which wallet, chain and operation, SHA-256 of what was signed, and the credential used. No message, no key. */
@Entity({ name: 'signature_events' })
export class SignatureEventEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'application_id', type: 'uuid' })
  applicationId!: string;

  @Column({ name: 'wallet_id', type: 'uuid' })
  walletId!: string;

  @Column({ type: 'varchar', length: 8 })
  chain!: string;

  /** `message`, `transaction` or `typed-data` */
  @Column({ type: 'varchar', length: 16 })
  operation!: string;

  /** `allowed`, or `denied` by the game's signing policy (then nothing was signed) */
  @Column({ type: 'varchar', length: 8 })
  decision!: string;

  /** SHA-256 of what was signed: the message, the unsigned transaction's bytes, or the EIP-712 digest */
  @Column({ name: 'message_sha256', type: 'char', length: 64 })
  messageSha256!: string;

  /** `api-key:<id>` or `profile:<id>` */
  @Column({ type: 'varchar', length: 80 })
  credential!: string;

  @Column({ type: 'timestamptz' })
  at!: Date;

  /** what the signing policy's rules read of the request (never the message or payload beyond that); null on older rows */
  @Column({ type: 'jsonb', nullable: true })
  facts!: Record<string, unknown> | null;

  /** the active policy version that decided */
  @Column({ name: 'policy_version', type: 'integer', nullable: true })
  policyVersion!: number | null;

  /** the rule that decided; null when no rule accepted */
  @Column({ name: 'rule_id', type: 'varchar', length: 64, nullable: true })
  ruleId!: string | null;
}

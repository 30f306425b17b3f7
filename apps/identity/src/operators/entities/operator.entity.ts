import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A console operator. `passwordHash` is an scrypt hash in `scrypt$N$r$p$salt$hash` form. */
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
}

import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The instance's console settings: one row. */
@Entity({ name: 'console_settings' })
export class ConsoleSettingsEntity {
  @PrimaryColumn({ type: 'smallint' })
  id!: number;

  @Column({ name: 'require_two_factor', type: 'boolean', default: false })
  requireTwoFactor!: boolean;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

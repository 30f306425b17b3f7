import type { ConsoleRole } from '@game-wallet/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A role an operator holds, for every game (`gameId` null) or for one game. */
@Entity({ name: 'operator_grants' })
export class OperatorGrantEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'operator_id', type: 'uuid' })
  operatorId!: string;

  @Column({ name: 'game_id', type: 'uuid', nullable: true })
  gameId!: string | null;

  @Column({ type: 'varchar', length: 16 })
  role!: ConsoleRole;
}

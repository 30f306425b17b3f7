import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'games' })
export class GameEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

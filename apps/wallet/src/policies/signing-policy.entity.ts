import { SigningPolicy } from '@game-wallet/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A game's signing policy; a game without one has the default policy. */
@Entity({ name: 'signing_policies' })
export class SigningPolicyEntity {
  @PrimaryColumn({ name: 'application_id', type: 'uuid' })
  applicationId!: string;

  @Column({ type: 'jsonb' })
  policy!: SigningPolicy;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

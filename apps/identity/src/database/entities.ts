import { ApiKeyEntity } from '../api-keys/entities/api-key.entity';
import { AuditEventEntity } from '../audit/entities/audit-event.entity';
import { GameEntity } from '../games/entities/game.entity';
import { ConsoleSessionEntity } from '../operators/entities/console-session.entity';
import { OperatorEntity } from '../operators/entities/operator.entity';
import { ProfileRevocationEntity } from '../profiles/entities/profile-revocation.entity';
import { ProfileEntity } from '../profiles/entities/profile.entity';
import { ApiKeyRevocationEntity } from '../tokens/entities/api-key-revocation.entity';
import { SigningKeyEntity } from '../tokens/entities/signing-key.entity';

/** Every entity of the `identity` schema. */
export const IDENTITY_ENTITIES = [
  GameEntity,
  ApiKeyEntity,
  ProfileEntity,
  ProfileRevocationEntity,
  ApiKeyRevocationEntity,
  SigningKeyEntity,
  OperatorEntity,
  ConsoleSessionEntity,
  AuditEventEntity,
];

import { ApiKeyEntity } from '../api-keys/entities/api-key.entity';
import { RequestSigningKeyEntity } from '../api-keys/entities/request-signing-key.entity';
import { AuditEventEntity } from '../audit/entities/audit-event.entity';
import { GameEntity } from '../games/entities/game.entity';
import { ConsoleSessionEntity } from '../operators/entities/console-session.entity';
import { ConsoleSettingsEntity } from '../operators/entities/console-settings.entity';
import { InvitationEntity } from '../operators/entities/invitation.entity';
import { OperatorGrantEntity } from '../operators/entities/operator-grant.entity';
import { OperatorEntity } from '../operators/entities/operator.entity';
import { PasskeyEntity } from '../operators/entities/passkey.entity';
import { RecoveryCodeEntity } from '../operators/entities/recovery-code.entity';
import { ProfileRevocationEntity } from '../profiles/entities/profile-revocation.entity';
import { ProfileEntity } from '../profiles/entities/profile.entity';
import { ApiKeyRevocationEntity } from '../tokens/entities/api-key-revocation.entity';
import { SigningKeyEntity } from '../tokens/entities/signing-key.entity';

/** Every entity of the `identity` schema. */
export const IDENTITY_ENTITIES = [
  GameEntity,
  ApiKeyEntity,
  RequestSigningKeyEntity,
  ProfileEntity,
  ProfileRevocationEntity,
  ApiKeyRevocationEntity,
  SigningKeyEntity,
  OperatorEntity,
  ConsoleSessionEntity,
  OperatorGrantEntity,
  RecoveryCodeEntity,
  PasskeyEntity,
  InvitationEntity,
  ConsoleSettingsEntity,
  AuditEventEntity,
];

import { Baseline1763740800000 } from './1763740800000-Baseline';
import { IdentityTables1763740900000 } from './1763740900000-IdentityTables';
import { ApiKeyRevocations1763741000000 } from './1763741000000-ApiKeyRevocations';
import { ConsoleOperators1763741700000 } from './1763741700000-ConsoleOperators';
import { CommandLineInvitations1763741800000 } from './1763741800000-CommandLineInvitations';
import { AuditChain1763741900000 } from './1763741900000-AuditChain';
import { Webhooks1763742000000 } from './1763742000000-Webhooks';
import { RequestSigningKeys1763742100000 } from './1763742100000-RequestSigningKeys';

/** Every migration of the `identity` schema, oldest first. */
export const IDENTITY_MIGRATIONS = [Baseline1763740800000, IdentityTables1763740900000, ApiKeyRevocations1763741000000, ConsoleOperators1763741700000, CommandLineInvitations1763741800000, AuditChain1763741900000, Webhooks1763742000000, RequestSigningKeys1763742100000];

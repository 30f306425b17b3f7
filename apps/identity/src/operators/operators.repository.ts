import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { newId } from '@game-wallet/database';
import { IsNull, Not, Repository } from 'typeorm';
import { ConsoleSessionEntity } from './entities/console-session.entity';
import { OperatorGrantEntity } from './entities/operator-grant.entity';
import { OperatorEntity } from './entities/operator.entity';
import { PasskeyEntity } from './entities/passkey.entity';
import { RecoveryCodeEntity } from './entities/recovery-code.entity';

@Injectable()
export class OperatorsRepository {
  constructor(
    @InjectRepository(OperatorEntity) private readonly operators: Repository<OperatorEntity>,
    @InjectRepository(ConsoleSessionEntity) private readonly sessions: Repository<ConsoleSessionEntity>,
  ) {}

  count(): Promise<number> {
    return this.operators.count();
  }

  findById(id: string): Promise<OperatorEntity | null> {
    return this.operators.findOneBy({ id });
  }

  findSession(operatorId: string, sessionId: string): Promise<ConsoleSessionEntity | null> {
    return this.sessions.findOneBy({ id: sessionId, operatorId });
  }

  /** The operator with this e-mail, unless removed (a removed operator's e-mail may belong to someone new). */
  findByEmail(email: string): Promise<OperatorEntity | null> {
    return this.operators.findOneBy({ email, status: Not('removed') });
  }

  /** A new operator and their grants, together. */
  async insert(operator: OperatorEntity, grants: Omit<OperatorGrantEntity, 'id' | 'operatorId'>[]): Promise<void> {
    await this.operators.manager.transaction(async (manager) => {
      await manager.insert(OperatorEntity, operator);
      if (grants.length > 0) {
        await manager.insert(
          OperatorGrantEntity,
          grants.map((grant) => ({ id: newId(), operatorId: operator.id, gameId: grant.gameId, role: grant.role })),
        );
      }
    });
  }

  /** The operator's passkeys, oldest first. */
  listPasskeys(operatorId: string): Promise<PasskeyEntity[]> {
    return this.operators.manager.find(PasskeyEntity, { where: { operatorId }, order: { createdAt: 'ASC' } });
  }

  /** How many of the operator's recovery codes are still unused. */
  unusedRecoveryCodes(operatorId: string): Promise<number> {
    return this.operators.manager.count(RecoveryCodeEntity, { where: { operatorId, usedAt: IsNull() } });
  }

  async noteSignIn(operatorId: string, at: Date): Promise<void> {
    await this.operators.update({ id: operatorId }, { lastSignInAt: at });
  }

  async updateDisplayName(id: string, displayName: string): Promise<void> {
    await this.operators.update({ id }, { displayName });
  }

  async updatePasswordHash(id: string, passwordHash: string): Promise<void> {
    await this.operators.update({ id }, { passwordHash });
  }

  async insertSession(session: ConsoleSessionEntity): Promise<void> {
    await this.sessions.insert(session);
  }

  /** Marks the operator's session signed out; returns it, or null when it was not open. */
  async revokeSession(operatorId: string, sessionId: string): Promise<ConsoleSessionEntity | null> {
    const session = await this.findSession(operatorId, sessionId);
    if (!session || session.revokedAt) {
      return null;
    }
    session.revokedAt = new Date();
    await this.sessions.update({ id: session.id, operatorId }, { revokedAt: session.revokedAt });
    return session;
  }
}

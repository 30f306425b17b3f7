import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ConsoleSessionEntity } from './entities/console-session.entity';
import { OperatorEntity } from './entities/operator.entity';

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

  findByEmail(email: string): Promise<OperatorEntity | null> {
    return this.operators.findOneBy({ email });
  }

  async insert(operator: OperatorEntity): Promise<void> {
    await this.operators.insert(operator);
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

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, MoreThan, Repository } from 'typeorm';
import { ConsoleSessionEntity } from './entities/console-session.entity';

/** An operator's console sessions, as they see and end them. Every query names the operator. */
@Injectable()
export class ConsoleSessionsRepository {
  constructor(@InjectRepository(ConsoleSessionEntity) private readonly sessions: Repository<ConsoleSessionEntity>) {}

  async insert(session: ConsoleSessionEntity): Promise<void> {
    await this.sessions.insert(session);
  }

  /** The operator's sessions that are neither ended nor expired, newest first. */
  listOpen(operatorId: string): Promise<ConsoleSessionEntity[]> {
    return this.sessions.find({ where: { operatorId, revokedAt: IsNull(), expiresAt: MoreThan(new Date()) }, order: { createdAt: 'DESC' }, take: 200 });
  }

  /** Ends the operator's open sessions (one, or all but `except`); answers those it ended. */
  async end(operatorId: string, which: { sessionId: string } | { except: string }): Promise<ConsoleSessionEntity[]> {
    const revokedAt = new Date();
    const result = await this.sessions
      .createQueryBuilder()
      .update()
      .set({ revokedAt })
      .where('operator_id = :operatorId AND revoked_at IS NULL AND expires_at > now()', { operatorId })
      .andWhere('sessionId' in which ? 'id = :sessionId' : 'id <> :except', which)
      .returning('id, expires_at')
      .execute();
    return (result.raw as { id: string; expires_at: Date }[]).map((row) => ({ id: row.id, expiresAt: row.expires_at }) as ConsoleSessionEntity);
  }

  /** Notes that a second factor (or, for an operator without one, the password) was just given on the session. */
  async markSecondFactor(operatorId: string, sessionId: string, at: Date): Promise<void> {
    await this.sessions.update({ id: sessionId, operatorId, revokedAt: IsNull(), expiresAt: MoreThan(at) }, { secondFactorAt: at });
  }
}

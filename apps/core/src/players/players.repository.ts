import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { PoolStatement, StatementBatcher, newId } from '@game-wallet/database';
import { Repository } from 'typeorm';
import { PlayerEntity } from './entities/player.entity';

/** `actor`: who created the player, as the audit trail names them (`api-key:<id>`). */
type Completion = { id: string; profileId: string; walletId: string; at: Date; actor: string };

/** New pending players, any number in one statement (see StatementBatcher); answers the ids it inserted. */
const INSERT_PENDING = new PoolStatement<{ id: string }>(
  `INSERT INTO core.players (id, application_id, unique_id, image, user_data, status, created_at, updated_at)
   SELECT id, application_id, unique_id, image, user_data, 'pending', created_at, created_at
   FROM unnest($1::uuid[], $2::uuid[], $3::varchar[], $4::varchar[], $5::jsonb[], $6::timestamptz[])
        AS p(id, application_id, unique_id, image, user_data, created_at)
   ON CONFLICT DO NOTHING RETURNING id`,
);

/**
 * Pending players made ready, any number in one statement; answers those it updated. The rows are found by their
 * primary keys alone (`id = ANY`, then matched to their values) — each came from its game's own insert or lookup —
 * so the planner neither scans the table to hash-join it with the values nor picks the game's (application_id, …)
 * index and walks every player of the game while a fresh table has no statistics yet. Each player made ready gets its
 * `player.created` event in the outbox in the same statement.
 */
const COMPLETE = new PoolStatement<{ id: string; updatedAt: Date }>(
  `WITH ready AS (
     UPDATE core.players AS p SET profile_id = c.profile_id, wallet_id = c.wallet_id, status = 'ready', updated_at = c.at
     FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::timestamptz[]) AS c(id, profile_id, wallet_id, at)
     WHERE p.id = ANY($1::uuid[]) AND p.id = c.id AND p.status = 'pending'
     RETURNING p.id, p.application_id, p.unique_id, p.profile_id, p.wallet_id, p.updated_at
   ), outbox AS (
     INSERT INTO core.outbox (id, type, game_id, occurred_at, data)
     SELECT e.event_id, 'player.created', r.application_id, r.updated_at,
       jsonb_build_object('playerId', r.id, 'uniqueId', r.unique_id, 'profileId', r.profile_id, 'walletId', r.wallet_id, 'actor', e.actor)
     FROM ready AS r JOIN unnest($1::uuid[], $5::uuid[], $6::varchar[]) AS e(id, event_id, actor) ON e.id = r.id
   )
   SELECT id, updated_at AS "updatedAt" FROM ready`,
);

@Injectable()
export class PlayersRepository {
  /** Concurrent creations share their INSERT and their UPDATE (and the commit of each). */
  private readonly pendingInserts = new StatementBatcher<PlayerEntity, boolean>(async (players) => {
    const rows = await INSERT_PENDING.run(this.players.manager.connection, [
      players.map((player) => player.id),
      players.map((player) => player.applicationId),
      players.map((player) => player.uniqueId),
      players.map((player) => player.image),
      players.map((player) => JSON.stringify(player.userData)),
      players.map((player) => player.createdAt),
    ]);
    const inserted = new Set(rows.map((row) => row.id));
    return players.map((player) => inserted.has(player.id));
  });

  private readonly completions = new StatementBatcher<Completion, Date | undefined>(async (completions) => {
    const rows = await COMPLETE.run(this.players.manager.connection, [
      completions.map((completion) => completion.id),
      completions.map((completion) => completion.profileId),
      completions.map((completion) => completion.walletId),
      completions.map((completion) => completion.at),
      completions.map(() => newId()),
      completions.map((completion) => completion.actor),
    ]);
    const updatedAt = new Map(rows.map((row) => [row.id, row.updatedAt]));
    return completions.map((completion) => updatedAt.get(completion.id));
  });

  constructor(@InjectRepository(PlayerEntity) private readonly players: Repository<PlayerEntity>) {}

  /** Inserts the pending player unless the game already has one with this uniqueId; returns the stored row. */
  async insertOrGet(player: PlayerEntity): Promise<{ player: PlayerEntity; inserted: boolean }> {
    if (await this.pendingInserts.run(player)) {
      return { player, inserted: true };
    }
    return { player: await this.players.findOneByOrFail({ applicationId: player.applicationId, uniqueId: player.uniqueId }), inserted: false };
  }

  /**
   * Marks the player ready with its profile and wallet, if it is still pending; returns the stored row either way (so
   * a second, concurrent completion does not touch a player another one already completed).
   */
  async complete(player: PlayerEntity, profileId: string, walletId: string, at: Date, actor: string): Promise<PlayerEntity> {
    const updatedAt = await this.completions.run({ id: player.id, profileId, walletId, at, actor });
    if (updatedAt !== undefined) {
      return { ...player, profileId, walletId, status: 'ready', updatedAt };
    }
    return this.players.findOneByOrFail({ id: player.id });
  }

  findReady(id: string): Promise<PlayerEntity | null> {
    return this.players.findOneBy({ id, status: 'ready' });
  }

  /** A game's ready players, newest first; `uniqueId` filters to an exact match. */
  listReady(applicationId: string, limit: number, beforeId?: string, uniqueId?: string): Promise<PlayerEntity[]> {
    const query = this.players
      .createQueryBuilder('p')
      .where('p.application_id = :applicationId AND p.status = :ready', { applicationId, ready: 'ready' })
      .orderBy('p.id', 'DESC')
      .take(limit);
    if (beforeId !== undefined) {
      query.andWhere('p.id < :beforeId', { beforeId });
    }
    if (uniqueId !== undefined) {
      query.andWhere('p.unique_id = :uniqueId', { uniqueId });
    }
    return query.getMany();
  }
}

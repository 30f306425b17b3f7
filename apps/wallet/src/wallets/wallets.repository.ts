import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { PoolStatement, StatementBatcher } from '@game-wallet/database';
import { In, Repository } from 'typeorm';
import { WalletEntity } from './entities/wallet.entity';

/** A wallet without its sealed secret. */
export type WalletPublic = Pick<WalletEntity, 'id' | 'applicationId' | 'profileId' | 'addressEvm' | 'addressSol' | 'addressSui' | 'createdAt' | 'lastUsedAt'>;

/**
 * The wallets of any number of (game, profile) pairs, in one statement (see StatementBatcher): looked up in the
 * (application_id, profile_id) index by `= ANY`, the rows then matched to their pairs, so a table without statistics
 * yet is never scanned whole to hash-join it with the pairs.
 */
const FIND_FOR_PROFILES = new PoolStatement<{ id: string; applicationId: string; profileId: string }>(
  `SELECT id, application_id AS "applicationId", profile_id AS "profileId"
   FROM wallet.wallets WHERE application_id = ANY($1::uuid[]) AND profile_id = ANY($2::uuid[])`,
);

/** New wallets, any number in one statement; answers the ids it inserted (a profile that has one already is skipped). */
const INSERT_WALLETS = new PoolStatement<{ id: string }>(
  `INSERT INTO wallet.wallets (id, application_id, profile_id, address_evm, address_sol, address_sui, created_at, last_used_at,
                               entropy_ciphertext, entropy_iv, entropy_tag, data_key_ciphertext, data_key_iv, data_key_tag, master_key_id, aad_version,
                               sealed_evm_key, sealed_sol_key, sealed_sui_key)
   SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::varchar[], $5::varchar[], $6::varchar[], $7::timestamptz[], $8::timestamptz[],
                        $9::bytea[], $10::bytea[], $11::bytea[], $12::bytea[], $13::bytea[], $14::bytea[], $15::varchar[], $16::smallint[],
                        $17::bytea[], $18::bytea[], $19::bytea[])
   ON CONFLICT DO NOTHING RETURNING id`,
);

/** Whole wallets, sealed secret included, by id: for signing only. */
const FIND_WITH_SECRET = new PoolStatement<WalletEntity>(
  `SELECT id, application_id AS "applicationId", profile_id AS "profileId", address_evm AS "addressEvm", address_sol AS "addressSol",
          address_sui AS "addressSui", created_at AS "createdAt", last_used_at AS "lastUsedAt", entropy_ciphertext AS "entropyCiphertext",
          entropy_iv AS "entropyIv", entropy_tag AS "entropyTag", data_key_ciphertext AS "dataKeyCiphertext", data_key_iv AS "dataKeyIv",
          data_key_tag AS "dataKeyTag", master_key_id AS "masterKeyId", aad_version AS "aadVersion", sealed_evm_key AS "sealedEvmKey",
          sealed_sol_key AS "sealedSolKey", sealed_sui_key AS "sealedSuiKey"
   FROM wallet.wallets WHERE id = ANY($1::uuid[])`,
);

const pairKey = (applicationId: string, profileId: string): string => `${applicationId}/${profileId}`;

@Injectable()
export class WalletsRepository {
  private readonly lookups = new StatementBatcher<{ applicationId: string; profileId: string }, string | null>(async (pairs) => {
    const rows = await FIND_FOR_PROFILES.run(this.wallets.manager.connection, [pairs.map((pair) => pair.applicationId), pairs.map((pair) => pair.profileId)]);
    const found = new Map(rows.map((row) => [pairKey(row.applicationId, row.profileId), row.id]));
    return pairs.map((pair) => found.get(pairKey(pair.applicationId, pair.profileId)) ?? null);
  });

  private readonly withSecret = new StatementBatcher<string, WalletEntity | null>(async (ids) => {
    const rows = await FIND_WITH_SECRET.run(this.wallets.manager.connection, [ids]);
    const found = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => found.get(id) ?? null);
  });

  private readonly inserts = new StatementBatcher<WalletEntity, boolean>(async (wallets) => {
    const column = <K extends keyof WalletEntity>(key: K): WalletEntity[K][] => wallets.map((wallet) => wallet[key]);
    const rows = await INSERT_WALLETS.run(this.wallets.manager.connection, [
      column('id'),
      column('applicationId'),
      column('profileId'),
      column('addressEvm'),
      column('addressSol'),
      column('addressSui'),
      column('createdAt'),
      column('lastUsedAt'),
      column('entropyCiphertext'),
      column('entropyIv'),
      column('entropyTag'),
      column('dataKeyCiphertext'),
      column('dataKeyIv'),
      column('dataKeyTag'),
      column('masterKeyId'),
      column('aadVersion'),
      column('sealedEvmKey'),
      column('sealedSolKey'),
      column('sealedSuiKey'),
    ]);
    const inserted = new Set(rows.map((row) => row.id));
    return wallets.map((wallet) => inserted.has(wallet.id));
  });

  constructor(@InjectRepository(WalletEntity) private readonly wallets: Repository<WalletEntity>) {}

  /** The whole row, sealed secret included: for signing only (concurrent lookups share one statement). */
  findWithSecret(id: string): Promise<WalletEntity | null> {
    return this.withSecret.run(id);
  }

  /** What a read shows: never the sealed secret. */
  async findPublic(id: string): Promise<WalletPublic | null> {
    const rows: WalletPublic[] = await this.wallets.query(
      `SELECT id, application_id AS "applicationId", profile_id AS "profileId", address_evm AS "addressEvm", address_sol AS "addressSol",
              address_sui AS "addressSui", created_at AS "createdAt", last_used_at AS "lastUsedAt"
       FROM wallet.wallets WHERE id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  /** The wallet of a profile, if it has one (concurrent lookups share one statement). */
  findIdForProfile(applicationId: string, profileId: string): Promise<string | null> {
    return this.lookups.run({ applicationId, profileId });
  }

  /** Inserts unless the profile already has a wallet; true when this call inserted it (concurrent inserts share one statement and commit). */
  insertIfAbsent(wallet: WalletEntity): Promise<boolean> {
    return this.inserts.run(wallet);
  }

  /** The addresses of a game's wallets among `ids`. */
  findAddresses(applicationId: string, ids: string[]): Promise<Pick<WalletEntity, 'id' | 'addressEvm' | 'addressSol' | 'addressSui'>[]> {
    return this.wallets.find({ select: ['id', 'addressEvm', 'addressSol', 'addressSui'], where: { applicationId, id: In(ids) } });
  }
}

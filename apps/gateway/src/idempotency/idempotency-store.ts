import { IntegrityError, open, seal } from '@game-wallet/crypto';
import { createHash, hkdfSync, randomUUID } from 'node:crypto';
import type { Pool } from 'pg';

/** A write as the store sees it: whose (the credential), where (method and URL), under which key, with which body. */
export interface IdempotentRequest {
  /** `key:<api key id>`, `profile:<profile id>` or `operator:<operator id>` */
  credential: string;
  /** method and URL (path and query) */
  route: string;
  key: string;
  body: Buffer;
}

/** An answer kept for replay: its status, the headers that describe the body, and the body. */
export interface KeptAnswerRecord {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The right to run a request, and to keep its answer, until the lease ends. */
export interface IdempotencyClaim {
  request: IdempotentRequest;
  /** SHA-256 of the key: the row's key, as stored */
  keyHash: Buffer;
  owner: string;
}

export type IdempotencyOutcome =
  | { kind: 'run'; claim: IdempotencyClaim }
  | { kind: 'replay'; answer: KeptAnswerRecord }
  | { kind: 'reused' }
  | { kind: 'running' };

const TABLE = '"gateway"."idempotency_keys"';
const INFO = Buffer.from('game-wallet idempotent answer v1');

/**
 * Kept answers of writes sent with an `Idempotency-Key`, in the gateway's PostgreSQL schema: durable (a Redis restart
 * loses none, so a console create cannot run twice), shared by every gateway replica, and claimed atomically (two
 * gateways given the same key at once run it once: `INSERT … ON CONFLICT`).
 *
 * A first request costs one statement to claim the key and one to keep the answer; a replay, a conflict or a reused
 * key one more to read the row. Keys are stored as their SHA-256; an answer (which may hold a secret shown once, an
 * API key's) is sealed with AES-256-GCM under a key derived (HKDF-SHA-256) from the Idempotency-Key itself, so the
 * table alone reveals no answer to whoever reads it.
 */
export class IdempotencyStore {
  constructor(
    private readonly pool: Pool,
    private readonly ttlSeconds: number,
    /** how long a claim holds before another request of the key may take it over (its gateway may have died) */
    private readonly leaseMs: number,
    /**
     * Where claims are made: a pool whose commits need not wait for the disk (`synchronous_commit=off`). A claim lost
     * in a PostgreSQL crash belongs to a request whose answer could not have been kept either (keeping it commits
     * after the claim, and that commit makes the claim durable with it); its retry runs, as it would once the lost
     * claim's lease ended. Default: `pool`.
     */
    private readonly claims: Pool = pool,
  ) {}

  async begin(request: IdempotentRequest): Promise<IdempotencyOutcome> {
    const keyHash = sha256(request.key);
    const bodyHash = sha256(request.body);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const owner = randomUUID();
      // A row is taken over only once expired, or when its claim lapsed unanswered for the same body.
      const claimed = await this.claims.query(
        `INSERT INTO ${TABLE} (credential, route, key_hash, body_hash, owner, locked_until, expires_at)
         VALUES ($1, $2, $3, $4, $5, now() + $6 * interval '1 millisecond', now() + $7 * interval '1 second')
         ON CONFLICT (credential, route, key_hash) DO UPDATE
           SET body_hash = EXCLUDED.body_hash, owner = EXCLUDED.owner, locked_until = EXCLUDED.locked_until,
               status = NULL, answer = NULL, created_at = now(), expires_at = EXCLUDED.expires_at
           WHERE idempotency_keys.expires_at <= now()
              OR (idempotency_keys.status IS NULL AND idempotency_keys.locked_until <= now() AND idempotency_keys.body_hash = EXCLUDED.body_hash)
         RETURNING owner`,
        [request.credential, request.route, keyHash, bodyHash, owner, this.leaseMs, this.ttlSeconds],
      );
      if (claimed.rowCount === 1) {
        return { kind: 'run', claim: { request, keyHash, owner } };
      }
      const found = await this.pool.query<{ body_hash: Buffer; status: number | null; answer: Buffer | null; live: boolean }>(
        `SELECT body_hash, status, answer, expires_at > now() AS live FROM ${TABLE} WHERE credential = $1 AND route = $2 AND key_hash = $3`,
        [request.credential, request.route, keyHash],
      );
      const row = found.rows[0];
      if (row === undefined || !row.live) {
        continue; // released or expired between the two statements: claim again
      }
      if (!row.body_hash.equals(bodyHash)) {
        return { kind: 'reused' };
      }
      if (row.status === null || row.answer === null) {
        return { kind: 'running' };
      }
      return { kind: 'replay', answer: openAnswer(request, row.answer) };
    }
    return { kind: 'running' };
  }

  /**
   * Keeps the answer of a claimed request, until the claim's expiry (24 h from the first request); a claim taken over
   * meanwhile (its lease lapsed) keeps nothing.
   */
  async complete(claim: IdempotencyClaim, answer: KeptAnswerRecord): Promise<void> {
    const { request, keyHash, owner } = claim;
    await this.pool.query(
      `UPDATE ${TABLE} SET status = $5, answer = $6, owner = NULL, locked_until = NULL
       WHERE credential = $1 AND route = $2 AND key_hash = $3 AND owner = $4`,
      [request.credential, request.route, keyHash, owner, answer.status, sealAnswer(request, answer)],
    );
  }

  /** Frees the key of a request whose answer is not kept (a 5xx): the client may send it again. */
  async release(claim: IdempotencyClaim): Promise<void> {
    const { request, keyHash, owner } = claim;
    await this.pool.query(`DELETE FROM ${TABLE} WHERE credential = $1 AND route = $2 AND key_hash = $3 AND owner = $4`, [request.credential, request.route, keyHash, owner]);
  }

  /**
   * Deletes expired rows, `batch` at a time, until none is left or `maxBatches` were deleted (the next run goes on);
   * returns how many. Batches keep each statement short beside the requests.
   */
  async purgeExpired(batch = 5000, maxBatches = 200): Promise<number> {
    let deleted = 0;
    for (let round = 0; round < maxBatches; round += 1) {
      const result = await this.pool.query(
        `DELETE FROM ${TABLE} WHERE ctid IN (SELECT ctid FROM ${TABLE} WHERE expires_at <= now() LIMIT $1)`,
        [batch],
      );
      deleted += result.rowCount ?? 0;
      if ((result.rowCount ?? 0) < batch) {
        break;
      }
    }
    return deleted;
  }
}

function sha256(data: string | Buffer): Buffer {
  return createHash('sha256').update(data).digest();
}

/** The answer's key: derived from the Idempotency-Key (never stored), bound to the credential and route. */
function answerKey(request: IdempotentRequest): Buffer {
  return Buffer.from(hkdfSync('sha256', request.key, `${request.credential}\n${request.route}`, INFO, 32));
}

function sealAnswer(request: IdempotentRequest, answer: KeptAnswerRecord): Buffer {
  const sealed = seal(answerKey(request), Buffer.from(JSON.stringify(answer)), Buffer.from(request.route));
  return Buffer.concat([sealed.iv, sealed.tag, sealed.ciphertext]);
}

function openAnswer(request: IdempotentRequest, stored: Buffer): KeptAnswerRecord {
  if (stored.length < 28) {
    throw new IntegrityError();
  }
  const plaintext = open(answerKey(request), { iv: stored.subarray(0, 12), tag: stored.subarray(12, 28), ciphertext: stored.subarray(28) }, Buffer.from(request.route));
  return JSON.parse(plaintext.toString('utf8')) as KeptAnswerRecord;
}

import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { rowsOf } from '@game-wallet/database';
import PgBoss from 'pg-boss';
import { IdentityConfig } from '../config';
import { IDENTITY_CONFIG } from '../identity-config.token';
import { WEBHOOK_QUEUE_SCHEMA } from './webhook-queue-schema';

/** A delivery's job: which delivery, and which scheduling of it (an older scheduling's job finds it moved on and does nothing). */
export interface DeliveryJob {
  deliveryId: string;
  generation: number;
  /** not before (default: now) */
  startAfter?: Date;
}

interface QueryLike {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

const QUEUE = 'webhook-delivery';

/**
 * A job past this is taken for lost (its replica died mid-attempt) and given to another replica: longer than an
 * attempt can take (`WEBHOOK_TIMEOUT_MS`, at most 10 s) and the recording after it.
 */
const JOB_EXPIRY_SECONDS = 30;

/**
 * The delivery queue: pg-boss (in its own schema, {@link WEBHOOK_QUEUE_SCHEMA}) schedules every attempt of every
 * delivery in PostgreSQL, so a scheduled retry survives every restart and Redis, which keeps nothing on disk, holds
 * none of it. Each job is taken by one replica (`FOR UPDATE SKIP LOCKED`); a job whose replica died is handed to
 * another after {@link JOB_EXPIRY_SECONDS}. Jobs are inserted in the transaction that decides them.
 */
@Injectable()
export class WebhookQueue implements OnApplicationShutdown {
  private readonly logger = new Logger(WebhookQueue.name);
  private boss?: PgBoss;
  private starting?: Promise<PgBoss>;
  private readonly workers: string[] = [];

  constructor(@Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig) {}

  /** Starts pg-boss once (its tables are made by identity's migrations); later calls wait for the same start. */
  start(): Promise<PgBoss> {
    this.starting ??= (async () => {
      const boss = new PgBoss({
        connectionString: this.config.databaseUrl,
        schema: WEBHOOK_QUEUE_SCHEMA,
        max: 4,
        application_name: 'identity-webhooks',
        schedule: false,
        supervise: true,
        maintenanceIntervalSeconds: 10,
        archiveCompletedAfterSeconds: 3_600,
        deleteAfterDays: 2,
      } as PgBoss.ConstructorOptions);
      boss.on('error', (error: Error) => this.logger.warn(`Webhook queue: ${error.message}`));
      await boss.start();
      await boss.createQueue(QUEUE, { name: QUEUE, retryLimit: 20, retryDelay: 5, expireInSeconds: JOB_EXPIRY_SECONDS, retentionDays: 2 } as PgBoss.Queue);
      this.boss = boss;
      return boss;
    })();
    return this.starting;
  }

  /** Inserts the jobs with `manager`, in its transaction: they exist exactly when what decided them was committed. */
  async enqueue(jobs: readonly DeliveryJob[], manager: QueryLike): Promise<void> {
    if (jobs.length === 0) {
      return;
    }
    const boss = await this.start();
    const db = { executeSql: async (sql: string, parameters?: unknown[]) => ({ rows: rowsOf(await manager.query(sql, parameters)) }) };
    await boss.insert(
      jobs.map((job) => ({
        name: QUEUE,
        data: { deliveryId: job.deliveryId, generation: job.generation },
        ...(job.startAfter === undefined ? {} : { startAfter: job.startAfter }),
        expireInSeconds: JOB_EXPIRY_SECONDS,
      })),
      { db },
    );
  }

  /**
   * Runs `handle` for the jobs `workers` loops take, `batch` at a time each; a loop asks for more as soon as its batch
   * is done, else every half second or as soon as {@link wake} is called. `handle` must not throw for a job's outcome.
   */
  async work(workers: number, batch: number, handle: (jobs: DeliveryJob[]) => Promise<void>): Promise<void> {
    const boss = await this.start();
    for (let index = 0; index < workers; index += 1) {
      this.workers.push(
        await boss.work<{ deliveryId: string; generation: number }>(QUEUE, { batchSize: batch, pollingIntervalSeconds: 0.5 }, async (jobs) => {
          await handle(jobs.map((job) => ({ deliveryId: job.data.deliveryId, generation: job.data.generation })));
        }),
      );
    }
  }

  /** Jobs were just committed: the loops look now instead of at their next poll. */
  wake(): void {
    for (const worker of this.workers) {
      this.boss?.notifyWorker(worker);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.starting === undefined) {
      return;
    }
    const boss = await this.starting.catch(() => undefined);
    await boss?.stop({ graceful: true, wait: true, timeout: 15_000 });
  }
}

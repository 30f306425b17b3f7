import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { rowsOf, runLocked } from '@game-wallet/database';
import PgBoss from 'pg-boss';
import { DataSource } from 'typeorm';
import { IdentityConfig } from '../config';
import { IDENTITY_CONFIG } from '../identity-config.token';
import { WEBHOOK_QUEUE_SCHEMA } from './webhook-queue-schema';

/** A delivery to attempt: which, and which scheduling of it (an older scheduling's job finds it moved on and does nothing). */
export interface DeliveryJob {
  deliveryId: string;
  generation: number;
  /** not before (default: now) */
  startAfter?: Date;
}

/** Most deliveries one job carries: the deliveries decided together (a relayed batch) travel, and are recorded, together. */
export const JOB_DELIVERIES = 50;

interface JobData {
  deliveries: [string, number][];
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

  constructor(
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
    private readonly dataSource: DataSource,
  ) {}

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
      try {
        await boss.start();
        await this.createQueue(boss);
      } catch (error) {
        // Nothing is left running, and a later call starts again.
        this.starting = undefined;
        await boss.stop({ graceful: false, wait: true }).catch(() => undefined);
        throw error;
      }
      this.boss = boss;
      return boss;
    })();
    return this.starting;
  }

  /**
   * Creates the delivery queue unless it exists, one replica at a time: pg-boss's `create_queue` attaches a partition
   * and adds a foreign key to its queue table, so two replicas creating it at once deadlock.
   */
  private async createQueue(boss: PgBoss): Promise<void> {
    await runLocked(this.dataSource, `game-wallet:${WEBHOOK_QUEUE_SCHEMA}:create`, async () => {
      if ((await boss.getQueue(QUEUE)) === null) {
        await boss.createQueue(QUEUE, { name: QUEUE, retryLimit: 20, retryDelay: 5, expireInSeconds: JOB_EXPIRY_SECONDS, retentionDays: 2 } as PgBoss.Queue);
      }
    });
  }

  /**
   * Inserts jobs for the deliveries with `manager`, in its transaction: they exist exactly when what decided them was
   * committed. Deliveries due at the same time share jobs of up to {@link JOB_DELIVERIES}.
   */
  async enqueue(deliveries: readonly DeliveryJob[], manager: QueryLike): Promise<void> {
    if (deliveries.length === 0) {
      return;
    }
    const boss = await this.start();
    const byTime = new Map<number, DeliveryJob[]>();
    for (const delivery of deliveries) {
      const due = delivery.startAfter?.getTime() ?? 0;
      byTime.set(due, [...(byTime.get(due) ?? []), delivery]);
    }
    const jobs = [...byTime.values()].flatMap((due) =>
      Array.from({ length: Math.ceil(due.length / JOB_DELIVERIES) }, (_, index) => due.slice(index * JOB_DELIVERIES, (index + 1) * JOB_DELIVERIES)),
    );
    const db = { executeSql: async (sql: string, parameters?: unknown[]) => ({ rows: rowsOf(await manager.query(sql, parameters)) }) };
    await boss.insert(
      jobs.map((job) => ({
        name: QUEUE,
        data: { deliveries: job.map((delivery): [string, number] => [delivery.deliveryId, delivery.generation]) } satisfies JobData,
        ...(job[0].startAfter === undefined ? {} : { startAfter: job[0].startAfter }),
        expireInSeconds: JOB_EXPIRY_SECONDS,
      })),
      { db },
    );
  }

  /**
   * Runs `handle` for the deliveries of the jobs `workers` loops take, `batch` jobs at a time each; a loop that got a
   * full batch asks for more at once, else every half second or as soon as {@link wake} is called. `handle` throws
   * only when it could not record the outcomes (the jobs are then tried again).
   */
  async work(workers: number, batch: number, handle: (deliveries: DeliveryJob[]) => Promise<void>): Promise<void> {
    const boss = await this.start();
    for (let index = 0; index < workers; index += 1) {
      let id = '';
      id = await boss.work<JobData>(QUEUE, { batchSize: batch, pollingIntervalSeconds: 0.5 }, async (jobs) => {
        if (jobs.length === batch) {
          // pg-boss waits its polling interval after every batch unless told: there is more.
          boss.notifyWorker(id);
        }
        await handle(jobs.flatMap((job) => (job.data.deliveries ?? []).map(([deliveryId, generation]) => ({ deliveryId, generation }))));
      });
      this.workers.push(id);
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

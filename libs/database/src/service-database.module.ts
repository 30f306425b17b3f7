import { DynamicModule, Injectable, Logger, Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppMetrics } from '@game-wallet/observability';
import { DataSource, DataSourceOptions } from 'typeorm';
import { migrateSchema, waitForMigrations } from './migrations-runner';
import { poolOf } from './pool';

/** Publishes the pool's connection counts as metrics. */
@Injectable()
class PoolMetrics implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly metrics: AppMetrics,
  ) {}

  onModuleInit(): void {
    const pool = poolOf(this.dataSource);
    if (pool) {
      this.metrics.observePool(String((this.dataSource.options as { schema?: string }).schema ?? 'default'), pool);
    }
  }
}

/**
 * Who applies a service's migrations: the service as it starts (`start`, under an advisory lock so replicas starting
 * together apply each once), or a migration job run before the release (`job`: the service only waits for it).
 */
export type MigrationMode = 'start' | 'job';

/**
 * The service's TypeORM connection to its own schema. The DataSource is initialised and its schema brought up to date
 * (or found up to date, with `MIGRATIONS=job`) before any provider that needs it is built, so a started service always
 * runs on an up-to-date schema.
 * Needs `AppMetrics` from the app's runtime module. Handlers answer 503 while the database is unavailable.
 */
@Module({})
export class ServiceDatabaseModule {
  static forRoot(options: DataSourceOptions & { schema: string }, migrations: MigrationMode = 'start'): DynamicModule {
    const logger = new Logger(ServiceDatabaseModule.name);
    return {
      module: ServiceDatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          // retry* are read by the Nest module (the first connection is retried while Postgres starts).
          useFactory: () => ({ ...options, retryAttempts: 30, retryDelay: 1000 }),
          dataSourceFactory: async (resolved) => {
            const settings = (resolved ?? options) as DataSourceOptions & { schema: string };
            if (migrations === 'job') {
              const dataSource = await new DataSource(settings).initialize();
              await waitForMigrations(dataSource, (message) => logger.warn(message));
              logger.log(`Schema ${options.schema} is up to date`);
              return dataSource;
            }
            const { applied } = await migrateSchema(settings);
            const dataSource = await new DataSource(settings).initialize();
            logger.log(
              applied.length > 0
                ? `Schema ${options.schema}: applied ${applied.length} migration(s): ${applied.join(', ')}`
                : `Schema ${options.schema} is up to date`,
            );
            return dataSource;
          },
        }),
      ],
      providers: [PoolMetrics],
      exports: [TypeOrmModule],
    };
  }
}

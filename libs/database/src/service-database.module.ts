import { DynamicModule, Injectable, Logger, Module, OnModuleInit } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppMetrics } from '@game-wallet/observability';
import { DataSource, DataSourceOptions } from 'typeorm';
import { DatabaseOutageInterceptor } from './database-outage';
import { runMigrationsLocked } from './migrations-runner';
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
 * The service's TypeORM connection to its own schema. The DataSource is initialised and migrated (under the advisory
 * lock) before any provider that needs it is built, so a started service always runs on an up-to-date schema.
 * Needs `AppMetrics` from the app's runtime module. Handlers answer 503 while the database is unavailable.
 */
@Module({})
export class ServiceDatabaseModule {
  static forRoot(options: DataSourceOptions & { schema: string }): DynamicModule {
    const logger = new Logger(ServiceDatabaseModule.name);
    return {
      module: ServiceDatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          // retry* are read by the Nest module (the first connection is retried while Postgres starts).
          useFactory: () => ({ ...options, retryAttempts: 30, retryDelay: 1000 }),
          dataSourceFactory: async (resolved) => {
            const dataSource = await new DataSource(resolved ?? options).initialize();
            const { applied } = await runMigrationsLocked(dataSource, options.schema);
            logger.log(
              applied.length > 0
                ? `Schema ${options.schema}: applied ${applied.length} migration(s): ${applied.join(', ')}`
                : `Schema ${options.schema} is up to date`,
            );
            return dataSource;
          },
        }),
      ],
      // A database outage answers 503 from every handler of the service (see DatabaseOutageInterceptor).
      providers: [PoolMetrics, { provide: APP_INTERCEPTOR, useClass: DatabaseOutageInterceptor }],
      exports: [TypeOrmModule],
    };
  }
}

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

function withoutTimeouts(options: DataSourceOptions): DataSourceOptions {
  const extra = (options as { extra?: Record<string, unknown> }).extra ?? {};
  // Two connections: one holds the migrations' advisory lock while the other runs them.
  return { ...options, extra: { ...extra, max: 2, statement_timeout: 0, query_timeout: undefined } } as DataSourceOptions;
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
            // Migrations on a connection of their own, without the per-statement limits requests have (an index on a
            // large table may take minutes).
            const migrator = await new DataSource(withoutTimeouts(resolved ?? options)).initialize();
            let applied: string[];
            try {
              ({ applied } = await runMigrationsLocked(migrator, options.schema));
            } finally {
              await migrator.destroy();
            }
            const dataSource = await new DataSource(resolved ?? options).initialize();
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

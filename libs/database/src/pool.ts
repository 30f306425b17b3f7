import { DataSource } from 'typeorm';

export interface PoolStats {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** The pg pool behind a TypeORM postgres DataSource, for metrics. */
export function poolOf(dataSource: DataSource): PoolStats | undefined {
  const driver = dataSource.driver as unknown as { master?: PoolStats };
  return driver.master;
}

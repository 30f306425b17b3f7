import type { Pool } from 'pg';
import { DataSource } from 'typeorm';

/** The pg pool behind a TypeORM postgres DataSource (undefined until the data source is initialised). */
export function poolOf(dataSource: DataSource): Pool | undefined {
  return (dataSource.driver as unknown as { master?: Pool }).master;
}

import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

export interface DbLogger {
  error(obj: unknown, msg?: string): void;
}

/** A Kysely instance over a pg pool. Connects lazily; call `db.destroy()` to close the pool. */
export function createDb(
  connectionString: string,
  options: { logger?: DbLogger; max?: number } = {},
): Kysely<Database> {
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection must not crash the process.
  pool.on('error', (err) => options.logger?.error({ err }, 'idle PostgreSQL client error'));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

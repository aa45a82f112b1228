import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { createPrimaryDb, isMultiHostUrl } from './replication/multi-host-pool.ts';
import type { Database } from './schema.ts';

export interface DbLogger {
  error(obj: unknown, msg?: string): void;
}

/** SQLSTATE of "terminating connection due to administrator command". */
const ADMIN_SHUTDOWN = '57P01';

/** A Kysely instance over a pg pool (over the primary of a multi-host URL). Connects lazily; call `db.destroy()` to close the pool. */
export function createDb(
  connectionString: string,
  options: { logger?: DbLogger; max?: number } = {},
): Kysely<Database> {
  // libpq-style `h1:5432,h2:5433` or target_session_attrs=read-write: follow the writable primary
  // across a failover without a restart (replication/multi-host-pool.ts; pg parses one host only).
  if (isMultiHostUrl(connectionString)) return createPrimaryDb(connectionString, options);
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection must not crash the process. pool.end() resolves before its
  // sockets have closed, so stopping the embedded server right after it can still terminate an idle
  // client (57P01 admin_shutdown): expected at shutdown, not an error to report.
  pool.on('error', (err) => {
    if ((err as { code?: unknown }).code === ADMIN_SHUTDOWN) return;
    options.logger?.error({ err }, 'idle PostgreSQL client error');
  });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

import type { PostgresPoolClient } from 'kysely';
import type pg from 'pg';

/**
 * A replica connection handed to Kysely for one replica-read route's query: a query that fails there
 * for a reason the primary does not share (a hot standby's recovery conflict 40001, a cancel or
 * statement timeout, the replica restarting, a connection lost or hung) runs once more on the primary
 * instead of reaching the user as a 500. The replica-read routes are GETs, so running the read again
 * is harmless; a query inside a transaction is not retried (its earlier statements ran on the replica).
 */
const RETRY_ON_PRIMARY = new Set(['40001', '40P01', '57014', '55P03']);
const RETRY_CLASSES = ['08', '53', '57', '58', 'XX'];

export function isReplicaFailure(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || code.length !== 5) return true; // a socket/driver error, not SQL's verdict
  return RETRY_ON_PRIMARY.has(code) || RETRY_CLASSES.includes(code.slice(0, 2));
}

/** A lost or hung replica (not a per-query conflict): reads should skip it for a while. */
export function isReplicaDown(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.length === 5) return code.startsWith('08') || code.startsWith('57P');
  return true;
}

export class ReplicaFallbackClient {
  private primary: PostgresPoolClient | undefined;
  private broken: Error | undefined;
  private inTransaction = false;

  private readonly replica: pg.PoolClient;
  private readonly connectPrimary: () => Promise<PostgresPoolClient>;
  private readonly onReplicaError: (err: unknown) => void;

  constructor(
    replica: pg.PoolClient,
    connectPrimary: () => Promise<PostgresPoolClient>,
    onReplicaError: (err: unknown) => void,
  ) {
    this.replica = replica;
    this.connectPrimary = connectPrimary;
    this.onReplicaError = onReplicaError;
  }

  query(...args: unknown[]): unknown {
    const [text, params] = args;
    if (typeof text !== 'string') {
      // A cursor (streamed rows): no retry, it runs where the connection is.
      const on = (this.primary ?? this.replica) as unknown as { query(c: unknown): unknown };
      return on.query(text);
    }
    return this.run(text, params as unknown[]);
  }

  private async run(text: string, params: unknown[]): Promise<unknown> {
    if (/^\s*(begin|start transaction)/i.test(text)) this.inTransaction = true;
    if (this.primary) return this.primary.query(text, params);
    try {
      return await this.replica.query(text, params);
    } catch (err) {
      if (this.inTransaction || !isReplicaFailure(err)) throw err;
      this.onReplicaError(err);
      this.broken = err as Error;
      this.primary = await this.connectPrimary();
      return this.primary.query(text, params);
    }
  }

  release(): void {
    // A replica connection that failed is destroyed, not pooled again (pg: release(err)).
    this.replica.release(this.broken);
    this.primary?.release();
  }
}

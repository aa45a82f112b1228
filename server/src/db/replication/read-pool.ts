import type { PostgresPool, PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { isLostPrimary } from './multi-host-pool.ts';

/**
 * The pool of DATABASE_READ_URL (issue 34, read traffic on the replica): libpq-style, one or several
 * hosts, with `target_session_attrs=prefer-standby` (default: the first host in recovery, else the
 * first that answers) or `any` (the first that answers). node-postgres parses one host only, so the
 * hosts are probed here, the chosen one pooled, and a lost host makes the next checkout look again.
 */
export type ReadTarget = 'prefer-standby' | 'any';

export interface ReadUrl {
  urls: string[];
  target: ReadTarget;
}

/** Splits DATABASE_READ_URL into single-host URLs and its target_session_attrs (refuses read-write and others). */
export function parseReadUrl(url: string): ReadUrl {
  const match = /^(postgres(?:ql)?:\/\/)([^@/]*@)?([^/?]+)(.*)$/.exec(url.trim());
  if (!match) throw new Error('DATABASE_READ_URL is not a postgres:// URL');
  const [, scheme, auth = '', hosts = '', rest = ''] = match;
  const attr = /[?&]target_session_attrs=([^&]*)/.exec(rest)?.[1] ?? 'prefer-standby';
  if (attr !== 'prefer-standby' && attr !== 'any')
    throw new Error(`DATABASE_READ_URL: target_session_attrs=${attr} (only prefer-standby or any)`);
  const query = rest.replace(/([?&])target_session_attrs=[^&]*&?/, '$1').replace(/[?&]$/, '');
  return { urls: hosts.split(',').map((host) => `${scheme}${auth}${host}${query}`), target: attr };
}

/** The host reads go to: a standby first when `prefer-standby`, else (or if none is up) the first that answers. */
export async function findReadUrl(read: ReadUrl, probeTimeoutMs = 1_000): Promise<string> {
  let firstUp: string | undefined;
  const failures: string[] = [];
  for (const url of read.urls) {
    // A host that accepts and then says nothing must not hold the probe: the query is bounded too.
    const probe = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: probeTimeoutMs,
      query_timeout: probeTimeoutMs,
    });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      if (read.target === 'any') return url;
      const { rows } = await probe.query<{ r: boolean }>('select pg_is_in_recovery() as r');
      if (rows[0]?.r === true) return url;
      firstUp ??= url;
    } catch (err) {
      failures.push(`${new URL(url).host}: ${(err as Error).message}`);
    } finally {
      await probe.end().catch(() => undefined);
    }
  }
  if (firstUp) return firstUp;
  throw Object.assign(new Error(`no read host answers (${failures.join('; ')})`), { code: 'ECONNREFUSED' });
}

export interface ReadPoolOptions {
  max?: number;
  /** Per host, to connect and to answer pg_is_in_recovery(). */
  probeTimeoutMs?: number;
  /** A new pooled connection, and a checkout waiting for a free one. */
  connectTimeoutMs?: number;
  /** statement_timeout on the replica, and the client-side query timeout (a host that stopped answering). */
  statementTimeoutMs?: number;
  /** After a failed probe or a lost host, reads skip the replica this long (no re-probe per request). */
  downForMs?: number;
}

/** pg-pool's error when every pooled client is busy: load, not a lost host. */
export function isPoolExhausted(err: unknown): boolean {
  return /timeout exceeded when trying to connect/i.test(String((err as Error)?.message ?? ''));
}

/**
 * A pg pool to the host findReadUrl chose; dropped (and chosen again) when that host is lost. A failed
 * probe or a lost host marks the replica down for `downForMs`: meanwhile a checkout fails at once (the
 * caller reads the primary) instead of probing every host again on every request. This is a per-process
 * connection health cache (like the pool itself), not shared state.
 */
export class ReadPool implements PostgresPool {
  private current: { url: string; pool: pg.Pool } | undefined;
  private discovering: Promise<{ url: string; pool: pg.Pool }> | undefined;
  private ended = false;
  private readonly watched = new WeakSet<pg.PoolClient>();
  private downUntilMs = 0;

  private readonly read: ReadUrl;
  private readonly options: ReadPoolOptions;

  constructor(read: ReadUrl, options: ReadPoolOptions = {}) {
    if (read.urls.length === 0) throw new Error('no read host');
    this.read = read;
    this.options = options;
  }

  private target(): Promise<{ url: string; pool: pg.Pool }> {
    if (this.ended) return Promise.reject(new Error('pool ended'));
    if (this.current) return Promise.resolve(this.current);
    if (Date.now() < this.downUntilMs) return Promise.reject(new Error('read replica marked down (back-off)'));
    const statementTimeoutMs = this.options.statementTimeoutMs ?? 5_000;
    this.discovering ??= findReadUrl(this.read, this.options.probeTimeoutMs).then(
      (url) => {
        const pool = new pg.Pool({
          connectionString: url,
          max: this.options.max ?? 10,
          connectionTimeoutMillis: this.options.connectTimeoutMs ?? 2_000,
          statement_timeout: statementTimeoutMs,
          // The server-side timeout does not help when the host stopped answering: bound the wait here too.
          query_timeout: statementTimeoutMs + 500,
          keepAlive: true,
          keepAliveInitialDelayMillis: 5_000,
        });
        pool.on('error', (err) => {
          if (isLostPrimary(err)) this.drop(pool);
        });
        this.current = { url, pool };
        this.discovering = undefined;
        return this.current;
      },
      (err) => {
        this.discovering = undefined;
        this.markDown();
        throw err;
      },
    );
    return this.discovering;
  }

  private drop(pool: pg.Pool): void {
    if (this.current?.pool !== pool) return;
    this.current = undefined;
    this.markDown();
    // Clients stuck on a hung host would keep end() waiting: their query timeout frees them.
    void pool.end().catch(() => undefined);
  }

  /** Reads skip the replica for `downForMs` (a query on it timed out or lost its connection). */
  markDown(): void {
    this.downUntilMs = Date.now() + (this.options.downForMs ?? 10_000);
    const current = this.current;
    if (current) this.drop(current.pool);
  }

  async connect(): Promise<PostgresPoolClient> {
    const { pool } = await this.target();
    try {
      const client = await pool.connect();
      if (!this.watched.has(client)) {
        this.watched.add(client);
        // A checked-out client whose server dies emits 'error': unhandled, that would crash the process.
        client.on('error', (err) => {
          if (isLostPrimary(err)) this.drop(pool);
        });
      }
      return client as unknown as PostgresPoolClient;
    } catch (err) {
      // Every client busy is load, not a lost host: keep the pool (the caller reads the primary).
      if (!isPoolExhausted(err)) this.drop(pool);
      throw err;
    }
  }

  async end(): Promise<void> {
    this.ended = true;
    const current = this.current;
    this.current = undefined;
    await current?.pool.end();
  }
}

import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import type { Database } from '../schema.ts';

/**
 * A pool that always talks to the PRIMARY among several PostgreSQL hosts, like libpq's multi-host
 * `postgres://u:p@h1:5432,h2:5432/db?target_session_attrs=read-write` (node-postgres does not parse
 * several hosts). It finds the host where `pg_is_in_recovery()` is false, pools connections to it, and
 * when that host dies or turns read-only (a failover, or a fenced old primary) it drops the pool and
 * looks again on the next checkout: the API finds the promoted standby without a restart. State lives
 * in PostgreSQL (which host is primary), never in a shared file or another process.
 */

/** SQLSTATEs and socket errors after which the current host is no longer our primary. */
const LOST_PRIMARY = new Set([
  '57P01',
  '57P02',
  '57P03',
  '25006',
  '08006',
  '08001',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
]);

export function isLostPrimary(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  if (code && LOST_PRIMARY.has(code)) return true;
  return /Connection terminated|connection timeout|not queryable/i.test(String((err as Error)?.message ?? ''));
}

/** One URL per host, in order, from a libpq-style multi-host URL (a single-host URL gives one). */
export function splitMultiHostUrl(url: string): string[] {
  const match = /^(postgres(?:ql)?:\/\/)([^@/]*@)?([^/?]+)(.*)$/.exec(url.trim());
  if (!match) throw new Error('DATABASE_URL is not a postgres:// URL');
  const [, scheme, auth = '', hosts = '', rest = ''] = match;
  const query = rest.replace(/([?&])target_session_attrs=[^&]*&?/, '$1').replace(/[?&]$/, '');
  return hosts.split(',').map((host) => `${scheme}${auth}${host}${query}`);
}

/** Several hosts (`h1:5432,h2:5433`) or an explicit `target_session_attrs=read-write`. */
export function isMultiHostUrl(url: string): boolean {
  const match = /^postgres(?:ql)?:\/\/(?:[^@/]*@)?([^/?]+)(.*)$/.exec(url.trim());
  if (!match) return false;
  return (match[1] ?? '').includes(',') || /[?&]target_session_attrs=read-write(&|$)/.test(match[2] ?? '');
}

/**
 * Probes the hosts in order and returns the single-host URL of the first where pg_is_in_recovery()
 * is false. For a lone connection that must be on the primary (LISTEN, which a standby refuses).
 */
export async function findPrimaryUrl(urls: string | string[], probeTimeoutMs = 1_000): Promise<string> {
  const list = typeof urls === 'string' ? splitMultiHostUrl(urls) : urls;
  const failures: string[] = [];
  for (const url of list) {
    const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: probeTimeoutMs });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      const { rows } = await probe.query<{ r: boolean }>('select pg_is_in_recovery() as r');
      if (rows[0]?.r === false) return url;
      failures.push(`${new URL(url).host}: in recovery`);
    } catch (err) {
      failures.push(`${new URL(url).host}: ${(err as Error).message}`);
    } finally {
      await probe.end().catch(() => undefined);
    }
  }
  throw Object.assign(new Error(`no writable primary among the database hosts (${failures.join('; ')})`), {
    code: 'ECONNREFUSED',
  });
}

interface Target {
  url: string;
  pool: pg.Pool;
}

interface PrimaryPoolOptions {
  max?: number;
  probeTimeoutMs?: number;
  onPrimary?: (url: string) => void;
  logger?: { error(obj: unknown, msg?: string): void };
}

export class PrimaryPool implements PostgresPool {
  private current: Target | undefined;
  private discovering: Promise<Target> | undefined;
  private readonly patched = new WeakSet<pg.PoolClient>();
  private ended = false;

  private readonly urls: string[];
  private readonly options: PrimaryPoolOptions;

  constructor(urls: string[], options: PrimaryPoolOptions = {}) {
    if (urls.length === 0) throw new Error('no database host');
    this.urls = urls;
    this.options = options;
  }

  /** The first host that accepts writes becomes the pool's target. */
  private async discover(): Promise<Target> {
    const url = await findPrimaryUrl(this.urls, this.options.probeTimeoutMs);
    const pool = new pg.Pool({
      connectionString: url,
      max: this.options.max ?? 10,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
    });
    // An idle client of a dead primary: drop the target so the next checkout looks again.
    pool.on('error', (err) => {
      if (this.current?.pool === pool && isLostPrimary(err)) this.invalidate(this.current);
      else if ((err as { code?: string }).code !== '57P01')
        this.options.logger?.error({ err }, 'idle PostgreSQL client error');
    });
    this.options.onPrimary?.(url);
    return { url, pool };
  }

  private target(): Promise<Target> {
    if (this.ended) return Promise.reject(new Error('pool ended'));
    if (this.current) return Promise.resolve(this.current);
    this.discovering ??= this.discover().then(
      (t) => {
        this.current = t;
        this.discovering = undefined;
        return t;
      },
      (err) => {
        this.discovering = undefined;
        throw err;
      },
    );
    return this.discovering;
  }

  private invalidate(target: Target): void {
    if (this.current !== target) return;
    this.current = undefined;
    void target.pool.end().catch(() => undefined);
  }

  async connect(): Promise<PostgresPoolClient> {
    const target = await this.target();
    let client: pg.PoolClient;
    try {
      client = await target.pool.connect();
    } catch (err) {
      this.invalidate(target);
      throw err;
    }
    if (!this.patched.has(client)) {
      this.patched.add(client);
      // A checked-out client whose server dies emits 'error' (no pool listener while checked out):
      // unhandled, that would crash the process; the query in flight fails and the next checkout rediscovers.
      client.on('error', (err) => {
        if (isLostPrimary(err)) this.invalidate(target);
      });
      const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
      (client as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = (...args) =>
        query(...args).catch((err: unknown) => {
          if (isLostPrimary(err)) this.invalidate(target);
          throw err;
        });
    }
    return client as unknown as PostgresPoolClient;
  }

  async end(): Promise<void> {
    this.ended = true;
    const current = this.current;
    this.current = undefined;
    await current?.pool.end();
  }
}

/** Kysely over the primary of a multi-host URL (or a list of single-host URLs). */
export function createPrimaryDb(
  urls: string | string[],
  options: { max?: number; logger?: { error(obj: unknown, msg?: string): void } } = {},
): Kysely<Database> {
  const list = typeof urls === 'string' ? splitMultiHostUrl(urls) : urls;
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: new PrimaryPool(list, options) }) });
}

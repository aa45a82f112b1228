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
    const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: probeTimeoutMs });
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

/** A pg pool to the host findReadUrl chose; dropped (and chosen again) when that host is lost. */
export class ReadPool implements PostgresPool {
  private current: { url: string; pool: pg.Pool } | undefined;
  private discovering: Promise<{ url: string; pool: pg.Pool }> | undefined;
  private ended = false;
  private readonly watched = new WeakSet<pg.PoolClient>();

  constructor(
    private readonly read: ReadUrl,
    private readonly options: { max?: number; probeTimeoutMs?: number } = {},
  ) {
    if (read.urls.length === 0) throw new Error('no read host');
  }

  private target(): Promise<{ url: string; pool: pg.Pool }> {
    if (this.ended) return Promise.reject(new Error('pool ended'));
    if (this.current) return Promise.resolve(this.current);
    this.discovering ??= findReadUrl(this.read, this.options.probeTimeoutMs).then(
      (url) => {
        const pool = new pg.Pool({
          connectionString: url,
          max: this.options.max ?? 10,
          connectionTimeoutMillis: 2_000,
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
        throw err;
      },
    );
    return this.discovering;
  }

  private drop(pool: pg.Pool): void {
    if (this.current?.pool !== pool) return;
    this.current = undefined;
    void pool.end().catch(() => undefined);
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
      this.drop(pool);
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

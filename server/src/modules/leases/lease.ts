import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { assert } from '../ledger/model.ts';

/**
 * Leader election by lease, in PostgreSQL (table leases, migration 0033), for background roles that
 * must run on one instance at a time (a chain watcher, the signer's queue, a sweep). An instance
 * holds a role while it keeps renewing within `ttlMs` (database clock, so instances' clocks do not
 * matter); when it dies, another takes the role once the lease has expired.
 *
 * Fencing: taking a role over from another holder raises its `token`. A leader's write transaction
 * starts with `fence(trx, role, token)`, which takes a share lock on the lease row: a takeover (an
 * UPDATE of that row) waits for the writes in flight, and a write of an old token after a takeover
 * is refused (LeaseLostError), so a leader paused past its lease can never write after its successor started.
 */
type Db = Kysely<Database> | Transaction<Database>;

export class LeaseLostError extends Error {
  constructor(role: string) {
    super(`The lease on ${role} is held by another instance now`);
    this.name = 'LeaseLostError';
  }
}

/** Bounds on a lease's life: renewals need a few round trips of slack, a dead leader must not block long. */
export const TTL_MIN_MS = 200;
export const TTL_MAX_MS = 60_000;

/**
 * Takes the role, or renews it for its holder, for `ttlMs`; returns the fencing token when `holder`
 * holds the role afterwards, null when another instance does. One statement.
 */
export async function tryAcquire(db: Db, role: string, holder: string, ttlMs: number): Promise<bigint | null> {
  assert(ttlMs >= TTL_MIN_MS && ttlMs <= TTL_MAX_MS, `lease ttl in ${TTL_MIN_MS}..${TTL_MAX_MS} ms`);
  const { rows } = await sql<{ token: string }>`
    insert into leases as l (role, holder, token, expires_at, acquired_at)
    values (${role}, ${holder}, 1, clock_timestamp() + ${ttlMs} * interval '1 millisecond', clock_timestamp())
    on conflict (role) do update set
      token = case when l.holder = excluded.holder then l.token else l.token + 1 end,
      acquired_at = case when l.holder = excluded.holder then l.acquired_at else excluded.acquired_at end,
      holder = excluded.holder,
      expires_at = excluded.expires_at
    where l.holder = excluded.holder or l.expires_at < clock_timestamp()
    returning l.token::text as token`.execute(db);
  const token = rows[0]?.token;
  return token === undefined ? null : BigInt(token);
}

/** Gives the role up at once (a clean shutdown): another instance may take it on its next try. */
export async function release(db: Db, role: string, holder: string): Promise<void> {
  await sql`update leases set expires_at = clock_timestamp() - interval '1 millisecond'
    where role = ${role} and holder = ${holder}`.execute(db);
}

/**
 * The first statement of a leader's write transaction: refuses (LeaseLostError) unless `token` still
 * holds `role` unexpired, and keeps the lease row share-locked until the transaction ends, so a
 * takeover waits for this write.
 */
export async function fence(trx: Transaction<Database>, role: string, token: bigint): Promise<void> {
  const { rows } = await sql`
    select 1 from leases where role = ${role} and token = ${token.toString()}::bigint and expires_at > clock_timestamp()
    for share`.execute(trx);
  if (rows.length === 0) throw new LeaseLostError(role);
}

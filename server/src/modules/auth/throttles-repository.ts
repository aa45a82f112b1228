import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ThrottleState } from './throttle-schedule.ts';

type Db = Kysely<Database>;

export async function getThrottle(db: Db, key: string, forUpdate = false): Promise<ThrottleState | undefined> {
  let query = db.selectFrom('throttles').selectAll().where('key', '=', key);
  if (forUpdate) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return (
    row && {
      failures: row.failures,
      firstFailureAt: row.first_failure_at,
      lastFailureAt: row.last_failure_at,
      lockedUntil: row.locked_until,
    }
  );
}

export async function getThrottles(db: Db, keys: string[]): Promise<Map<string, ThrottleState>> {
  const rows = await db.selectFrom('throttles').selectAll().where('key', 'in', keys).execute();
  return new Map(
    rows.map((row) => [
      row.key,
      {
        failures: row.failures,
        firstFailureAt: row.first_failure_at,
        lastFailureAt: row.last_failure_at,
        lockedUntil: row.locked_until,
      },
    ]),
  );
}

export async function saveThrottle(db: Db, key: string, state: ThrottleState): Promise<void> {
  const values = {
    failures: state.failures,
    first_failure_at: state.firstFailureAt,
    last_failure_at: state.lastFailureAt,
    locked_until: state.lockedUntil,
  };
  await db
    .insertInto('throttles')
    .values({ key, ...values })
    .onConflict((oc) => oc.column('key').doUpdateSet(values))
    .execute();
}

export async function clearThrottle(db: Db, key: string): Promise<void> {
  await db.deleteFrom('throttles').where('key', '=', key).execute();
}

/**
 * Retention (modules/retention): deletes up to `limit` counters whose last failure is more than two
 * days before `now` and that lock nothing: the longest run resets 24 hours after its first failure,
 * so such a counter would start afresh anyway. Keys of names nobody has (`identifier:<name>`) would
 * otherwise pile up for ever.
 */
export async function purgeIdleThrottles(db: Kysely<Database>, now: Date, limit: number): Promise<number> {
  const before = new Date(now.getTime() - 2 * 86_400_000);
  const result = await sql`delete from throttles where key in (
    select key from throttles where last_failure_at < ${before} and (locked_until is null or locked_until < ${now})
    limit ${limit} for update skip locked)`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

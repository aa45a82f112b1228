import type { Kysely } from 'kysely';
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

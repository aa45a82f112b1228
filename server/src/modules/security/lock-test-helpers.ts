import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * Test helpers for the sign-in steps' lock queues: hold a lock in one transaction while a request
 * queues behind it, and wait until it really queues.
 */

/** Runs `body` while another transaction holds whatever `take` locks (a sign-in ahead in the queue). */
export async function whileLockHeld<T>(
  db: Kysely<Database>,
  take: (trx: Kysely<Database>) => Promise<unknown>,
  body: () => Promise<T>,
): Promise<T> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let holding = () => {};
  const held = new Promise<void>((resolve) => {
    holding = resolve;
  });
  const holder = db.transaction().execute(async (trx) => {
    await take(trx);
    holding();
    await released;
  });
  await held;
  try {
    return await body();
  } finally {
    release();
    await holder;
  }
}

/**
 * Waits until a statement in this test's database waits for a lock another transaction holds. Only this
 * database's waiters: the test files of a run share one PostgreSQL cluster, whose lock views show them all.
 */
export async function untilSomeoneWaits(db: Kysely<Database>): Promise<void> {
  for (let tries = 0; tries < 200; tries += 1) {
    // pg_stat_activity, not pg_locks: a row lock's waiter waits on a transaction id, whose lock names no database.
    const waiting = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
    if ((waiting.rows[0]?.n ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('nobody waited for a lock');
}

import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { SweepAttemptsTable } from '../../db/schema-custody.ts';

/**
 * `sweep_attempts` (migration 0039): fee-bumped replacements of a stuck top-up or sweep, each signed and
 * recorded before it is broadcast, like the row it replaces. The signer writes them (signer/sweep-replace.ts).
 */
type Db = Kysely<Database>;
export type SweepAttemptRow = Selectable<SweepAttemptsTable>;

/** The replacements of each of these rows, by row id, oldest attempt first. */
export async function sweepAttemptsOf(db: Db, sweepIds: readonly string[]): Promise<Map<string, SweepAttemptRow[]>> {
  const bySweep = new Map<string, SweepAttemptRow[]>();
  if (sweepIds.length === 0) return bySweep;
  const rows = await db
    .selectFrom('sweep_attempts')
    .selectAll()
    .where('sweep_id', 'in', sweepIds)
    .orderBy('sweep_id')
    .orderBy('attempt')
    .execute();
  for (const row of rows) bySweep.set(row.sweep_id, [...(bySweep.get(row.sweep_id) ?? []), row]);
  return bySweep;
}

export function insertSweepAttempt(trx: Db, row: Insertable<SweepAttemptsTable>): Promise<SweepAttemptRow> {
  return trx.insertInto('sweep_attempts').values(row).returningAll().executeTakeFirstOrThrow();
}

/**
 * Locks an open row and reads its newest attempt number (0: only the first signing), or undefined when the
 * row was settled meanwhile: a replacement is signed only on top of the attempt the caller saw.
 */
export async function lockOpenSweep(trx: Db, sweepId: string): Promise<number | undefined> {
  const { rows } = await sql<{ newest: number }>`
    select coalesce((select max(attempt) from sweep_attempts where sweep_id = s.id), 0)::int as newest
    from sweep_transactions s where s.id = ${sweepId} and s.state = 'signed'
    for update of s`.execute(trx);
  return rows[0]?.newest;
}

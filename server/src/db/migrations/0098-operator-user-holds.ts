import { type Kysely, sql } from 'kysely';

/**
 * Compliance's own locks on a user (issue 32, user lookup and actions), kept apart from the owner's
 * freeze (account_freezes, migration 0076): the owner's unfreeze (password, factor, e-mail code, a day's
 * hold) must not lift a compliance freeze, and compliance must not lift the owner's freeze (it is the
 * owner's protection against whoever took the account). One row per user while the lock stands;
 * lifting it deletes the row (who, when and why are in audit_events, hash-chained).
 *
 * operator_freezes: frozen exactly like the owner's freeze (security/freeze-state.ts reads both).
 * operator_withdrawal_holds: withdrawals, sends and sells refused (withdrawals/outflow-holds.ts); the
 * user may still sign in, trade and convert.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['operator_freezes', 'operator_withdrawal_holds']) {
    await sql`create table ${sql.raw(table)} (
      user_id uuid primary key references users (id) on delete cascade,
      placed_at timestamptz not null,
      operator_id uuid not null references operators (id),
      reason text not null check (length(btrim(reason)) between 1 and 500)
    )`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table operator_withdrawal_holds`.execute(db);
  await sql`drop table operator_freezes`.execute(db);
}

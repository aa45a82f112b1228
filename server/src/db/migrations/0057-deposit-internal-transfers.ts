import { type Kysely, sql } from 'kysely';

/**
 * Native coin sent to a deposit address by a contract's internal call (issue 39 item 5): such a
 * deposit's output_index is -2 - k (the k-th value-carrying internal call of its transaction; -1 stays
 * the transaction's own value), and a re-mined transfer that differs is kept at its position minus
 * 10^6 per variant (deposits/record-observed.ts). The check of migration 0007 (>= -1) widens to that.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table deposits drop constraint deposits_output_index_check`.execute(db);
  await sql`alter table deposits add constraint deposits_output_index_check
    check (output_index > -1000000000 and output_index < 1000000000)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table deposits drop constraint deposits_output_index_check`.execute(db);
  await sql`alter table deposits add constraint deposits_output_index_check check (output_index >= -1)`.execute(db);
}

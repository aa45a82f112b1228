import { type Kysely, sql } from 'kysely';

/**
 * The USD value (in cents, rounded up) of each withdrawal and send when it was placed: sends and
 * withdrawals share one 24-hour review budget measured in USD (withdrawals/outflow-budget.ts, issue 38).
 * A sell order too (review item 1): placed, it pays the coins out as an approved withdrawal, so it
 * counts from the moment it is placed. Null for rows placed before this column existed: valued when read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table withdrawals add column value_usd_cents numeric(78,0) check (value_usd_cents >= 0)`.execute(db);
  await sql`alter table sends add column value_usd_cents numeric(78,0) check (value_usd_cents >= 0)`.execute(db);
  await sql`alter table ramp_orders add column value_usd_cents numeric(78,0) check (value_usd_cents >= 0)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table ramp_orders drop column value_usd_cents`.execute(db);
  await sql`alter table sends drop column value_usd_cents`.execute(db);
  await sql`alter table withdrawals drop column value_usd_cents`.execute(db);
}

import { type Kysely, sql } from 'kysely';

/**
 * The USD value (in cents, rounded up) of each withdrawal and send when it was placed: sends and
 * withdrawals share one 24-hour review budget measured in USD (withdrawals/outflow-budget.ts, issue 38).
 * A sell order too (review item 1): placed, it pays the coins out as an approved withdrawal, so it
 * counts from the moment it is placed. Null for rows placed before this column existed: valued when read.
 *
 * A withdrawal's origin (review item 4): 'user' (asked for by the user), 'ramp' (a sell's payout: the
 * user's own outflow, counted) or 'exchange' (an exchange order's payout or refund: not the user's
 * balance leaving, so not counted in the user's budget).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table withdrawals add column value_usd_cents numeric(78,0) check (value_usd_cents >= 0)`.execute(db);
  await sql`alter table sends add column value_usd_cents numeric(78,0) check (value_usd_cents >= 0)`.execute(db);
  await sql`alter table ramp_orders add column value_usd_cents numeric(78,0) check (value_usd_cents >= 0)`.execute(db);
  await sql`alter table withdrawals add column origin text not null default 'user'
    check (origin in ('user', 'ramp', 'exchange'))`.execute(db);
  // Payouts placed before the column: their keys name them (placeApprovedPayout's callers).
  await sql`update withdrawals set origin = 'exchange' where idempotency_key like 'exchange:%'`.execute(db);
  await sql`update withdrawals set origin = 'ramp' where idempotency_key like 'ramp:%'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table withdrawals drop column origin`.execute(db);
  await sql`alter table ramp_orders drop column value_usd_cents`.execute(db);
  await sql`alter table sends drop column value_usd_cents`.execute(db);
  await sql`alter table withdrawals drop column value_usd_cents`.execute(db);
}

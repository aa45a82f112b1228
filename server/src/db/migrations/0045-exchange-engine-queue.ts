import { type Kysely, sql } from 'kysely';

/**
 * The exchange engine walks every candidate order fairly (issue 37, item 1). Each step read the
 * oldest `updated_at` first, and an order that needed no action was never touched: once a batch of
 * idle rows (expired orders inside the late-deposit watch, a refund whose payout failed) sat at the
 * head of a queue, newer orders were never looked at.
 *
 * - `engine_checked_seq`: stamped from `exchange_engine_check_seq` each time a step takes the order
 *   into its batch; the steps read the never-checked first, then the longest unchecked. A database
 *   sequence, not a clock, so several instances (and a test's frozen clock) still rotate.
 * - `payout_failed_at` / `payout_failed_reason`: a refund whose payout failed (the signer unlocked the
 *   amount back to the user's wallet). Recorded once; the payouts step no longer reads the order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create sequence exchange_engine_check_seq`.execute(db);
  await sql`alter table exchange_orders
    add column engine_checked_seq bigint,
    add column payout_failed_at timestamptz,
    add column payout_failed_reason text check (length(payout_failed_reason) between 1 and 500),
    add constraint exchange_orders_payout_failed_pair
      check ((payout_failed_at is null) = (payout_failed_reason is null))`.execute(db);
  await sql`create index exchange_orders_engine_queue
    on exchange_orders (state, engine_checked_seq asc nulls first, id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index exchange_orders_engine_queue`.execute(db);
  await sql`alter table exchange_orders
    drop constraint exchange_orders_payout_failed_pair,
    drop column payout_failed_reason,
    drop column payout_failed_at,
    drop column engine_checked_seq`.execute(db);
  await sql`drop sequence exchange_engine_check_seq`.execute(db);
}

import { type Kysely, sql } from 'kysely';

/**
 * Sell alerts recorded in the database (issue 36 review, M7), not in an API instance's memory: several
 * instances run the ramp sweep, and a restart must neither lose nor repeat an alert. One row per
 * (order, kind); the sweep claims a due row with one conditional upsert, so exactly one instance logs
 * it, again every re-alert interval while the condition lasts, until an operator resolves it.
 * `ramp_orders.refund_tx_hash`: the provider's on-chain refund an operator matched to a refund_pending
 * sell (`npm run ops -- ramp resolve-refund`); unique, so one refund closes one order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table ramp_sell_alerts (
    order_id uuid not null references ramp_orders(id),
    kind text not null check (kind in ('refund_pending', 'terms_mismatch', 'completed_without_transfer')),
    first_alerted_at timestamptz not null,
    last_alerted_at timestamptz not null,
    alerts integer not null default 1 check (alerts >= 1),
    resolved_at timestamptz,
    resolution text check (resolution is null or length(resolution) between 1 and 500),
    primary key (order_id, kind)
  )`.execute(db);
  await sql`alter table ramp_orders add column refund_tx_hash text unique`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table ramp_orders drop column refund_tx_hash`.execute(db);
  await sql`drop table ramp_sell_alerts`.execute(db);
}

import { type Kysely, sql } from 'kysely';

/**
 * Reorgs deeper than the confirmation count (issue 15). A credited deposit whose block left the
 * canonical chain is money the ledger holds and the chain does not: the watcher records an alert
 * (`reorg_alerts`) and freezes the withdrawals of the deposits' users (`withdrawal_freezes`) in the
 * transaction that rewinds its cursor; an operator resolves the alert (`npm run ops -- reorgs`), which
 * lifts its freezes. `deposits.reorg_alert_id` marks a deposit as alerted, so a later, deeper fork
 * does not raise it again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table reorg_alerts (
      id bigserial primary key,
      network text not null,
      fork_block bigint not null check (fork_block >= 0),
      deposits integer not null check (deposits > 0),
      created_at timestamptz not null,
      resolved_at timestamptz,
      resolution text check (length(resolution) between 1 and 500),
      check ((resolved_at is null) = (resolution is null))
    )`.execute(db);
  await sql`create index reorg_alerts_open on reorg_alerts (created_at) where resolved_at is null`.execute(db);
  await sql`
    create table withdrawal_freezes (
      user_id uuid not null references users (id),
      alert_id bigint not null references reorg_alerts (id),
      created_at timestamptz not null,
      primary key (user_id, alert_id)
    )`.execute(db);
  await sql`create index withdrawal_freezes_alert on withdrawal_freezes (alert_id)`.execute(db);
  await sql`alter table deposits add column reorg_alert_id bigint references reorg_alerts (id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table deposits drop column reorg_alert_id`.execute(db);
  await sql`drop table withdrawal_freezes`.execute(db);
  await sql`drop table reorg_alerts`.execute(db);
}

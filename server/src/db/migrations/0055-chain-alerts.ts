import { type Kysely, sql } from 'kysely';

/**
 * Chain alerts (issue 39): what a deposit watcher found wrong with the chain or its node that an
 * operator must look at, other than a reorg deeper than the confirmations (reorg_alerts, 0036):
 * - `fork_not_found`: no stored block hash is on the node's chain any more; the watcher stops that
 *   network (it never jumps its cursor) until the node agrees with a stored hash again;
 * - `chain_id_mismatch`: the node answers for another chain than the configured one (a testnet URL);
 * - `remined_transfer_differs`: a transaction re-mined after a reorg pays another coin, recipient or
 *   amount at a position where a deposit was recorded; the new transfer gets its own row, never an
 *   overwrite of the old one;
 * - `unexplained_balance`: a deposit address holds more native coin than its recorded deposits explain
 *   (a transfer from a contract the node could not trace).
 * One open alert per (network, kind, dedupe_key): a watcher that keeps failing does not raise one per tick.
 * Users are not frozen by these; the deep-reorg alerts do that.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table chain_alerts (
      id bigserial primary key,
      network text not null,
      kind text not null check (kind in ('fork_not_found', 'chain_id_mismatch', 'remined_transfer_differs', 'unexplained_balance')),
      dedupe_key text not null check (length(dedupe_key) between 1 and 200),
      detail text not null check (length(detail) between 1 and 2000),
      created_at timestamptz not null,
      resolved_at timestamptz,
      resolution text check (length(resolution) between 1 and 500),
      check ((resolved_at is null) = (resolution is null))
    )`.execute(db);
  await sql`create unique index chain_alerts_open on chain_alerts (network, kind, dedupe_key) where resolved_at is null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table chain_alerts`.execute(db);
}

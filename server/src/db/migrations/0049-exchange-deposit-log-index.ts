import { type Kysely, sql } from 'kysely';

/**
 * The counted deposit of an order is one transfer, not one transaction (review of issue 37, M2): a
 * transaction can carry several transfers to the order address, and every one but the counted deposit
 * is an extra deposit. `deposit_log_index`: the counted transfer's log index in its block (-1 for a
 * native transfer); null on orders recorded before, where the lowest-index transfer of the hash counts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table exchange_orders
    add column deposit_log_index integer check (deposit_log_index >= -1)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table exchange_orders drop column deposit_log_index`.execute(db);
}

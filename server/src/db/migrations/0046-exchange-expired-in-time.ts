import { type Kysely, sql } from 'kysely';

/**
 * expired -> confirming (issue 37, item 3): an order expired while its deposit, mined before the
 * deadline, was not yet read (RPC behind, a failed look-up, the native scanner behind, another instance
 * first) takes that deposit as its own and goes on at its rate, instead of refunding it as late.
 * `exchange_order_transitions` is frozen by a trigger; this migration is the one place that changes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table exchange_order_transitions disable trigger exchange_order_transitions_frozen`.execute(db);
  await sql`insert into exchange_order_transitions (from_state, to_state) values ('expired', 'confirming')`.execute(db);
  await sql`alter table exchange_order_transitions enable trigger exchange_order_transitions_frozen`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table exchange_order_transitions disable trigger exchange_order_transitions_frozen`.execute(db);
  await sql`delete from exchange_order_transitions where from_state = 'expired' and to_state = 'confirming'`.execute(
    db,
  );
  await sql`alter table exchange_order_transitions enable trigger exchange_order_transitions_frozen`.execute(db);
}

import { type Kysely, sql } from 'kysely';

/**
 * Ramp orders gain `failed -> refund_pending` (issue 36 review, H3). Before migration 0040 a sell the
 * provider failed after our transfer was signed became `failed` although its coins had left; the
 * ramp sweep's repair step (`ramp/sell-repair.ts`) moves such rows to `refund_pending` (alerted) so
 * they wait for the provider's refund like new ones. `ramp_order_transitions` is frozen by a trigger;
 * its rows change here only, with the trigger off.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table ramp_order_transitions disable trigger ramp_order_transitions_frozen`.execute(db);
  await sql`insert into ramp_order_transitions (from_state, to_state) values ('failed', 'refund_pending')`.execute(db);
  await sql`alter table ramp_order_transitions enable trigger ramp_order_transitions_frozen`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table ramp_order_transitions disable trigger ramp_order_transitions_frozen`.execute(db);
  await sql`delete from ramp_order_transitions where from_state = 'failed' and to_state = 'refund_pending'`.execute(db);
  await sql`alter table ramp_order_transitions enable trigger ramp_order_transitions_frozen`.execute(db);
}

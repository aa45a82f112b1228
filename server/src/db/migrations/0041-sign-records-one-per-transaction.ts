import { type Kysely, sql } from 'kysely';

/**
 * One sign record per check-in transaction and network (issue 36): the same transaction re-mined
 * after a reorg, past UTC midnight, at another log index was a second confirmed sign for the next
 * day. Should two records of one transaction exist already, the later one is kept out of the index
 * by removing it only while it is unconfirmed; confirmed duplicates stop the migration (an operator
 * decides which reward stands).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`delete from sign_records s using sign_records t
    where s.network = t.network and s.tx_hash = t.tx_hash and s.log_index > t.log_index and s.state = 'seen'`.execute(
    db,
  );
  await sql`create unique index sign_records_one_per_transaction on sign_records (network, tx_hash)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index sign_records_one_per_transaction`.execute(db);
}

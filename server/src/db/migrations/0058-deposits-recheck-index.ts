import { type Kysely, sql } from 'kysely';

/**
 * The address watchers re-check the block hashes of credited deposits near the tip every tick (issue
 * 39 item 6, `depositsToRecheck`): an index on the credited, not yet alerted deposits by block, so that
 * query reads the last blocks' rows and not every credited deposit of the network.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index deposits_credited_recheck_idx on deposits (network, block_number)
    where state = 'successful' and reorg_alert_id is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index deposits_credited_recheck_idx`.execute(db);
}

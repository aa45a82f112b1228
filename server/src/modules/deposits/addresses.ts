import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { NetworkCode } from '../catalogue/catalogue.ts';
import { deriveDepositAddress, MAX_ADDRESS_INDEX } from '../chain/derive.ts';

/**
 * One deposit address per (user, network), derived from the network's xpub at an index taken
 * from a per-network counter: an index is used at most once, so no address is ever reused.
 */
export async function depositAddressFor(
  db: Kysely<Database>,
  userId: string,
  network: NetworkCode,
  xpub: string,
): Promise<string> {
  const existing = await findAddress(db, userId, network);
  if (existing) return existing;
  return db.transaction().execute(async (trx) => {
    // The counter row is locked until commit: concurrent allocations take distinct indexes.
    const { rows } = await sql<{ index: number }>`
      insert into deposit_address_counters (network, next_index) values (${network}, 1)
      on conflict (network) do update set next_index = deposit_address_counters.next_index + 1
      returning next_index - 1 as index`.execute(trx);
    const index = rows[0]?.index;
    if (index === undefined || index > MAX_ADDRESS_INDEX) throw new Error(`no address index left on ${network}`);
    const address = deriveDepositAddress(network, xpub, index);
    const inserted = await trx
      .insertInto('deposit_addresses')
      .values({ user_id: userId, network, address, derivation_index: index })
      .onConflict((oc) => oc.columns(['user_id', 'network']).doNothing())
      .returning('address')
      .executeTakeFirst();
    // Another request of the same user won the race: its address stands, this index stays unused.
    return inserted?.address ?? (await findAddress(trx, userId, network)) ?? address;
  });
}

async function findAddress(db: Kysely<Database>, userId: string, network: NetworkCode) {
  const row = await db
    .selectFrom('deposit_addresses')
    .select('address')
    .where('user_id', '=', userId)
    .where('network', '=', network)
    .executeTakeFirst();
  return row?.address;
}

/** Whose deposit address this is, if ours. EVM addresses compare without case (a checksum is a spelling). */
export async function ownerOfDepositAddress(
  db: Kysely<Database>,
  network: NetworkCode,
  address: string,
): Promise<string | undefined> {
  const evm = network === 'ethereum' || network === 'bsc';
  const row = await db
    .selectFrom('deposit_addresses')
    .select('user_id')
    .where('network', '=', network)
    .where((eb) => (evm ? eb(sql`lower(address)`, '=', address.toLowerCase()) : eb('address', '=', address)))
    .executeTakeFirst();
  return row?.user_id;
}

/** One page of the network's deposit addresses after `afterId`, by id (address watchers rotate through them). */
export function depositAddressesPage(db: Kysely<Database>, network: NetworkCode, afterId: string, limit: number) {
  return db
    .selectFrom('deposit_addresses')
    .select(['id', 'address'])
    .where('network', '=', network)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

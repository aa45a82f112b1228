import { type Insertable, type Kysely, type Selectable, sql, type Transaction, type Updateable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ExchangeOrdersTable, ExchangeRateLocksTable } from '../../db/schema-exchange.ts';
import type { NetworkCode } from '../catalogue/catalogue.ts';
import type { ExchangeState } from './states.ts';

/** Kysely queries of the exchange module. Executors first; atomic work takes a Transaction. */

export type OrderRow = Selectable<ExchangeOrdersTable>;
export type OrderPatch = Omit<
  Updateable<ExchangeOrdersTable>,
  'id' | 'user_id' | 'state' | 'state_reason' | 'created_at'
>;
type Db = Kysely<Database>;
type Trx = Transaction<Database>;

export async function findOrder(db: Db, id: string): Promise<OrderRow | undefined> {
  return db.selectFrom('exchange_orders').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Locks the order row for the rest of the transaction (state changes are serialised per order). */
export async function lockOrder(trx: Trx, id: string): Promise<OrderRow | undefined> {
  return trx.selectFrom('exchange_orders').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/**
 * Sets the state (and other columns) only if the order is still in `from`: a lost race updates
 * nothing and returns undefined. The database trigger checks the pair and logs the event.
 */
export async function updateState(
  trx: Trx,
  id: string,
  from: ExchangeState,
  to: ExchangeState,
  reason: string | null,
  now: Date,
  patch: OrderPatch = {},
): Promise<OrderRow | undefined> {
  return trx
    .updateTable('exchange_orders')
    .set({ ...patch, state: to, state_reason: reason, updated_at: now })
    .where('id', '=', id)
    .where('state', '=', from)
    .returningAll()
    .executeTakeFirst();
}

export async function updateFields(trx: Trx, id: string, patch: OrderPatch, now: Date): Promise<void> {
  await trx
    .updateTable('exchange_orders')
    .set({ ...patch, updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function listOrders(
  db: Db,
  userId: string,
  options: { limit: number; before?: { createdAt: Date; id: string } },
): Promise<OrderRow[]> {
  let query = db.selectFrom('exchange_orders').selectAll().where('user_id', '=', userId);
  const before = options.before;
  if (before) {
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '<', before.createdAt),
        eb.and([eb('created_at', '=', before.createdAt), eb('id', '<', before.id)]),
      ]),
    );
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
}

export async function listEvents(db: Db, orderId: string) {
  return db
    .selectFrom('exchange_order_events')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('id')
    .limit(1000)
    .execute();
}

/** Orders in one of `states`, oldest change first; SKIP LOCKED so two workers never take the same. */
export async function claimOrders(trx: Trx, states: readonly ExchangeState[], limit: number): Promise<OrderRow[]> {
  return trx
    .selectFrom('exchange_orders')
    .selectAll()
    .where('state', 'in', states)
    .orderBy('updated_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

export async function nextDepositIndex(trx: Trx): Promise<number> {
  const row = await trx
    .selectNoFrom((eb) => eb.fn<string>('nextval', [eb.val('exchange_order_deposit_index_seq')]).as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Retention (modules/retention): deletes up to `limit` fixed-rate locks no order used that expired more
 * than a day before `now`. Returns how many.
 */
export async function purgeUnusedRateLocks(db: Kysely<Database>, now: Date, limit: number): Promise<number> {
  const before = new Date(now.getTime() - 86_400_000);
  const result = await sql`delete from exchange_rate_locks where id in (
    select l.id from exchange_rate_locks l
    where l.expires_at < ${before} and not exists (select 1 from exchange_orders o where o.rate_lock_id = l.id)
    limit ${limit} for update skip locked)`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/** Whether an order was given this deposit address (canonical form) on `network` (catalogue/platform-addresses.ts). */
export async function isOrderDepositAddress(
  db: Kysely<Database>,
  network: NetworkCode,
  address: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('exchange_orders')
    .select('id')
    .where('send_network', '=', network)
    .where('deposit_address', '=', address)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Unused fixed-rate locks a user keeps: one per open exchange screen is plenty. */
export const RATE_LOCKS_KEPT = 5;

/**
 * Records a fixed-rate lock and deletes the user's older unused ones beyond the newest RATE_LOCKS_KEPT,
 * so asking for rates in a loop cannot grow the table (an order placed on a deleted lock gets
 * EXCHANGE_RATE_EXPIRED and the screen asks again). One transaction, serialised per user.
 */
export async function insertRateLock(
  db: Kysely<Database>,
  lock: Insertable<ExchangeRateLocksTable>,
): Promise<{ id: string }> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${`rate-locks:${lock.user_id}`}))`.execute(trx);
    const row = await trx.insertInto('exchange_rate_locks').values(lock).returning('id').executeTakeFirstOrThrow();
    await sql`delete from exchange_rate_locks where id in (
      select l.id from exchange_rate_locks l
      where l.user_id = ${lock.user_id} and l.id <> ${row.id}
        and not exists (select 1 from exchange_orders o where o.rate_lock_id = l.id)
      order by l.created_at desc, l.id desc
      offset ${RATE_LOCKS_KEPT - 1})`.execute(trx);
    return row;
  });
}

import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { RampOrdersTable, RampQuotesTable } from '../../db/schema-ramp.ts';
import { canTransition, IllegalRampTransitionError, isRampState, type RampState } from './states.ts';

export type QuoteRow = Selectable<RampQuotesTable>;
export type OrderRow = Selectable<RampOrdersTable>;
type Trx = Transaction<Database>;
export type OrderPatch = Partial<
  Pick<
    OrderRow,
    'deposit_address' | 'provider_tx_id' | 'provider_status' | 'withdrawal_id' | 'tx_hash' | 'refund_tx_hash'
  >
>;

/** The user's unused quote, locked until the transaction ends (an order takes it once). */
export function takeQuote(trx: Trx, id: string, userId: string) {
  return trx
    .selectFrom('ramp_quotes')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

export function findOrder(db: Kysely<Database>, id: string) {
  return db.selectFrom('ramp_orders').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findOrderByKey(db: Kysely<Database>, userId: string, key: string) {
  return db
    .selectFrom('ramp_orders')
    .selectAll()
    .where('user_id', '=', userId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

export function lockOrder(trx: Trx, id: string) {
  return trx.selectFrom('ramp_orders').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/**
 * THE way an order changes state: on the locked row, the pair checked against the state table
 * (the database trigger checks it again and appends the event), other columns in the same UPDATE.
 */
export async function transitionOrder(
  trx: Trx,
  order: OrderRow,
  to: RampState,
  options: { reason?: string | null; patch?: OrderPatch; now: Date },
): Promise<OrderRow> {
  const from = order.state;
  if (!isRampState(from) || !canTransition(from, to)) throw new IllegalRampTransitionError(from, to);
  return trx
    .updateTable('ramp_orders')
    .set({ ...options.patch, state: to, state_reason: options.reason ?? null, updated_at: options.now })
    .where('id', '=', order.id)
    .where('state', '=', from)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function patchOrder(trx: Trx, id: string, patch: OrderPatch, now: Date) {
  return trx
    .updateTable('ramp_orders')
    .set({ ...patch, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function eventsOf(db: Kysely<Database>, orderIds: readonly string[]) {
  if (orderIds.length === 0) return new Map<string, { state: string; reason: string | null; at: Date }[]>();
  const rows = await db
    .selectFrom('ramp_order_events')
    .select(['order_id', 'to_state', 'reason', 'occurred_at'])
    .where('order_id', 'in', orderIds)
    .orderBy('id')
    .execute();
  const byOrder = new Map<string, { state: string; reason: string | null; at: Date }[]>();
  for (const r of rows) {
    const list = byOrder.get(r.order_id) ?? [];
    list.push({ state: r.to_state, reason: r.reason, at: r.occurred_at });
    byOrder.set(r.order_id, list);
  }
  return byOrder;
}

/** buy: the on-chain deposit that brought the coins (by the provider's transaction hash). */
export async function depositsByHash(db: Kysely<Database>, hashes: readonly string[]) {
  if (hashes.length === 0) return new Map<string, { state: string; amount_minor: string }>();
  const rows = await db
    .selectFrom('deposits')
    .select(['tx_hash', 'state', 'amount_minor'])
    .where('tx_hash', 'in', hashes)
    .execute();
  return new Map(rows.map((r) => [r.tx_hash.toLowerCase(), { state: r.state, amount_minor: String(r.amount_minor) }]));
}

/** sell: our transfers of the coins to the provider. */
export async function withdrawalsById(db: Kysely<Database>, ids: readonly string[]) {
  if (ids.length === 0) return new Map<string, { state: string; tx_hash: string | null }>();
  const rows = await db.selectFrom('withdrawals').select(['id', 'state', 'tx_hash']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, { state: r.state, tx_hash: r.tx_hash }]));
}

/** Retention: quotes no order took, a day after they expired (an order's quote stays with it). */
export async function purgeUnusedQuotes(db: Kysely<Database>, now: Date, limit: number): Promise<number> {
  const before = new Date(now.getTime() - 86_400_000);
  const result = await sql`delete from ramp_quotes where id in (
    select q.id from ramp_quotes q
    where q.expires_at < ${before} and q.used_at is null
      and not exists (select 1 from ramp_orders o where o.quote_id = q.id)
    limit ${limit} for update skip locked)`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

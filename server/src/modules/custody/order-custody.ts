import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type CoinCode, type NetworkCode, toChainUnits } from '../catalogue/catalogue.ts';
import { assert } from '../ledger/model.ts';
import { chainAsset, move, postCustody } from './custody-book.ts';

/**
 * Coins on exchange order addresses in the custody book (issue 37, item 2: order addresses join the
 * sweeps). An order's counted deposit, once booked into liquidity, and each extra deposit booked as a
 * late one, are the platform's coins sitting on the order's address (the user was paid or refunded from
 * the hot wallet): world -> deposit addresses, like a user's credited deposit, in the engine's
 * transaction. Each is one row of `order_address_custody` (migration 0072), unique on its custody key;
 * the sweeper reads those rows as the order addresses' credited coins.
 *
 * Chain units are the ledger amount scaled up: a remainder below the ledger's unit (BSC tokens) stays on
 * the address unbooked, so the address always holds at least what the book says.
 */

type Trx = Transaction<Database>;

export interface OrderCoins {
  /** `custody:order:<orderId>:in` for the counted deposit, `custody:order-extra:<extraId>` for an extra one. */
  key: string;
  orderId: string;
  network: NetworkCode;
  address: string;
  coin: CoinCode;
  /** Ledger minor units, as the engine booked them. */
  amountMinor: bigint;
}

export const orderInKey = (orderId: string) => `custody:order:${orderId}:in`;
export const orderExtraKey = (extraId: string) => `custody:order-extra:${extraId}`;

/** Books coins that arrived on an order address into custody, once per key (false: booked before, or nothing to book). */
export async function bookOrderCustody(trx: Trx, c: OrderCoins, now: Date): Promise<boolean> {
  if (c.amountMinor <= 0n) return false;
  const chainAmount = toChainUnits(c.coin, c.network, c.amountMinor);
  const row = await trx
    .insertInto('order_address_custody')
    .values({
      order_id: c.orderId,
      network: c.network,
      address: c.address,
      coin: c.coin,
      chain_amount: chainAmount.toString(),
      custody_key: c.key,
      created_at: now,
    })
    .onConflict((oc) => oc.column('custody_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!row) return false;
  const posted = await postCustody(
    trx,
    c.key,
    move('system_external', 'system_deposit_addresses', chainAsset(c.coin, c.network), chainAmount),
    { orderId: c.orderId, address: c.address },
    now,
  );
  assert(posted.length === 1, 'an order address custody posting moves one chain asset');
  return true;
}

/**
 * Order coins booked into liquidity or as extra deposits before migration 0072 (or by an engine that
 * did not book custody), not in custody yet: a bounded page, oldest orders first. The signer books them.
 */
export async function unbookedOrderCoins(db: Kysely<Database>, limit: number): Promise<OrderCoins[]> {
  const counted = await db
    .selectFrom('exchange_orders as o')
    .select(['o.id', 'o.send_network', 'o.send_coin', 'o.deposit_address', 'o.deposit_amount_minor'])
    .where('o.deposit_confirmed_at', 'is not', null)
    .where('o.deposit_address', 'is not', null)
    .where('o.deposit_amount_minor', '>', '0')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('order_address_custody as c')
            .select('c.id')
            .whereRef('c.order_id', '=', 'o.id')
            .where(sql<boolean>`c.custody_key = 'custody:order:' || o.id || ':in'`),
        ),
      ),
    )
    .orderBy('o.created_at')
    .limit(limit)
    .execute();
  const extras = await db
    .selectFrom('exchange_extra_deposits as e')
    .innerJoin('exchange_orders as o', 'o.id', 'e.order_id')
    .select(['e.id', 'e.order_id', 'e.network', 'e.coin', 'e.amount_minor', 'o.deposit_address'])
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('order_address_custody as c')
            .select('c.id')
            .whereRef('c.order_id', '=', 'e.order_id')
            .where(sql<boolean>`c.custody_key = 'custody:order-extra:' || e.id`),
        ),
      ),
    )
    .orderBy('e.id')
    .limit(limit)
    .execute();
  return [
    ...counted.map((o) => ({
      key: orderInKey(o.id),
      orderId: o.id,
      network: o.send_network,
      address: o.deposit_address as string,
      coin: o.send_coin,
      amountMinor: BigInt(o.deposit_amount_minor ?? '0'),
    })),
    ...extras.map((e) => ({
      key: orderExtraKey(e.id),
      orderId: e.order_id,
      network: e.network,
      address: e.deposit_address as string,
      coin: e.coin,
      amountMinor: BigInt(e.amount_minor),
    })),
  ];
}

import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, ValidationError } from '../../errors/app-error.ts';
import { RateExpiredError } from './errors.ts';
import type { CreateOrderRequest } from './schemas.ts';

/** The checks a new order passes inside its transaction: the unpaid-order cap and its fixed rate. */
/**
 * Refuses a new order while the user holds `limit` unpaid ones: every order watches a fresh deposit
 * address, so their number must be bounded. Serialised per user (an advisory lock until the
 * transaction ends), so concurrent requests cannot pass the count together.
 */
export async function assertUnpaidBelowLimit(trx: Kysely<Database>, userId: string, limit: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`exchange-orders:${userId}`}))`.execute(trx);
  const { n } = await trx
    .selectFrom('exchange_orders')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('state', 'in', ['new', 'waiting'])
    .executeTakeFirstOrThrow();
  if (Number(n) >= limit) {
    throw new AppError('EXCHANGE_TOO_MANY_OPEN_ORDERS', `At most ${limit} unpaid orders at a time`, {
      details: { limit },
    });
  }
}

/**
 * The fixed rate an order was priced with: the user's own rate lock, unexpired and unused, for the
 * same pair and amount. Locked (FOR UPDATE) until the order's transaction ends, so two orders cannot
 * use one rate.
 */
export async function lockFixedRate(trx: Kysely<Database>, userId: string, request: CreateOrderRequest, at: Date) {
  const lock = await trx
    .selectFrom('exchange_rate_locks')
    .selectAll()
    .where('id', '=', request.rateId as string)
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
  if (!lock || lock.expires_at.getTime() <= at.getTime()) throw new RateExpiredError();
  const used = await trx
    .selectFrom('exchange_orders')
    .select('id')
    .where('rate_lock_id', '=', lock.id)
    .executeTakeFirst();
  if (used) throw new RateExpiredError('This fixed rate was already used by an order');
  const samePair =
    lock.send_coin === request.sendCoin &&
    lock.send_network === request.sendNetwork &&
    lock.receive_coin === request.receiveCoin &&
    lock.receive_network === request.receiveNetwork &&
    lock.send_amount_minor === request.amountMinor;
  if (!samePair) {
    throw new ValidationError('The rate id is for another pair or amount', [
      { field: 'rateId', message: 'rate id does not match the order', rule: 'match' },
    ]);
  }
  return lock;
}

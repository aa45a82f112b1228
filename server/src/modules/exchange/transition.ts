import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { NotFoundError } from '../../errors/app-error.ts';
import { IllegalTransitionError } from './errors.ts';
import { lockOrder, type OrderPatch, type OrderRow, updateState } from './repository.ts';
import { canTransition, type ExchangeState, isExchangeState } from './states.ts';

export interface TransitionOptions {
  /** Why, kept in the order and in its event (e.g. `deadline_passed`, `operator: ...`). */
  reason?: string | null;
  /** Columns written in the same UPDATE as the state. */
  patch?: OrderPatch;
  /** Refuse unless the order is in this state now (a worker acting on what it read earlier). */
  expectFrom?: ExchangeState;
  now: Date;
}

/**
 * THE way an order changes state: lock the row, check the pair against the state table, update.
 * The database trigger checks the same table again and appends the event, in this transaction.
 */
export async function transitionOrder(
  trx: Transaction<Database>,
  orderId: string,
  to: ExchangeState,
  options: TransitionOptions,
): Promise<OrderRow> {
  const order = await lockOrder(trx, orderId);
  if (!order) throw new NotFoundError('Exchange order not found');
  const from = order.state;
  if (!isExchangeState(from)) throw new Error(`exchange order ${orderId} has unknown state ${from}`);
  if (options.expectFrom !== undefined && options.expectFrom !== from) throw new IllegalTransitionError(from, to, true);
  if (!canTransition(from, to)) throw new IllegalTransitionError(from, to);
  const updated = await updateState(trx, orderId, from, to, options.reason ?? null, options.now, options.patch);
  // The row is locked, so the conditional update cannot miss.
  if (!updated) throw new Error(`exchange order ${orderId} changed under its lock`);
  return updated;
}

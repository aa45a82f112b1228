import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type ExchangeState, exchangeTransitions } from './states.ts';

/** Test-only: a float order row inserted straight into SQL (state 'new'), independent of the service. */
export async function insertBareOrder(db: Kysely<Database>, userId: string, now: Date): Promise<string> {
  const { id } = await db
    .insertInto('exchange_orders')
    .values({
      user_id: userId,
      state_reason: null,
      rate_type: 'float',
      send_coin: 'USDT',
      send_network: 'ethereum',
      receive_coin: 'BNB',
      receive_network: 'bsc',
      send_amount_minor: '100000000',
      rate_scaled: '1000000000000000',
      estimated_receive_minor: '1',
      service_charge_minor: '0',
      network_fee_minor: '0',
      rate_lock_id: null,
      deadline_at: null,
      receive_address: '0x000000000000000000000000000000000000dEaD',
      refund_address: null,
      // The completed state requires both hashes (CHECK); set them up front so any path may end there.
      deposit_tx_hash: `0x${'11'.repeat(32)}`,
      payout_tx_hash: `0x${'22'.repeat(32)}`,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Shortest path of legal transitions from 'new' to `target` (breadth-first over the table). */
export function pathTo(target: ExchangeState): ExchangeState[] {
  const previous = new Map<ExchangeState, ExchangeState | null>([['new', null]]);
  const queue: ExchangeState[] = ['new'];
  while (queue.length > 0) {
    const state = queue.shift() as ExchangeState;
    if (state === target) break;
    for (const next of exchangeTransitions[state]) {
      if (!previous.has(next)) {
        previous.set(next, state);
        queue.push(next);
      }
    }
  }
  if (!previous.has(target)) throw new Error(`state ${target} is unreachable from new`);
  const path: ExchangeState[] = [];
  for (let s: ExchangeState | null = target; s !== null && s !== 'new'; s = previous.get(s) ?? null) path.unshift(s);
  return path;
}

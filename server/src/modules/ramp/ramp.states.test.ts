import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../db/schema.ts';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { canTransition, isStale, type RampState, rampStates, rampTransitions } from './states.ts';

const database = useTestDatabase();
const now = new Date('2030-01-02T03:04:05.000Z');

async function bareBuy(db: Kysely<Database>): Promise<string> {
  const userId = await createUser(db);
  const quote = await db
    .insertInto('ramp_quotes')
    .values({
      user_id: userId,
      side: 'buy',
      coin: 'USDT',
      network: 'ethereum',
      fiat: 'BRL',
      payment_method: 'credit_debit_card',
      fiat_amount_minor: '10000',
      crypto_amount_minor: '1000000',
      fee_fiat_minor: '399',
      network_fee_minor: '0',
      created_at: now,
      expires_at: new Date(now.getTime() + 30_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = randomUUID();
  await db
    .insertInto('ramp_orders')
    .values({
      id,
      user_id: userId,
      side: 'buy',
      idempotency_key: id,
      quote_id: quote.id,
      coin: 'USDT',
      network: 'ethereum',
      fiat: 'BRL',
      payment_method: 'credit_debit_card',
      fiat_amount_minor: '10000',
      crypto_amount_minor: '1000000',
      fee_fiat_minor: '399',
      network_fee_minor: '0',
      wallet_address: '0x0000000000000000000000000000000000000001',
      checkout_expires_at: now,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

/** A legal path from pending to each state a buy can reach. */
const paths: Partial<Record<RampState, RampState[]>> = {
  pending: [],
  waiting_payment: ['waiting_payment'],
  processing: ['processing'],
  completed: ['completed'],
  failed: ['failed'],
  refunded: ['failed', 'refunded'],
  expired: ['expired'],
};
const set = (id: string, to: string) => sql`update ramp_orders set state = ${to} where id = ${id}`.execute(database.db);

describe('ramp order state machine', () => {
  it('the database holds exactly the TypeScript table', async () => {
    const rows = await database.db
      .withTables<{ ramp_order_transitions: { from_state: string; to_state: string } }>()
      .selectFrom('ramp_order_transitions')
      .select(['from_state', 'to_state'])
      .execute();
    const ts = rampStates.flatMap((f) => rampTransitions[f].map((t) => `${f}->${t}`)).sort();
    expect(rows.map((r) => `${r.from_state}->${r.to_state}`).sort()).toEqual(ts);
  });

  it('refuses in SQL exactly the moves the table refuses (every pair from every state a buy reaches)', async () => {
    for (const [from, path] of Object.entries(paths) as [RampState, RampState[]][]) {
      for (const to of rampStates) {
        if (to === from || to === 'waiting_deposit') continue;
        const id = await bareBuy(database.db);
        for (const step of path) await set(id, step);
        const attempt = set(id, to);
        if (canTransition(from, to)) await expect(attempt).resolves.toBeDefined();
        else await expect(attempt).rejects.toThrow(/may not go from/);
      }
    }
  });

  it('creates orders pending only, keeps their terms, and logs every change in the append-only timeline', async () => {
    const id = await bareBuy(database.db);
    await expect(
      sql`update ramp_orders set fiat_amount_minor = 1 where id = ${id}`.execute(database.db),
    ).rejects.toThrow(/terms are fixed/);
    await set(id, 'waiting_payment');
    await set(id, 'completed');
    const events = await database.db
      .selectFrom('ramp_order_events')
      .select(['from_state', 'to_state'])
      .where('order_id', '=', id)
      .orderBy('id')
      .execute();
    expect(events).toEqual([
      { from_state: null, to_state: 'pending' },
      { from_state: 'pending', to_state: 'waiting_payment' },
      { from_state: 'waiting_payment', to_state: 'completed' },
    ]);
    await expect(sql`delete from ramp_order_events where order_id = ${id}`.execute(database.db)).rejects.toThrow();
  });

  it('ranks states so a late event never moves an order back', () => {
    expect(isStale('completed', 'processing')).toBe(true);
    expect(isStale('processing', 'waiting_payment')).toBe(true);
    expect(isStale('waiting_payment', 'completed')).toBe(false);
    expect(isStale('failed', 'refunded')).toBe(false);
  });
});

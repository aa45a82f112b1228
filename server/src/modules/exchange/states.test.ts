import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { IllegalTransitionError } from './errors.ts';
import { findOrder, listEvents } from './repository.ts';
import { allowedPairs, canTransition, type ExchangeState, exchangeStates, terminalStates } from './states.ts';
import { insertBareOrder, pathTo } from './test-helpers.ts';
import { transitionOrder } from './transition.ts';

const database = useTestDatabase();
const now = new Date('2030-01-02T03:04:05.000Z');

const allPairs = exchangeStates.flatMap((from) => exchangeStates.map((to) => [from, to] as const));
const illegalPairs = allPairs.filter(([from, to]) => !canTransition(from, to));
const legalPairs = allPairs.filter(([from, to]) => canTransition(from, to));

/** A fresh order walked to `state` through legal transitions by the service. */
async function orderIn(state: ExchangeState): Promise<string> {
  const db = database.db;
  const id = await insertBareOrder(db, await createUser(db), now);
  for (const step of pathTo(state)) {
    await db.transaction().execute((trx) => transitionOrder(trx, id, step, { now, reason: 'test walk' }));
  }
  expect((await findOrder(db, id))?.state).toBe(state);
  return id;
}

const rawUpdate = (id: string, to: string) =>
  sql`update exchange_orders set state = ${to} where id = ${id}`.execute(database.db);

describe('exchange order state machine', () => {
  it('has 10 states, a path from new to each, and no way out of completed, refunded and failed', () => {
    expect(exchangeStates).toHaveLength(10);
    for (const state of exchangeStates) expect(() => pathTo(state)).not.toThrow();
    for (const state of terminalStates.filter((s) => s !== 'expired')) {
      expect(exchangeStates.filter((to) => canTransition(state, to))).toEqual([]);
    }
    expect(illegalPairs.length + legalPairs.length).toBe(100);
    expect(legalPairs.length).toBe(allowedPairs().length);
  });

  it('the database holds exactly the TypeScript table of allowed pairs', async () => {
    const rows = await database.db
      .selectFrom('exchange_order_transitions')
      .select(['from_state', 'to_state'])
      .execute();
    const fromDb = rows.map((r) => `${r.from_state}->${r.to_state}`).sort();
    expect(fromDb).toEqual(
      allowedPairs()
        .map(([f, t]) => `${f}->${t}`)
        .sort(),
    );
  });

  it(`the service refuses every illegal pair (${illegalPairs.length}) and changes nothing`, async () => {
    for (const [from, to] of illegalPairs) {
      const id = await orderIn(from);
      const eventsBefore = (await listEvents(database.db, id)).length;
      const attempt = database.db.transaction().execute((trx) => transitionOrder(trx, id, to, { now }));
      await expect(attempt, `${from} -> ${to}`).rejects.toBeInstanceOf(IllegalTransitionError);
      expect((await findOrder(database.db, id))?.state).toBe(from);
      expect(await listEvents(database.db, id)).toHaveLength(eventsBefore);
    }
  });

  it(`the database refuses every illegal state change by raw SQL (${illegalPairs.filter(([f, t]) => f !== t).length})`, async () => {
    for (const [from, to] of illegalPairs) {
      if (from === to) continue; // not a state change: nothing to refuse, and no event (checked below)
      const id = await orderIn(from);
      await expect(rawUpdate(id, to), `${from} -> ${to}`).rejects.toThrow(/may not go from/);
      expect((await findOrder(database.db, id))?.state).toBe(from);
    }
  });

  it(`every legal pair (${legalPairs.length}) works through the service and logs one event`, async () => {
    for (const [from, to] of legalPairs) {
      const id = await orderIn(from);
      const eventsBefore = await listEvents(database.db, id);
      await database.db.transaction().execute((trx) => transitionOrder(trx, id, to, { now, reason: `to ${to}` }));
      expect((await findOrder(database.db, id))?.state).toBe(to);
      const events = await listEvents(database.db, id);
      expect(events).toHaveLength(eventsBefore.length + 1);
      expect(events.at(-1)).toMatchObject({ from_state: from, to_state: to, reason: `to ${to}` });
    }
  });

  it(`every legal pair (${legalPairs.length}) works by raw SQL too, and the trigger logs it`, async () => {
    for (const [from, to] of legalPairs) {
      const id = await orderIn(from);
      await rawUpdate(id, to);
      expect((await findOrder(database.db, id))?.state).toBe(to);
      expect((await listEvents(database.db, id)).at(-1)).toMatchObject({ from_state: from, to_state: to });
    }
  });

  it('an order starts in new (insert in another state refused) and its first event is null -> new', async () => {
    const id = await orderIn('new');
    expect(await listEvents(database.db, id)).toMatchObject([{ from_state: null, to_state: 'new' }]);
    const userId = await createUser(database.db);
    await expect(
      sql`insert into exchange_orders (user_id, state, rate_type, send_coin, send_network, receive_coin,
            receive_network, send_amount_minor, rate_scaled, estimated_receive_minor, service_charge_minor,
            network_fee_minor, receive_address, created_at, updated_at)
          values (${userId}, 'completed', 'float', 'USDT', 'ethereum', 'BNB', 'bsc', 1, 1, 1, 0, 0, '0x', now(), now())`.execute(
        database.db,
      ),
    ).rejects.toThrow(/must be created in state new/);
  });

  it('a same-state update is no state change: allowed by SQL, no event; the service refuses it', async () => {
    const id = await orderIn('waiting');
    const before = (await listEvents(database.db, id)).length;
    await rawUpdate(id, 'waiting');
    expect(await listEvents(database.db, id)).toHaveLength(before);
    await expect(
      database.db.transaction().execute((trx) => transitionOrder(trx, id, 'waiting', { now })),
    ).rejects.toBeInstanceOf(IllegalTransitionError);
  });

  it('the event log is append-only and the transitions table is frozen', async () => {
    const id = await orderIn('waiting');
    await expect(
      sql`update exchange_order_events set reason = 'x' where order_id = ${id}`.execute(database.db),
    ).rejects.toThrow(/refuses UPDATE/);
    await expect(sql`delete from exchange_order_events where order_id = ${id}`.execute(database.db)).rejects.toThrow(
      /refuses DELETE/,
    );
    await expect(sql`truncate exchange_order_events cascade`.execute(database.db)).rejects.toThrow(/refuses TRUNCATE/);
    await expect(
      sql`insert into exchange_order_transitions values ('completed', 'new')`.execute(database.db),
    ).rejects.toThrow(/refuses INSERT/);
    await expect(sql`delete from exchange_order_transitions`.execute(database.db)).rejects.toThrow(/refuses DELETE/);
  });

  it('an unknown state is refused by the CHECK constraint', async () => {
    const id = await orderIn('waiting');
    await expect(rawUpdate(id, 'teleported')).rejects.toThrow(/check constraint|may not go/);
  });
});

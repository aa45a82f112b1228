import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../db/create-db.ts';
import type { Database } from '../../db/schema.ts';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { creditDeposit } from '../ledger/operations.ts';
import { reconcile } from '../ledger/reconcile.ts';
import { balanceOf, negativeUserBalances } from '../ledger/test-helpers.ts';
import { placeSend } from '../sends/service.ts';
import { placeWithdrawal } from './service.ts';

const CLIENTS = 32;
const ASSET = 'USDC';
const at = new Date('2030-01-01T00:00:00Z');

describe(`withdrawals and sends under ${CLIENTS} concurrent clients (PostgreSQL)`, () => {
  const database = useTestDatabase();
  // One connection per client, so the transactions really overlap in PostgreSQL.
  let pool: Kysely<Database>;
  let hot: string;
  let others: string[];

  beforeAll(async () => {
    pool = createDb(database.url, { max: CLIENTS });
    hot = await createUser(database.db);
    others = await Promise.all(Array.from({ length: 4 }, () => createUser(database.db)));
  });
  afterAll(() => pool.destroy());

  const withdraw = (key: string, amountMinor: bigint, userId = hot) =>
    pool
      .transaction()
      .execute((trx) =>
        placeWithdrawal(
          trx,
          { userId, idempotencyKey: key, coin: ASSET, network: 'ethereum', address: '0x00', amountMinor, feeMinor: 1n },
          10n ** 30n,
          at,
        ),
      );
  const send = (key: string, amountMinor: bigint, toUserId: string) =>
    pool.transaction().execute((trx) =>
      placeSend(
        trx,
        {
          fromUserId: hot,
          toUserId,
          idempotencyKey: key,
          coin: ASSET,
          amountMinor,
          recipientKind: 'email',
          recipient: 'r@example.com',
          network: null,
        },
        at,
      ),
    );

  it('never overdraws one account raced by withdrawals and sends, and loses no update', async () => {
    const funded = 500n;
    await database.db
      .transaction()
      .execute((trx) =>
        creditDeposit(trx, { idempotencyKey: 'fund-hot', userId: hot, asset: ASSET, amountMinor: funded }, at),
      );
    // 96 requests for ~1,000 units against 500: many must fail, none may overdraw.
    const requests = Array.from({ length: CLIENTS * 3 }, (_, i) => ({
      kind: i % 2 === 0 ? ('withdraw' as const) : ('send' as const),
      amountMinor: BigInt((i * 7) % 20) + 2n,
      key: `race-${i}`,
      to: others[i % others.length] ?? '',
    }));
    const settled = await Promise.allSettled(
      requests.map(async (r) => {
        if (r.kind === 'withdraw') await withdraw(r.key, r.amountMinor);
        else await send(r.key, r.amountMinor, r.to);
        return r;
      }),
    );
    const ok = [];
    let refused = 0;
    for (const s of settled) {
      if (s.status === 'fulfilled') ok.push(s.value);
      else if ((s.reason as { code?: string }).code === 'AMOUNT_EXCEEDS_AVAILABLE') refused += 1;
      else throw s.reason;
    }
    expect(refused).toBeGreaterThan(0);
    expect(ok.length + refused).toBe(requests.length);
    const withdrawn = ok.filter((r) => r.kind === 'withdraw').reduce((s, r) => s + r.amountMinor, 0n);
    const sent = ok.filter((r) => r.kind === 'send').reduce((s, r) => s + r.amountMinor, 0n);
    // No lost update: every accepted request is in the balances, exactly once.
    expect(await balanceOf(database.db, 'user_available', hot, ASSET)).toBe(funded - withdrawn - sent);
    expect(await balanceOf(database.db, 'user_locked', hot, ASSET)).toBe(withdrawn);
    let received = 0n;
    for (const o of others) received += await balanceOf(database.db, 'user_available', o, ASSET);
    expect(received).toBe(sent);
    const rows = await database.db
      .selectFrom('withdrawals')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', hot)
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(ok.filter((r) => r.kind === 'withdraw').length);
    const sends = await database.db
      .selectFrom('sends')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('from_user_id', '=', hot)
      .executeTakeFirstOrThrow();
    expect(Number(sends.n)).toBe(ok.filter((r) => r.kind === 'send').length);
    expect(await negativeUserBalances(database.db)).toBe(0);
    expect((await reconcile(database.db)).ok).toBe(true);
  }, 60_000);

  it(`${CLIENTS} clients retrying one withdrawal and one send key: one effect each`, async () => {
    const user = await createUser(database.db);
    await database.db
      .transaction()
      .execute((trx) =>
        creditDeposit(trx, { idempotencyKey: `fund-${user}`, userId: user, asset: ASSET, amountMinor: 1_000n }, at),
      );
    const results = await Promise.all(Array.from({ length: CLIENTS }, () => withdraw('same-key', 100n, user)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await balanceOf(database.db, 'user_locked', user, ASSET)).toBe(100n);
    expect(await balanceOf(database.db, 'user_available', user, ASSET)).toBe(900n);

    const before = await balanceOf(database.db, 'user_available', hot, ASSET);
    const target = others[0] ?? '';
    const targetBefore = await balanceOf(database.db, 'user_available', target, ASSET);
    const amount = before > 0n ? 1n : 0n;
    if (amount > 0n) {
      const sendResults = await Promise.all(Array.from({ length: CLIENTS }, () => send('same-send', amount, target)));
      expect(sendResults.filter(Boolean)).toHaveLength(1);
      expect(await balanceOf(database.db, 'user_available', target, ASSET)).toBe(targetBefore + amount);
    }
  }, 60_000);
});

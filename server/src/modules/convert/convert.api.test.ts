import { describe, expect, it } from 'vitest';
import { createUser, TEST_USER_HEADER } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { reconcile } from '../ledger/reconcile.ts';
import { balanceOf } from '../ledger/test-helpers.ts';
import { seedLiquidity } from './liquidity.ts';
import { credit, T0, useConvertApp } from './test-helpers.ts';

const database = useTestDatabase();
const convert = useConvertApp(database);

const as = (userId: string) => ({ [TEST_USER_HEADER]: userId });

async function quote(userId: string, from: string, to: string, amountMinor: string) {
  return convert.app.inject({
    method: 'POST',
    url: '/api/convert/quotes',
    headers: as(userId),
    payload: { from, to, amountMinor },
  });
}
async function accept(userId: string, quoteId: string) {
  return convert.app.inject({ method: 'POST', url: `/api/convert/quotes/${quoteId}/accept`, headers: as(userId) });
}

describe('development liquidity', () => {
  it('is seeded once per coin from system_external (a restart adds nothing) and reconciles', async () => {
    expect(await seedLiquidity(database.db, T0)).toBe(0);
    expect(await balanceOf(database.db, 'system_liquidity', null, 'TUSD')).toBeGreaterThan(0n);
    expect((await reconcile(database.db)).ok).toBe(true);
  });
});

describe('stablecoins convert 1:1, exactly, with no spread and no fee', () => {
  it('USDT (6 decimals) -> TUSD (18 decimals) and back', async () => {
    const user = await createUser(database.db);
    await credit(database.db, user, 'USDT', 123_456_789n, `t:${user}`);
    const q = await quote(user, 'USDT', 'TUSD', '123456789');
    expect(q.statusCode).toBe(200);
    expect(q.json()).toMatchObject({ rate: '1', feeMinor: '0', receiveMinor: '123456789000000000000' });
    const done = await accept(user, q.json().quoteId);
    expect(done.json().outcome).toBe('converted');
    expect(await balanceOf(database.db, 'user_available', user, 'USDT')).toBe(0n);
    expect(await balanceOf(database.db, 'user_available', user, 'TUSD')).toBe(123_456_789_000_000_000_000n);

    const back = await quote(user, 'TUSD', 'USDC', '123456789000000000000');
    expect(back.json()).toMatchObject({ rate: '1', feeMinor: '0', receiveMinor: '123456789' });
    expect((await accept(user, back.json().quoteId)).json().outcome).toBe('converted');
    expect(await balanceOf(database.db, 'user_available', user, 'USDC')).toBe(123_456_789n);
    expect(await balanceOf(database.db, 'user_available', user, 'TUSD')).toBe(0n);
  });

  it('refuses a TUSD amount with digits below the USDT unit rather than dropping them', async () => {
    const user = await createUser(database.db);
    const res = await quote(user, 'TUSD', 'USDT', '1000000000000000001');
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0]).toMatchObject({ field: 'amountMinor', rule: 'precision' });
  });
});

describe('quotes', () => {
  it('prices other pairs with a fee rounded up and the amount received rounded down', async () => {
    const user = await createUser(database.db);
    const res = await quote(user, 'BTC', 'USDT', '12345677');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    // fee = ceil(12345677 * 10 / 10000) = ceil(12345.677) = 12346
    expect(body.feeMinor).toBe('12346');
    // The sandbox starts BTC at 90000 USD; rate = 90000 * (1 - 0.5%) = 89550 USDT per BTC.
    expect(body.rate).toBe('89550');
    // receive = floor((12345677 - 12346) * 89550 * 10^6 / 10^8) = floor(11044497910.5)
    expect(body.receiveMinor).toBe('11044497910');
    expect(body.source).toBe('sandbox');
    expect(new Date(body.expiresAt).getTime() - convert.clock.now().getTime()).toBe(10_000);
    expect(BigInt(body.minMinor)).toBeLessThan(BigInt(body.maxMinor));
  });

  it('refuses amounts outside the limits, one coin to itself, and stale prices', async () => {
    const user = await createUser(database.db);
    const tooSmall = await quote(user, 'BTC', 'USDT', '1');
    expect(tooSmall.statusCode).toBe(400);
    expect(tooSmall.json().code).toBe('CONVERT_AMOUNT_OUT_OF_RANGE');
    expect(tooSmall.json().details.map((d: { rule: string }) => d.rule)).toEqual(['min', 'max']);
    expect((await quote(user, 'BTC', 'BTC', '100000')).json().code).toBe('CONVERT_PAIR_UNSUPPORTED');
    convert.clock.advance(60_001);
    const stale = await quote(user, 'BTC', 'USDT', '100000');
    expect(stale.statusCode).toBe(503);
    expect(stale.json().code).toBe('PRICE_UNAVAILABLE');
    await convert.prices.refresh();
    expect((await quote(user, 'BTC', 'USDT', '100000')).statusCode).toBe(200);
  });
});

describe('accept', () => {
  it('an expired quote converts nothing and answers a new quote, which converts when accepted', async () => {
    const user = await createUser(database.db);
    await credit(database.db, user, 'ETH', 10n ** 18n, `t:${user}`);
    const first = (await quote(user, 'ETH', 'USDC', '500000000000000000')).json();
    convert.clock.advance(10_000); // exactly at expiry: expired
    const res = await accept(user, first.quoteId);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.outcome).toBe('requoted');
    expect(body.quote.quoteId).not.toBe(first.quoteId);
    expect(body.quote.amountMinor).toBe(first.amountMinor);
    expect(new Date(body.quote.expiresAt).getTime()).toBe(convert.clock.now().getTime() + 10_000);
    expect(await balanceOf(database.db, 'user_available', user, 'ETH')).toBe(10n ** 18n);
    expect(await balanceOf(database.db, 'user_available', user, 'USDC')).toBe(0n);

    convert.clock.advance(9_999); // one millisecond before the new quote's expiry
    const done = (await accept(user, body.quote.quoteId)).json();
    expect(done.outcome).toBe('converted');
    expect(done.conversion.receiveMinor).toBe(body.quote.receiveMinor);
    expect(await balanceOf(database.db, 'user_available', user, 'ETH')).toBe(5n * 10n ** 17n);
    expect(await balanceOf(database.db, 'user_available', user, 'USDC')).toBe(BigInt(body.quote.receiveMinor));
    await convert.prices.refresh();
  });

  it('two accepts of one quote convert once (sequential and 12 concurrent)', async () => {
    const user = await createUser(database.db);
    await credit(database.db, user, 'USDT', 100_000_000n, `t:${user}`);
    const q1 = (await quote(user, 'USDT', 'BTC', '10000000')).json();
    const a = (await accept(user, q1.quoteId)).json();
    const b = (await accept(user, q1.quoteId)).json();
    expect(b.conversion.id).toBe(a.conversion.id);

    const q2 = (await quote(user, 'USDT', 'BTC', '10000000')).json();
    const results = await Promise.all(Array.from({ length: 12 }, () => accept(user, q2.quoteId)));
    const ids = new Set(results.map((r) => r.json().conversion.id));
    expect(ids.size).toBe(1);
    // (Besides these, a batch may move liquidity between its lane and the main account.)
    const posted = await database.db
      .selectFrom('ledger_transfers')
      .select('idempotency_key')
      .where(
        'idempotency_key',
        'in',
        [q1.quoteId, q2.quoteId].flatMap((q) => [`convert:${q}:give`, `convert:${q}:get`]),
      )
      .execute();
    expect(posted).toHaveLength(4);
    expect(await balanceOf(database.db, 'user_available', user, 'USDT')).toBe(80_000_000n);
    expect(await balanceOf(database.db, 'user_available', user, 'BTC')).toBe(
      BigInt(q1.receiveMinor) + BigInt(q2.receiveMinor),
    );
    expect((await reconcile(database.db)).ok).toBe(true);
  });

  it('refuses when the user or the liquidity account is short, changing nothing', async () => {
    const user = await createUser(database.db);
    await credit(database.db, user, 'USDT', 5_000_000n, `t:${user}`);
    const tooMuch = (await quote(user, 'USDT', 'USDC', '6000000')).json();
    const res = await accept(user, tooMuch.quoteId);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('INSUFFICIENT_BALANCE');

    const liquidity = await balanceOf(database.db, 'system_liquidity', null, 'BTC');
    const whale = await createUser(database.db);
    await credit(database.db, whale, 'USDT', 2n * 10n ** 13n, `t:${whale}`);
    // Drain the BTC liquidity with quotes near the maximum until one is refused.
    let refused: { statusCode: number; json(): { code: string } } | undefined;
    for (let i = 0; i < 200 && !refused; i++) {
      const q = (await quote(whale, 'USDT', 'BTC', '100000000000')).json();
      const r = await accept(whale, q.quoteId);
      if (r.statusCode !== 200) refused = r;
    }
    expect(refused?.statusCode).toBe(503);
    expect(refused?.json().code).toBe('LIQUIDITY_SHORT');
    expect(await balanceOf(database.db, 'system_liquidity', null, 'BTC')).toBeGreaterThanOrEqual(0n);
    expect(await balanceOf(database.db, 'system_liquidity', null, 'BTC')).toBeLessThan(liquidity);
    expect((await reconcile(database.db)).ok).toBe(true);
  }, 60_000);

  it('accepts arriving together share a batch: each gets its own answer, a short one changes nothing', async () => {
    const users = await Promise.all(Array.from({ length: 6 }, () => createUser(database.db)));
    for (const [i, u] of users.entries())
      await credit(database.db, u, 'USDT', i === 0 ? 1_000_000n : 50_000_000n, `t:${u}`);
    const quotes = await Promise.all(
      users.map(async (u, i) =>
        (await quote(u, 'USDT', i % 2 ? 'ETH' : 'USDC', i === 0 ? '2000000' : '20000000')).json(),
      ),
    );
    // Same turn of the event loop: one batch. users[0] is short; users[1] also tries users[2]'s quote and
    // accepts its own twice.
    const [short, own, again, stolen, ...rest] = await Promise.all([
      accept(users[0] as string, quotes[0].quoteId),
      accept(users[1] as string, quotes[1].quoteId),
      accept(users[1] as string, quotes[1].quoteId),
      accept(users[1] as string, quotes[2].quoteId),
      ...users.slice(2).map((u, i) => accept(u, quotes[i + 2].quoteId)),
    ]);
    expect(short?.json().code).toBe('INSUFFICIENT_BALANCE');
    expect(own?.json().outcome).toBe('converted');
    expect(again?.json().conversion.id).toBe(own?.json().conversion.id);
    expect(stolen?.statusCode).toBe(404);
    expect(rest.map((r) => r.json().outcome)).toEqual(['converted', 'converted', 'converted', 'converted']);
    expect(await balanceOf(database.db, 'user_available', users[0] as string, 'USDT')).toBe(1_000_000n);
    expect(await balanceOf(database.db, 'user_available', users[1] as string, 'USDT')).toBe(30_000_000n);
    expect((await reconcile(database.db)).ok).toBe(true);
  });

  it("404 for another user's quote or conversion", async () => {
    const owner = await createUser(database.db);
    const other = await createUser(database.db);
    await credit(database.db, owner, 'USDT', 10_000_000n, `t:${owner}`);
    const q = (await quote(owner, 'USDT', 'USDC', '2000000')).json();
    expect((await accept(other, q.quoteId)).statusCode).toBe(404);
    const done = (await accept(owner, q.quoteId)).json();
    const mine = await convert.app.inject({
      url: `/api/convert/conversions/${done.conversion.id}`,
      headers: as(owner),
    });
    expect(mine.json()).toMatchObject({ id: done.conversion.id, from: 'USDT', to: 'USDC', status: 'completed' });
    const theirs = await convert.app.inject({
      url: `/api/convert/conversions/${done.conversion.id}`,
      headers: as(other),
    });
    expect(theirs.statusCode).toBe(404);
  });
});

describe('history', () => {
  it('pages newest first with a cursor', async () => {
    const user = await createUser(database.db);
    await credit(database.db, user, 'USDT', 10_000_000n, `t:${user}`);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      convert.clock.advance(1000);
      const q = (await quote(user, 'USDT', 'USDC', '1000000')).json();
      ids.push((await accept(user, q.quoteId)).json().conversion.id);
    }
    const page1 = (await convert.app.inject({ url: '/api/convert/history?limit=2', headers: as(user) })).json();
    expect(page1.items.map((c: { id: string }) => c.id)).toEqual([ids[2], ids[1]]);
    expect(page1.nextCursor).toBeTypeOf('string');
    const page2 = (
      await convert.app.inject({ url: `/api/convert/history?limit=2&cursor=${page1.nextCursor}`, headers: as(user) })
    ).json();
    expect(page2.items.map((c: { id: string }) => c.id)).toEqual([ids[0]]);
    expect(page2.nextCursor).toBeNull();
    const pair = (await convert.app.inject({ url: '/api/convert/history?from=USDC', headers: as(user) })).json();
    expect(pair.items).toEqual([]);
    await convert.prices.refresh();
  });
});

import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createUser, TEST_USER_HEADER } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { reconcile } from '../ledger/reconcile.ts';
import { balanceOf } from '../ledger/test-helpers.ts';
import { credit, useConvertApp } from './test-helpers.ts';

/** Liquidity lanes (migrations 0034, 0035): batches post through sub-accounts, rebalanced against lane 0. */
const database = useTestDatabase();
const convert = useConvertApp(database, { BTC: '1', USDT: '10000000' });

const BTC_LIQUIDITY_MINOR = 100_000_000n; // 1 BTC

const as = (userId: string) => ({ [TEST_USER_HEADER]: userId });
const quote = (userId: string, amountMinor: string) =>
  convert.app
    .inject({
      method: 'POST',
      url: '/api/convert/quotes',
      headers: as(userId),
      payload: { from: 'USDT', to: 'BTC', amountMinor },
    })
    .then((r) => r.json<{ quoteId: string; receiveMinor: string }>());
const accept = (userId: string, quoteId: string) =>
  convert.app.inject({ method: 'POST', url: `/api/convert/quotes/${quoteId}/accept`, headers: as(userId) });

const btcLanes = () =>
  database.db
    .selectFrom('ledger_accounts')
    .select(['lane', 'balance'])
    .where('kind', '=', 'system_liquidity')
    .where('asset', '=', 'BTC')
    .orderBy('lane')
    .execute();

describe('liquidity lanes', () => {
  it('pays every conversion the whole liquidity can pay, whichever lane its batch took', async () => {
    const whale = await createUser(database.db);
    await credit(database.db, whale, 'USDT', 10n ** 13n, `t:${whale}`);
    // Together first (a few batches, a few lanes), then one by one (a lane each, in turn) until refused.
    const together = await Promise.all(
      Array.from({ length: 6 }, async () => accept(whale, (await quote(whale, '3000000000')).quoteId)),
    );
    expect(together.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    let paidMinor = together.reduce((sum, r) => sum + BigInt(r.json().conversion.receiveMinor), 0n);
    let refused: { receiveMinor: bigint; code: string } | undefined;
    for (let i = 0; i < 100 && !refused; i++) {
      const q = await quote(whale, '3000000000');
      const r = await accept(whale, q.quoteId);
      if (r.statusCode === 200) paidMinor += BigInt(r.json().conversion.receiveMinor);
      else refused = { receiveMinor: BigInt(q.receiveMinor), code: r.json().code };
    }
    expect(refused?.code).toBe('LIQUIDITY_SHORT');
    const left = await balanceOf(database.db, 'system_liquidity', null, 'BTC');
    // Refused only when all lanes and the main account together could not pay it.
    expect(left).toBeLessThan(refused?.receiveMinor ?? 0n);
    expect(left + paidMinor).toBe(BTC_LIQUIDITY_MINOR);
    expect(await balanceOf(database.db, 'user_available', whale, 'BTC')).toBe(paidMinor);
    const lanes = await btcLanes();
    expect(lanes.filter((l) => l.lane > 0).length).toBeGreaterThanOrEqual(2);
    expect(lanes.every((l) => BigInt(l.balance) >= 0n)).toBe(true);
    const moves = await sql<{ purpose: string }>`
      select distinct metadata->>'purpose' as purpose from ledger_transfers
      where metadata->>'purpose' in ('liquidity_rebalance', 'liquidity_consolidate')`.execute(database.db);
    expect(moves.rows.map((r) => r.purpose).sort()).toEqual(['liquidity_consolidate', 'liquidity_rebalance']);
    expect((await reconcile(database.db)).ok).toBe(true);
  }, 60_000);

  it('keeps lanes to system liquidity and fees, and a lane part of the account for good', async () => {
    const user = await createUser(database.db);
    await expect(
      sql`insert into ledger_accounts (kind, user_id, asset, lane) values ('user_available', ${user}, 'BTC', 1)`.execute(
        database.db,
      ),
    ).rejects.toMatchObject({ code: '23514' });
    await expect(
      sql`insert into ledger_accounts (kind, user_id, asset, lane) values ('system_liquidity', null, 'BTC', 16)`.execute(
        database.db,
      ),
    ).rejects.toMatchObject({ code: '23514' });
    await expect(
      sql`update ledger_accounts set lane = 7 where kind = 'system_liquidity' and asset = 'BTC' and lane = 1`.execute(
        database.db,
      ),
    ).rejects.toMatchObject({ code: '42501' });
  });

  it('refuses a lane outside 0..lanes whole', async () => {
    await expect(
      sql`select * from convert_accept_batch(array[gen_random_uuid()], array[gen_random_uuid()], now(), 5::smallint, 4::smallint)`.execute(
        database.db,
      ),
    ).rejects.toMatchObject({ code: 'LG003' });
  });
});

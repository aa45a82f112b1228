import fc from 'fast-check';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { createUser, TEST_USER_HEADER } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { type CoinCode, coinCodes, coinDecimals } from '../catalogue/catalogue.ts';
import { reconcile } from '../ledger/reconcile.ts';
import { balanceOf } from '../ledger/test-helpers.ts';
import { FEE_BPS, isStablePair } from './pricing.ts';
import { credit, useConvertApp } from './test-helpers.ts';

/**
 * Property: no sequence of quotes, accepts (repeated, late, concurrent) and clock moves creates or
 * destroys value. Checked after every run: the ledger reconciles; system_external is untouched by
 * conversions (nothing enters or leaves the platform); each user's balances equal their credits
 * minus what they gave plus what they received; and every conversion rounded against the user
 * (fee up, amount received down, stablecoins exact).
 */

const database = useTestDatabase();
const convert = useConvertApp(database);

const START: Partial<Record<CoinCode, bigint>> = {
  USDT: 50_000n * 10n ** 6n,
  TUSD: 20_000n * 10n ** 18n,
  BTC: 10n ** 8n,
  ETH: 5n * 10n ** 18n,
};

type Command =
  | { type: 'convert'; from: CoinCode; to: CoinCode; permille: number; accepts: number }
  | { type: 'quoteOnly'; from: CoinCode; to: CoinCode; permille: number }
  | { type: 'acceptOld'; pick: number }
  | { type: 'wait'; ms: number };

const coin = fc.constantFrom<CoinCode>('USDT', 'USDC', 'TUSD', 'BTC', 'ETH');
const pair = fc.tuple(coin, coin).filter(([a, b]) => a !== b);
const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .record({ pair, permille: fc.integer({ min: 1, max: 1000 }), accepts: fc.integer({ min: 1, max: 4 }) })
      .map(({ pair: [from, to], permille, accepts }) => ({ type: 'convert' as const, from, to, permille, accepts })),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({ pair, permille: fc.integer({ min: 1, max: 1000 }) })
      .map(({ pair: [from, to], permille }) => ({ type: 'quoteOnly' as const, from, to, permille })),
  },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('acceptOld' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 15_000 }) }) },
);

async function externalTotals(): Promise<Map<string, bigint>> {
  const { rows } = await sql<{ asset: string; balance: string }>`
    select asset, balance::text as balance from ledger_accounts where kind = 'system_external'`.execute(database.db);
  return new Map(rows.map((r) => [r.asset, BigInt(r.balance)]));
}

it('quotes and accepts never create or destroy value, and rounding never favours the user', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 12 }), async (commands) => {
      const user = await createUser(database.db);
      const headers = { [TEST_USER_HEADER]: user };
      const expected = new Map<CoinCode, bigint>(coinCodes.map((c) => [c, 0n]));
      for (const [asset, amount] of Object.entries(START) as [CoinCode, bigint][]) {
        await credit(database.db, user, asset, amount, `prop:${user}:${asset}`);
        expected.set(asset, amount);
      }
      const external = await externalTotals();
      const quotes: string[] = [];
      const converted = new Set<string>();

      const record = (body: {
        outcome: string;
        conversion?: { id: string; from: CoinCode; to: CoinCode; amountMinor: string; receiveMinor: string };
        quote?: { quoteId: string };
      }) => {
        if (body.outcome === 'requoted' && body.quote) quotes.push(body.quote.quoteId);
        const c = body.conversion;
        if (body.outcome !== 'converted' || !c || converted.has(c.id)) return;
        converted.add(c.id);
        expected.set(c.from, (expected.get(c.from) ?? 0n) - BigInt(c.amountMinor));
        expected.set(c.to, (expected.get(c.to) ?? 0n) + BigInt(c.receiveMinor));
      };
      const accept = async (quoteId: string) => {
        const res = await convert.app.inject({ method: 'POST', url: `/api/convert/quotes/${quoteId}/accept`, headers });
        if (res.statusCode === 200) record(res.json());
        else
          expect(['INSUFFICIENT_BALANCE', 'CONVERT_AMOUNT_OUT_OF_RANGE', 'LIQUIDITY_SHORT']).toContain(res.json().code);
      };
      const quote = async (from: CoinCode, to: CoinCode, permille: number) => {
        const held = expected.get(from) ?? 0n;
        let amount = (held * BigInt(permille)) / 1000n;
        // A stable pair into fewer decimals takes whole target units only.
        const drop = coinDecimals(from) - coinDecimals(to);
        if (isStablePair(from, to) && drop > 0) amount -= amount % 10n ** BigInt(drop);
        if (amount <= 0n) return undefined;
        const res = await convert.app.inject({
          method: 'POST',
          url: '/api/convert/quotes',
          headers,
          payload: { from, to, amountMinor: amount.toString() },
        });
        if (res.statusCode !== 200) {
          expect(res.json().code).toBe('CONVERT_AMOUNT_OUT_OF_RANGE');
          return undefined;
        }
        quotes.push(res.json().quoteId);
        return res.json().quoteId as string;
      };

      for (const c of commands) {
        if (c.type === 'wait') {
          convert.clock.advance(c.ms);
          await convert.prices.refresh();
        } else if (c.type === 'quoteOnly') {
          await quote(c.from, c.to, c.permille);
        } else if (c.type === 'acceptOld') {
          const id = quotes[c.pick % Math.max(quotes.length, 1)];
          if (id) await accept(id);
        } else {
          const id = await quote(c.from, c.to, c.permille);
          if (id) await Promise.all(Array.from({ length: c.accepts }, () => accept(id)));
        }
      }

      for (const asset of coinCodes) {
        expect(await balanceOf(database.db, 'user_available', user, asset)).toBe(expected.get(asset));
      }
      expect(await externalTotals()).toEqual(external);
      expect((await reconcile(database.db)).ok).toBe(true);
    }),
    { numRuns: 30 },
  );

  // Every conversion ever made rounded against the user.
  const rows = await database.db.selectFrom('conversions').selectAll().execute();
  expect(rows.length).toBeGreaterThan(0);
  for (const r of rows) {
    const amount = BigInt(r.amount_minor);
    const fee = BigInt(r.fee_minor);
    const receive = BigInt(r.receive_minor);
    const fromUnit = 10n ** BigInt(coinDecimals(r.from_asset));
    const toUnit = 10n ** BigInt(coinDecimals(r.to_asset));
    const [num, den] = [BigInt(r.rate_num), BigInt(r.rate_den)];
    if (isStablePair(r.from_asset, r.to_asset)) {
      expect(fee).toBe(0n);
      expect(receive * fromUnit).toBe(amount * toUnit);
    } else {
      expect(fee * 10_000n).toBeGreaterThanOrEqual(amount * FEE_BPS);
      expect((fee - 1n) * 10_000n).toBeLessThan(amount * FEE_BPS);
      const exact = (amount - fee) * num * toUnit; // receive = exact / (den * fromUnit), floored
      expect(receive * den * fromUnit).toBeLessThanOrEqual(exact);
      expect((receive + 1n) * den * fromUnit).toBeGreaterThan(exact);
    }
  }
}, 240_000);

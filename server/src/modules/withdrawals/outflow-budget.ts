import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { type CoinCode, coinCodes, coinDecimals } from '../catalogue/catalogue.ts';
import { PriceUnavailableError } from '../prices/errors.ts';
import type { Rational } from '../prices/rational.ts';
import type { PriceService } from '../prices/service.ts';
import { AUTO_REVIEW_WINDOW_MS } from './review-policy.ts';

/**
 * One 24-hour review budget for everything that leaves an account, in one currency (issue 38 item 2).
 * A taken-over account could send its coins to mule accounts (each withdrawing under its own limits),
 * or convert first to spread the value over every coin's own limit: so withdrawals, sends and sells of
 * every coin count together, each valued in USD when placed (cents, rounded up, stored on its row).
 *
 * Above the budget a withdrawal waits for an operator (in_review); a send or sell, which has no review
 * step, is refused with OUTFLOW_REVIEW_LIMIT.
 *
 * Without a fresh USD price (a stale feed) the last price the feed gave stands, plus half (the price
 * may have risen since). With none at all (no feed since start, a coin no longer in the catalogue)
 * the value is unknown: a send or sell is refused (PRICE_UNAVAILABLE), a withdrawal waits for review.
 * A missing price never makes an outflow cheap.
 */
export const OUTFLOW_BUDGET_USD_CENTS_DEFAULT = 1_000_000n; // $10,000 a day
/** The last known price counts this much more (3/2): it may be hours old in a rising market. */
const STALE_PRICE_MARGIN = { num: 3n, den: 2n };

type Db = Kysely<Database>;

/** What the budget reads prices from: the price cache (prices/service.ts). */
export type OutflowPrices = Pick<PriceService, 'price'> & Partial<Pick<PriceService, 'lastKnown'>>;

export interface OutflowBudget {
  /** USD cents, rounded up, of `amountMinor` of `coin` now; null when it cannot be valued. */
  valueUsdCents(coin: CoinCode, amountMinor: bigint): bigint | null;
  readonly budgetUsdCents: bigint;
}

export function createOutflowBudget(options: { prices: OutflowPrices | null; budgetUsdCents?: bigint }): OutflowBudget {
  const budgetUsdCents = options.budgetUsdCents ?? OUTFLOW_BUDGET_USD_CENTS_DEFAULT;
  const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
  const usdOf = (coin: CoinCode): { usd: Rational; margin: boolean } | null => {
    const prices = options.prices;
    if (!prices) return null;
    try {
      return { usd: prices.price(coin, 'USD'), margin: false };
    } catch (err) {
      if (!(err instanceof PriceUnavailableError)) throw err;
    }
    const last = prices.lastKnown?.(coin, 'USD') ?? null;
    return last ? { usd: last, margin: true } : null;
  };
  return {
    budgetUsdCents,
    valueUsdCents(coin, amountMinor) {
      if (amountMinor <= 0n) return 0n;
      // A coin taken out of the catalogue (rows of it may remain): no decimals, no price.
      if (!(coinCodes as readonly string[]).includes(coin)) return null;
      const found = usdOf(coin);
      if (!found) return null;
      const m = found.margin ? STALE_PRICE_MARGIN : { num: 1n, den: 1n };
      return ceilDiv(
        amountMinor * found.usd.num * 100n * m.num,
        found.usd.den * 10n ** BigInt(coinDecimals(coin)) * m.den,
      );
    },
  };
}

/**
 * Serialises one user's outflows (withdrawals and sends) so each budget sum sees every earlier one.
 * Same key as before sends counted, so a withdrawal and a send of one user never pass it together.
 */
export async function lockOutflows(trx: Transaction<Database>, userId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`withdraw:${userId}`}))`.execute(trx);
}

/**
 * What the user moved out in the window ending `at`, in USD cents (null when a row without a stored
 * value cannot be valued now): withdrawals (not rejected or
 * failed; not an exchange order's payout or refund, which is not the user's balance leaving), sends, and sells still pending (no payout withdrawal yet; once paid out, their withdrawal
 * counts instead). Rows without a stored value (placed before migration 0067) are valued now.
 */
export async function outflowSpentUsdCents(
  db: Db,
  budget: OutflowBudget,
  userId: string,
  at: Date,
): Promise<bigint | null> {
  const since = new Date(at.getTime() - AUTO_REVIEW_WINDOW_MS);
  const { rows } = await sql<{ coin: CoinCode; valued: string | null; unvalued: string | null }>`
    select coin, sum(value_usd_cents)::text as valued,
           sum(case when value_usd_cents is null then amount_minor end)::text as unvalued
    from (
      select coin, amount_minor, value_usd_cents from withdrawals
      where user_id = ${userId} and created_at > ${since} and state not in ('review_rejected', 'transfer_failed')
        and origin <> 'exchange'
      union all
      select coin, amount_minor, value_usd_cents from sends where from_user_id = ${userId} and created_at > ${since}
      union all
      select coin, crypto_amount_minor + network_fee_minor, value_usd_cents from ramp_orders
      where user_id = ${userId} and side = 'sell' and state = 'pending' and withdrawal_id is null
        and created_at > ${since}
    ) o
    group by coin`.execute(db);
  let total = 0n;
  for (const r of rows) {
    const unvalued = budget.valueUsdCents(r.coin, BigInt(r.unvalued ?? '0'));
    // An earlier outflow that cannot be valued now: what is left of the budget is unknown.
    if (unvalued === null) return null;
    total += BigInt(r.valued ?? '0') + unvalued;
  }
  return total;
}

/**
 * For an outflow with no review step (a send, a sell): takes the user's outflow lock, then refuses
 * (OUTFLOW_REVIEW_LIMIT, nothing changed) when `valueUsdCents` more would take the day over the
 * budget, or (PRICE_UNAVAILABLE) when it or an earlier outflow of the day cannot be valued. Runs in the transaction that places the outflow, so the next one's sum sees it.
 */
export async function assertWithinOutflowBudget(
  trx: Transaction<Database>,
  budget: OutflowBudget,
  userId: string,
  valueUsdCents: bigint | null,
  at: Date,
): Promise<bigint> {
  if (valueUsdCents === null) throw priceUnavailable();
  await lockOutflows(trx, userId);
  const spent = await outflowSpentUsdCents(trx, budget, userId, at);
  if (spent === null) throw priceUnavailable();
  if (spent + valueUsdCents <= budget.budgetUsdCents) return valueUsdCents;
  throw new AppError('OUTFLOW_REVIEW_LIMIT', 'Above the 24-hour outflow limit: withdraw instead, or wait', {
    details: { limit: Number(budget.budgetUsdCents / 100n) },
  });
}

const priceUnavailable = () =>
  new PriceUnavailableError('No USD price to weigh this against the 24-hour outflow limit: try again later');

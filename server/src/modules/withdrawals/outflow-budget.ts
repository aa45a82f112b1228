import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { type CoinCode, coinDecimals } from '../catalogue/catalogue.ts';
import { PriceUnavailableError } from '../prices/errors.ts';
import type { PriceService } from '../prices/service.ts';
import { AUTO_REVIEW_WINDOW_MS, type AutoReviewLimits } from './review-policy.ts';

/**
 * One 24-hour review budget for everything that leaves an account, in one currency (issue 38 item 2).
 * A taken-over account could send its coins to mule accounts (each withdrawing under its own limits),
 * or convert first to spread the value over every coin's own limit: so withdrawals and sends of every
 * coin count together, each valued in USD when placed (cents, rounded up, stored on its row).
 *
 * Above the budget a withdrawal waits for an operator (in_review); a send, which has no review step
 * (it is one instant ledger transfer), is refused with OUTFLOW_REVIEW_LIMIT.
 *
 * When no fresh USD price exists (no price source, a stale feed), a coin is valued by its share of the
 * per-coin auto-review limit (amount / limit x budget): the budget then still binds, as the per-coin
 * limits did before, and a missing price never makes an outflow free.
 */
export const OUTFLOW_BUDGET_USD_CENTS_DEFAULT = 1_000_000n; // $10,000 a day

type Db = Kysely<Database> | Transaction<Database>;

export interface OutflowBudget {
  /** USD cents, rounded up, of `amountMinor` of `coin` now. */
  valueUsdCents(coin: CoinCode, amountMinor: bigint): bigint;
  readonly budgetUsdCents: bigint;
}

export function createOutflowBudget(options: {
  prices: Pick<PriceService, 'price'> | null;
  limits: AutoReviewLimits;
  budgetUsdCents?: bigint;
}): OutflowBudget {
  const budgetUsdCents = options.budgetUsdCents ?? OUTFLOW_BUDGET_USD_CENTS_DEFAULT;
  const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
  return {
    budgetUsdCents,
    valueUsdCents(coin, amountMinor) {
      if (amountMinor <= 0n) return 0n;
      try {
        if (options.prices) {
          const usd = options.prices.price(coin, 'USD');
          return ceilDiv(amountMinor * usd.num * 100n, usd.den * 10n ** BigInt(coinDecimals(coin)));
        }
      } catch (err) {
        if (!(err instanceof PriceUnavailableError)) throw err;
      }
      const limit = options.limits[coin];
      // A coin whose limit is 0 (every withdrawal reviewed) weighs more than the whole budget.
      if (limit <= 0n) return budgetUsdCents + 1n;
      return ceilDiv(amountMinor * budgetUsdCents, limit);
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
 * What the user moved out in the window ending `at`, in USD cents: withdrawals (not rejected or
 * failed; not an exchange order's payout or refund, which is not the user's balance leaving), sends, and sells still pending (no payout withdrawal yet; once paid out, their withdrawal
 * counts instead). Rows without a stored value (placed before migration 0067) are valued now.
 */
export async function outflowSpentUsdCents(db: Db, budget: OutflowBudget, userId: string, at: Date): Promise<bigint> {
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
  for (const r of rows) total += BigInt(r.valued ?? '0') + budget.valueUsdCents(r.coin, BigInt(r.unvalued ?? '0'));
  return total;
}

/**
 * For an outflow with no review step (a send, a sell): takes the user's outflow lock, then refuses
 * (OUTFLOW_REVIEW_LIMIT, nothing changed) when `valueUsdCents` more would take the day over the
 * budget. Runs in the transaction that places the outflow, so the next one's sum sees it.
 */
export async function assertWithinOutflowBudget(
  trx: Transaction<Database>,
  budget: OutflowBudget,
  userId: string,
  valueUsdCents: bigint,
  at: Date,
): Promise<void> {
  await lockOutflows(trx, userId);
  const spent = await outflowSpentUsdCents(trx, budget, userId, at);
  if (spent + valueUsdCents <= budget.budgetUsdCents) return;
  throw new AppError('OUTFLOW_REVIEW_LIMIT', 'Above the 24-hour outflow limit: withdraw instead, or wait', {
    details: { limit: Number(budget.budgetUsdCents / 100n) },
  });
}

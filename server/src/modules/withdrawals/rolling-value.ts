import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { CoinCode } from '../catalogue/catalogue.ts';
import type { WithdrawalRow } from './repository.ts';

/**
 * Four eyes against splitting (review-32wd M3). The rule's purpose is that no single operator lets more
 * than the second-approval value leave for one user, so a withdrawal is weighed together with the same
 * user's other withdrawals of the last 24 hours that are approved, paid or still waiting (in review or
 * awaiting a second approval), whatever their coin, in USD at the review-time price. All coins, because
 * the threshold is a USD value and splitting across coins is as easy as within one; waiting ones too,
 * because one operator approving them one after another is the split being weighed, and counting them
 * whatever their order makes the answer independent of which one is decided first.
 * Rejected and failed ones moved nothing and are left out. Fail closed: an earlier withdrawal with no
 * fresh price, or more of them than the bound, values the total as unknown (null).
 */
export const ROLLING_WINDOW_MS = 24 * 3_600_000;
const ROLLING_ROWS_MAX = 200;

export async function rollingOthersUsdCents(
  db: Kysely<Database>,
  row: Pick<WithdrawalRow, 'id' | 'user_id'>,
  valuer: (coin: CoinCode, amountMinor: bigint) => bigint | null,
  at: Date,
): Promise<bigint | null> {
  const others = await db
    .selectFrom('withdrawals')
    .select(['coin', 'amount_minor'])
    .where('user_id', '=', row.user_id)
    .where('id', '<>', row.id)
    .where('created_at', '>=', new Date(at.getTime() - ROLLING_WINDOW_MS))
    .where(sql<boolean>`state not in ('review_rejected', 'transfer_failed')`)
    .limit(ROLLING_ROWS_MAX + 1)
    .execute();
  if (others.length > ROLLING_ROWS_MAX) return null;
  let total = 0n;
  for (const o of others) {
    const value = valuer(o.coin as CoinCode, BigInt(o.amount_minor));
    if (value === null) return null;
    total += value;
  }
  return total;
}

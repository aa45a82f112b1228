import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { coinDecimals, isCoinCode, minor } from '../catalogue/catalogue.ts';
import { fundRewards } from '../ledger/operations.ts';

export const rewardsUsage =
  'usage: npm run ops -- rewards fund <asset> <amount> <reference>   (the reference makes a repeat harmless)\n' +
  '       npm run ops -- rewards pool';

/** Largest single funding: a typo of extra zeros is refused rather than booked. */
const FUND_MAX_UNITS = 10_000_000n;

/**
 * `npm run ops -- rewards ...`: fund the rewards pool (system_external -> system_rewards, one ledger
 * transfer keyed by the operator's reference, so running it twice books once) and show what it holds.
 * In production this is the only way the pool gets money; bookings wait while it is short.
 */
export async function runRewardsCommand(
  db: Kysely<Database>,
  args: readonly string[],
  out: (line: string) => void,
  now: () => Date = () => new Date(),
): Promise<number> {
  const [sub, asset, amount, reference] = args;
  if (sub === 'pool') {
    const rows = await db
      .selectFrom('ledger_accounts')
      .select(['asset', 'balance'])
      .where('kind', '=', 'system_rewards')
      .orderBy('asset')
      .execute();
    for (const r of rows) out(`${r.asset}\t${r.balance}`);
    if (rows.length === 0) out('the rewards pool is empty');
    return 0;
  }
  if (sub !== 'fund' || !asset || !amount || !reference) {
    out(rewardsUsage);
    return 2;
  }
  if (!isCoinCode(asset)) {
    out(`unknown asset ${asset}`);
    return 1;
  }
  if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(reference)) {
    out('the reference is 1-64 letters, digits or _.:-');
    return 1;
  }
  let amountMinor: bigint;
  try {
    amountMinor = minor(amount, coinDecimals(asset));
  } catch {
    out(`not an amount of ${asset}: ${amount}`);
    return 1;
  }
  if (amountMinor <= 0n || amountMinor > FUND_MAX_UNITS * 10n ** BigInt(coinDecimals(asset))) {
    out(`the amount must be above 0 and at most ${FUND_MAX_UNITS} ${asset}`);
    return 1;
  }
  const posted = await db
    .transaction()
    .execute((trx) =>
      fundRewards(
        trx,
        { idempotencyKey: `rewards:fund:${reference}`, asset, amountMinor, metadata: { reference } },
        now(),
      ),
    );
  out(
    posted.created ? `funded ${amount} ${asset} (transfer ${posted.transfer.id})` : `already funded under ${reference}`,
  );
  return 0;
}

import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { CoinCode } from '../catalogue/catalogue.ts';
import { InsufficientBalanceError } from '../ledger/errors.ts';
import { type AccountRef, assert, type Transfer } from '../ledger/model.ts';
import { postTransferToAccounts, type RefLeg } from '../ledger/post-transfer.ts';
import { LiquidityShortError } from './errors.ts';

type Trx = Transaction<Database>;

/**
 * A conversion on the ledger: TWO linked transfers in the caller's transaction, both keyed by the
 * quote id (so a retried accept posts nothing new):
 *
 *   give (asset from): user_available -amount, system_liquidity +(amount - fee), system_fees +fee
 *   get  (asset to):   system_liquidity -receive, user_available +receive
 *
 * Each transfer sums to zero in its own asset, so the per-asset totals stay 0 and reconcile holds.
 * The two are posted in ascending asset order: every conversion locks accounts in the order
 * (asset, account id), so a BTC->ETH and an ETH->BTC conversion never deadlock.
 */
export interface ConversionPosting {
  quoteId: string;
  userId: string;
  from: CoinCode;
  to: CoinCode;
  amountMinor: bigint;
  feeMinor: bigint;
  receiveMinor: bigint;
}

export interface PostedConversion {
  give: Transfer;
  get: Transfer;
  /** False when both transfers were already posted under this quote id. */
  created: boolean;
}

export const giveKey = (quoteId: string) => `convert:${quoteId}:give`;
export const getKey = (quoteId: string) => `convert:${quoteId}:get`;

export async function postConversion(trx: Trx, c: ConversionPosting, now: Date): Promise<PostedConversion> {
  assert(c.from !== c.to, 'conversion between two coins');
  assert(c.amountMinor > 0n && c.receiveMinor > 0n, 'conversion amounts are positive');
  assert(c.feeMinor >= 0n && c.feeMinor < c.amountMinor, '0 <= fee < amount');
  const account = (kind: AccountRef['kind'], asset: CoinCode): AccountRef => ({
    kind,
    userId: kind.startsWith('user_') ? c.userId : null,
    asset,
  });
  const giveLegs: RefLeg[] = [
    { account: account('user_available', c.from), amountMinor: -c.amountMinor },
    { account: account('system_liquidity', c.from), amountMinor: c.amountMinor - c.feeMinor },
  ];
  if (c.feeMinor > 0n) giveLegs.push({ account: account('system_fees', c.from), amountMinor: c.feeMinor });
  const getLegs: RefLeg[] = [
    { account: account('system_liquidity', c.to), amountMinor: -c.receiveMinor },
    { account: account('user_available', c.to), amountMinor: c.receiveMinor },
  ];
  const metadata = { quoteId: c.quoteId, from: c.from, to: c.to };
  // Each posting is one round trip: the ledger resolves (and creates) the accounts in the same statement.
  const give = () =>
    postTransferToAccounts(trx, { idempotencyKey: giveKey(c.quoteId), kind: 'convert', legs: giveLegs, metadata }, now);
  const get = async () => {
    try {
      return await postTransferToAccounts(
        trx,
        { idempotencyKey: getKey(c.quoteId), kind: 'convert', legs: getLegs, metadata },
        now,
      );
    } catch (err) {
      // The only account this transfer debits is the liquidity account.
      if (err instanceof InsufficientBalanceError) throw new LiquidityShortError(c.to);
      throw err;
    }
  };
  let giveResult: Awaited<ReturnType<typeof give>>;
  let getResult: Awaited<ReturnType<typeof get>>;
  if (c.from < c.to) {
    giveResult = await give();
    getResult = await get();
  } else {
    getResult = await get();
    giveResult = await give();
  }
  // Linked: both new or both replays; anything else means a half-posted conversion (a bug).
  assert(giveResult.created === getResult.created, 'the two transfers of a conversion are posted together');
  return { give: giveResult.transfer, get: getResult.transfer, created: giveResult.created };
}

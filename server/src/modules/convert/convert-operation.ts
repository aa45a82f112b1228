import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { CoinCode } from '../catalogue/catalogue.ts';
import { InsufficientBalanceError } from '../ledger/errors.ts';
import { type AccountRef, assert, type Leg, type Transfer } from '../ledger/model.ts';
import { postTransfer } from '../ledger/post-transfer.ts';
import { ensureAccount } from '../ledger/repository.ts';
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

const refOrder = (r: AccountRef) => `${r.kind}|${r.userId ?? ''}|${r.asset}`;

/** Same creation order as the ledger's own operations (sorted refs), so first uses never deadlock. */
async function resolve(trx: Trx, refs: readonly AccountRef[]): Promise<string[]> {
  const order = refs.map((ref, i) => ({ ref, i })).sort((a, b) => (refOrder(a.ref) < refOrder(b.ref) ? -1 : 1));
  const ids: string[] = new Array(refs.length);
  for (const { ref, i } of order) ids[i] = await ensureAccount(trx, ref);
  return ids;
}

export const giveKey = (quoteId: string) => `convert:${quoteId}:give`;
export const getKey = (quoteId: string) => `convert:${quoteId}:get`;

export async function postConversion(trx: Trx, c: ConversionPosting, now: Date): Promise<PostedConversion> {
  assert(c.from !== c.to, 'conversion between two coins');
  assert(c.amountMinor > 0n && c.receiveMinor > 0n, 'conversion amounts are positive');
  assert(c.feeMinor >= 0n && c.feeMinor < c.amountMinor, '0 <= fee < amount');
  const [userFrom, liquidityFrom, feesFrom, liquidityTo, userTo] = await resolve(trx, [
    { kind: 'user_available', userId: c.userId, asset: c.from },
    { kind: 'system_liquidity', userId: null, asset: c.from },
    { kind: 'system_fees', userId: null, asset: c.from },
    { kind: 'system_liquidity', userId: null, asset: c.to },
    { kind: 'user_available', userId: c.userId, asset: c.to },
  ]);
  assert(userFrom && liquidityFrom && feesFrom && liquidityTo && userTo, 'all accounts resolved');
  const giveLegs: Leg[] = [
    { accountId: userFrom, amountMinor: -c.amountMinor },
    { accountId: liquidityFrom, amountMinor: c.amountMinor - c.feeMinor },
  ];
  if (c.feeMinor > 0n) giveLegs.push({ accountId: feesFrom, amountMinor: c.feeMinor });
  const getLegs: Leg[] = [
    { accountId: liquidityTo, amountMinor: -c.receiveMinor },
    { accountId: userTo, amountMinor: c.receiveMinor },
  ];
  const metadata = { quoteId: c.quoteId, from: c.from, to: c.to };
  const give = () =>
    postTransfer(trx, { idempotencyKey: giveKey(c.quoteId), kind: 'convert', legs: giveLegs, metadata }, now);
  const get = async () => {
    try {
      return await postTransfer(
        trx,
        { idempotencyKey: getKey(c.quoteId), kind: 'convert', legs: getLegs, metadata },
        now,
      );
    } catch (err) {
      if (err instanceof InsufficientBalanceError && err.accountId !== userTo) throw new LiquidityShortError(c.to);
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

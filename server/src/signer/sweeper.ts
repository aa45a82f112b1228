import type { EvmNetwork } from '../modules/catalogue/chains-file.ts';
import { bookDepositCustody, openHotWallet, openingBlock, unbookedDeposits } from '../modules/custody/custody-book.ts';
import { chainBalances } from '../modules/custody/custody-check.ts';
import { bookOrderCustody, unbookedOrderCoins } from '../modules/custody/order-custody.ts';
import { lockHotWallet } from './repository.ts';
import type { SignerContext, TickResult } from './signer-types.ts';
import { followUpSweeps } from './sweep-follow-up.ts';
import { planSweeps } from './sweep-plan.ts';

/**
 * Deposit sweeps, one round per `intervalMs` inside the signer's tick (so under its lease and fence):
 * 1. open the custody book of each hot wallet once (balances read on chain at one block);
 * 2. book the custody of deposits credited before the book existed, and of exchange order coins booked
 *    before order addresses joined the sweeps (a bounded page per tick);
 * 3. follow recorded top-ups and sweeps (sweep-follow-up.ts): settle the mined ones in the custody book,
 *    replace the stuck ones with a higher fee (sweep-replace.ts), rebroadcast the rest;
 * 4. plan new ones (sweep-plan.ts): record, then broadcast.
 */

/** Deposits booked into custody per tick (a bound on a tick's work). */
const BACKFILL_LIMIT = 200;

export function createSweeper(ctx: SignerContext, intervalMs: number) {
  let lastRoundAt = Number.NEGATIVE_INFINITY;
  const opened = new Set<EvmNetwork>();
  return {
    async tick(result: TickResult): Promise<void> {
      const networks = Object.keys(ctx.options.chains()) as EvmNetwork[];
      for (const network of networks)
        if (!opened.has(network) && (await ensureOpening(ctx, network))) opened.add(network);
      await backfillDeposits(ctx);
      for (const network of networks) await followUpSweeps(ctx, network, result);
      if (Date.now() - lastRoundAt < intervalMs) return;
      lastRoundAt = Date.now();
      for (const network of networks) result.sweeps += await planSweeps(ctx, network);
    },
  };
}

/** Opens the network's hot wallet in the custody book unless it is open; true once it is. */
async function ensureOpening(ctx: SignerContext, network: EvmNetwork): Promise<boolean> {
  const client = ctx.clientFor(network);
  const chain = ctx.options.chains()[network];
  if (!client || !chain) return false;
  if ((await openingBlock(ctx.db, network)) !== undefined) return true;
  // Every transaction this key sends later is mined after `block`, and only those are booked.
  const block = await client.getBlockNumber({ cacheTime: 0 });
  const balances = await chainBalances(client, chain, network, [ctx.account.address], block);
  const opened = await ctx.db.transaction().execute(async (trx) => {
    await ctx.options.fence?.(trx);
    await lockHotWallet(trx, chain.chainId, ctx.account.address);
    return openHotWallet(trx, { network, address: ctx.account.address, block, balances }, ctx.now());
  });
  if (opened) ctx.log('custody book opened', { network, block: block.toString() });
  return true;
}

async function backfillDeposits(ctx: SignerContext): Promise<void> {
  const page = await unbookedDeposits(ctx.db, BACKFILL_LIMIT);
  for (const d of page) {
    await ctx.db.transaction().execute(async (trx) => {
      await ctx.options.fence?.(trx);
      await bookDepositCustody(trx, d, ctx.now());
    });
  }
  if (page.length > 0) ctx.log('earlier deposits booked into custody', { deposits: page.length });
  // Exchange order coins booked before order addresses joined the sweeps (migration 0072).
  const orders = await unbookedOrderCoins(ctx.db, BACKFILL_LIMIT);
  for (const c of orders) {
    await ctx.db.transaction().execute(async (trx) => {
      await ctx.options.fence?.(trx);
      await bookOrderCustody(trx, c, ctx.now());
    });
  }
  if (orders.length > 0) ctx.log('earlier exchange order coins booked into custody', { bookings: orders.length });
}

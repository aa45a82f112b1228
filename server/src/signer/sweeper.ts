import type { Hex } from 'viem';
import { type CoinCode, nativeCoinOf } from '../modules/catalogue/catalogue.ts';
import type { EvmNetwork } from '../modules/catalogue/chains-file.ts';
import {
  bookDepositCustody,
  type CustodyDelta,
  chainAsset,
  gas,
  move,
  openHotWallet,
  openingBlock,
  postCustody,
  unbookedDeposits,
} from '../modules/custody/custody-book.ts';
import { chainBalances } from '../modules/custody/custody-check.ts';
import {
  markSweepMined,
  openSweeps,
  type SweepRow,
  setSweepCustodyTransfer,
} from '../modules/custody/sweeps-repository.ts';
import { lockHotWallet } from './repository.ts';
import type { SignerContext, TickResult } from './signer-types.ts';
import { broadcastSweep, planSweeps } from './sweep-plan.ts';

/**
 * Deposit sweeps, one round per `intervalMs` inside the signer's tick (so under its lease and fence):
 * 1. open the custody book of each hot wallet once (balances read on chain at one block);
 * 2. book the custody of deposits credited before the book existed (a bounded page per tick);
 * 3. follow recorded top-ups and sweeps: settle the mined ones in the custody book, rebroadcast the rest;
 * 4. plan new ones (sweep-plan.ts): record, then broadcast.
 */

/** Deposits booked into custody per tick, and recorded rows followed per network (bounds on a tick's work). */
const BACKFILL_LIMIT = 200;
const FOLLOW_UP_LIMIT = 50;

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
}

async function followUpSweeps(ctx: SignerContext, network: EvmNetwork, result: TickResult): Promise<void> {
  const client = ctx.clientFor(network);
  if (!client) return;
  for (const row of await openSweeps(ctx.db, network, FOLLOW_UP_LIMIT)) {
    const receipt = await client.getTransactionReceipt({ hash: row.tx_hash as Hex }).catch(() => undefined);
    if (!receipt) {
      await broadcastSweep(ctx, client, row);
      continue;
    }
    const ok = receipt.status === 'success';
    const feeWei = receipt.gasUsed * receipt.effectiveGasPrice;
    if (await settleSweep(ctx, row, { ok, blockNumber: receipt.blockNumber, feeWei })) result.sweepsSettled += 1;
  }
}

/** Custody changes of a mined top-up or sweep (a reverted one moved only its gas). */
function sweepDeltas(row: SweepRow, ok: boolean, feeWei: bigint): CustodyDelta[] {
  const network = row.network as EvmNetwork;
  const asset = chainAsset(row.coin as CoinCode, network);
  const amount = ok ? BigInt(row.chain_amount) : 0n;
  if (row.kind === 'gas_topup')
    return [
      ...move('system_hot_wallet', 'system_deposit_addresses', asset, amount),
      ...gas('system_hot_wallet', network, feeWei),
    ];
  return [
    ...move('system_deposit_addresses', 'system_hot_wallet', asset, amount),
    ...gas('system_deposit_addresses', network, feeWei),
  ];
}

async function settleSweep(
  ctx: SignerContext,
  row: SweepRow,
  outcome: { ok: boolean; blockNumber: bigint; feeWei: bigint },
): Promise<boolean> {
  const done = await ctx.db.transaction().execute(async (trx) => {
    await ctx.options.fence?.(trx);
    const at = ctx.now();
    if (!(await markSweepMined(trx, row.id, outcome, at))) return false;
    const posted = await postCustody(
      trx,
      `custody:sweep:${row.id}`,
      sweepDeltas(row, outcome.ok, outcome.feeWei),
      { sweepId: row.id, kind: row.kind, txHash: row.tx_hash, block: outcome.blockNumber.toString() },
      at,
    );
    const first = posted[0];
    if (first) await setSweepCustodyTransfer(trx, row.id, first.transfer.id);
    return true;
  });
  if (done) {
    const native = nativeCoinOf(row.network as EvmNetwork);
    ctx.log(outcome.ok ? `${row.kind} mined` : `${row.kind} reverted`, {
      sweepId: row.id,
      address: row.deposit_address,
      coin: row.coin,
      chainAmount: row.chain_amount,
      [`fee${native}Wei`]: outcome.feeWei.toString(),
    });
  }
  return done;
}

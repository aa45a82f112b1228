import type { Hex, PublicClient } from 'viem';
import { type CoinCode, nativeCoinOf } from '../modules/catalogue/catalogue.ts';
import type { EvmNetwork } from '../modules/catalogue/chains-file.ts';
import {
  type CustodyDelta,
  chainAsset,
  gas,
  move,
  openingBlock,
  postCustody,
} from '../modules/custody/custody-book.ts';
import { sweepAttemptsOf } from '../modules/custody/sweep-attempts.ts';
import {
  type MinedSweep,
  markSweepMined,
  openSweeps,
  type SweepRow,
  setSweepCustodyTransfer,
} from '../modules/custody/sweeps-repository.ts';
import { LeaseLostError } from '../modules/leases/lease.ts';
import { receiptConfirmations } from './receipt-confirmations.ts';
import type { SignerContext, TickResult } from './signer-types.ts';
import { replacementDue, replaceSweep } from './sweep-replace.ts';
import { type SweepTry, sendTry, triesOf } from './sweep-tries.ts';

/**
 * Recorded top-ups and sweeps not mined yet, each tick: settle by a receipt of any of its attempts (same
 * nonce: at most one is mined) once it has the network's confirmations, as withdrawals are
 * (signer-settle.ts): until then a reorg can drop it and another attempt, of another value and fee, land
 * on the other branch, so nothing is settled, replaced or rebroadcast; a receipt a reorg removed leaves
 * the row open and its attempts are sent again. Without a receipt: replace the newest with a higher fee
 * when it is due; then rebroadcast the newest (and, when a node refuses it, the older ones, so one stays
 * in the mempool).
 */

/** Recorded rows followed per network and tick (a bound on a tick's work). */
const FOLLOW_UP_LIMIT = 50;

export async function followUpSweeps(ctx: SignerContext, network: EvmNetwork, result: TickResult): Promise<void> {
  const client = ctx.clientFor(network);
  if (!client) return;
  const rows = await openSweeps(ctx.db, network, FOLLOW_UP_LIMIT);
  const replacements = await sweepAttemptsOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  for (const row of rows) {
    // One row's trouble (a settlement the book refuses, an RPC error) must not hold up the others'.
    try {
      await followUpOne(ctx, client, row, triesOf(row, replacements.get(row.id) ?? []), result);
    } catch (err) {
      if (err instanceof LeaseLostError) throw err;
      ctx.log('ALERT: sweep follow-up failed; will retry', {
        sweepId: row.id,
        network,
        kind: row.kind,
        address: row.deposit_address,
        error: String((err as Error).message ?? err),
      });
    }
  }
}

async function followUpOne(
  ctx: SignerContext,
  client: PublicClient,
  row: SweepRow,
  tries: SweepTry[],
  result: TickResult,
) {
  const mined = await findMined(client, tries);
  if (mined) {
    const needed = ctx.options.confirmations?.(row.network as EvmNetwork) ?? 1;
    if (mined.confirmations < needed) result.sweepsAwaitingConfirmations += 1;
    else if (await settleSweep(ctx, row, mined)) result.sweepsSettled += 1;
    return;
  }
  const latest = tries[tries.length - 1];
  if (latest && replacementDue(ctx, latest)) {
    const next = await replaceSweep(ctx, client, row, latest);
    if (next) {
      tries.push(next);
      result.sweepsReplaced += 1;
    }
  }
  for (const t of [...tries].reverse()) if ((await sendTry(ctx, client, t)) !== 'failed') break;
}

/** The attempt with a receipt, newest first (the likeliest to be mined), with what it sent and paid. */
async function findMined(
  client: PublicClient,
  tries: readonly SweepTry[],
): Promise<(MinedSweep & { confirmations: number }) | undefined> {
  for (const t of [...tries].reverse()) {
    const receipt = await client.getTransactionReceipt({ hash: t.txHash as Hex }).catch(() => undefined);
    if (!receipt) continue;
    return {
      confirmations: await receiptConfirmations(client, receipt),
      ok: receipt.status === 'success',
      blockNumber: receipt.blockNumber,
      feeWei: receipt.gasUsed * receipt.effectiveGasPrice,
      txHash: t.txHash,
      chainAmount: t.chainAmount,
      gasPriceWei: t.gasPriceWei,
    };
  }
  return undefined;
}

/**
 * Custody changes of a mined top-up or sweep (a reverted one moved only its gas). The hot wallet's
 * side is booked only for a transaction mined after its opening block (as bookHotWalletOut does):
 * the opening balance, read on chain at that block, already has what was mined at or before it, so
 * there the world stands in for the hot wallet (a top-up's gas, paid by the hot wallet, is not booked).
 */
function sweepDeltas(row: SweepRow, mined: MinedSweep, hotBooked: boolean): CustodyDelta[] {
  const network = row.network as EvmNetwork;
  const asset = chainAsset(row.coin as CoinCode, network);
  const amount = mined.ok ? mined.chainAmount : 0n;
  const hot = hotBooked ? 'system_hot_wallet' : 'system_external';
  if (row.kind === 'gas_topup')
    return [
      ...move(hot, 'system_deposit_addresses', asset, amount),
      ...(hotBooked ? gas('system_hot_wallet', network, mined.feeWei) : []),
    ];
  return [
    ...move('system_deposit_addresses', hot, asset, amount),
    ...gas('system_deposit_addresses', network, mined.feeWei),
  ];
}

async function settleSweep(ctx: SignerContext, row: SweepRow, mined: MinedSweep): Promise<boolean> {
  const done = await ctx.db.transaction().execute(async (trx) => {
    await ctx.options.fence?.(trx);
    const at = ctx.now();
    if (!(await markSweepMined(trx, row.id, mined, at))) return false;
    const opened = await openingBlock(trx, row.network as EvmNetwork);
    const hotBooked = opened !== undefined && mined.blockNumber > opened;
    const posted = await postCustody(
      trx,
      `custody:sweep:${row.id}`,
      sweepDeltas(row, mined, hotBooked),
      { sweepId: row.id, kind: row.kind, txHash: mined.txHash, block: mined.blockNumber.toString() },
      at,
    );
    const first = posted[0];
    if (first) await setSweepCustodyTransfer(trx, row.id, first.transfer.id);
    return true;
  });
  if (done) {
    const native = nativeCoinOf(row.network as EvmNetwork);
    ctx.log(mined.ok ? `${row.kind} mined` : `${row.kind} reverted`, {
      sweepId: row.id,
      address: row.deposit_address,
      coin: row.coin,
      chainAmount: mined.chainAmount.toString(),
      txHash: mined.txHash,
      [`fee${native}Wei`]: mined.feeWei.toString(),
    });
  }
  return done;
}

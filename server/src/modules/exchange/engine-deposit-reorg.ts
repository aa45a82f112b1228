import { raiseChainAlert } from '../deposits/chain-alerts.ts';
import type { EngineContext, ObservedTransfer } from './engine-types.ts';
import type { OrderRow } from './repository.ts';
import { transitionOrder } from './transition.ts';

/**
 * How long after an order's deposit was booked its absence from the chain is alerted. Reorgs deeper
 * than the confirmations come within minutes. transfers() reads back 50,000 blocks (evm-deposits.ts
 * LOOKBACK_BLOCKS: about 10 hours of BSC blocks at 0.75 s), which a deposit booked late can outlive, so
 * the alert also asks the chain for the deposit's receipt (hasReceipt) before it is raised.
 */
export const DEPOSIT_REORG_WATCH_MS = 6 * 60 * 60 * 1000;

/**
 * Issue 37, item 9: the order's booked deposit (its ledger leg in is posted, deposit_confirmed_at set)
 * is not among the transfers the chain shows any more: a reorg removed it. An order still `exchanging`
 * (nothing paid yet) is suspended in the same transaction as its alert, so no payout leaves for coins
 * that are gone (review of issue 37, MED 2); an operator releases or fails it. Past that the coins left
 * (paid or refunded) and nothing is reversed automatically. Either way an operator is alerted in the
 * database (chain_alerts, one open per order), as the wallet's deep-reorg alert does for deposits.
 */
export async function alertIfDepositReorged(
  ctx: EngineContext,
  order: OrderRow,
  counted: ObservedTransfer | undefined,
): Promise<boolean> {
  if (counted !== undefined || order.deposit_confirmed_at === null || order.deposit_tx_hash === null) return false;
  const at = ctx.now();
  if (at.getTime() - order.deposit_confirmed_at.getTime() > DEPOSIT_REORG_WATCH_MS) return false;
  // Outside the look-back but still mined (a deposit booked long after its block): not a reorg.
  const { hasReceipt } = ctx.deposits;
  if (hasReceipt && (await hasReceipt({ network: order.send_network, txHash: order.deposit_tx_hash }))) return false;
  const hold = order.state === 'exchanging';
  const detail =
    `exchange order ${order.id} (${order.state}): its booked deposit ${order.deposit_tx_hash}` +
    ` (log ${order.deposit_log_index ?? 'first'}, ${order.deposit_amount_minor ?? '?'} ${order.send_coin})` +
    ' is no longer on the chain; ' +
    (hold
      ? 'the order was not paid yet and is suspended until an operator releases or fails it'
      : 'the order may already have paid out or refunded from it: check its payout');
  let raised = false;
  if (hold) {
    await ctx.step(order, async (trx) => {
      await transitionOrder(trx, order.id, 'suspended', {
        now: at,
        expectFrom: 'exchanging',
        reason: 'deposit_reorged',
      });
      raised = await raiseChainAlert(
        trx,
        { network: order.send_network, kind: 'exchange_deposit_reorged', dedupeKey: `order:${order.id}`, detail },
        at,
      );
    });
  } else {
    raised = await raiseChainAlert(
      ctx.db,
      { network: order.send_network, kind: 'exchange_deposit_reorged', dedupeKey: `order:${order.id}`, detail },
      at,
    );
  }
  if (raised) ctx.onError(new Error(`ALERT: ${detail}`), order.id);
  return raised;
}

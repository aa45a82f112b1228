import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { lockOrder, transitionOrder } from './repository.ts';
import { resolveSellAlerts } from './sell-alerts.ts';

/**
 * `npm run ops -- ramp alerts`, `... ramp resolve-refund <order id> --refund-tx <hash>`.
 *
 * A refund_pending sell (the provider failed it after our coins left) is closed by the provider's
 * on-chain refund, which the deposit watcher credits to the user like any deposit. The operator
 * names that deposit's transaction: the command checks it is a credited deposit of the same user,
 * coin and network, not already matched to another order (unique `refund_tx_hash`), and moves the
 * order to `refunded`. It posts nothing itself: the user was made whole by the deposit's credit, so
 * a ledger posting here would either pay twice or book coins custody does not hold. A refund the
 * provider made off chain is a case for the support process, not this command.
 * Returns the exit code: 0 done, 1 refused, 2 usage.
 */
export const rampUsage = 'usage: npm run ops -- ramp alerts | resolve-refund <order id> --refund-tx <0x hash>';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const txHash = /^0x[0-9a-f]{64}$/i;

export async function runRampCommand(
  db: Kysely<Database>,
  args: readonly string[],
  out: (line: string) => void,
  now: () => Date = () => new Date(),
): Promise<number> {
  const [sub, id] = args;
  if (sub === 'alerts') {
    const rows = await db
      .selectFrom('ramp_sell_alerts')
      .selectAll()
      .where('resolved_at', 'is', null)
      .orderBy('first_alerted_at')
      .limit(200)
      .execute();
    for (const r of rows) out([r.order_id, r.kind, r.first_alerted_at.toISOString(), `${r.alerts}x`].join('\t'));
    out(`${rows.length} open sell alert(s)`);
    return 0;
  }
  const i = args.indexOf('--refund-tx');
  const hash = i >= 0 ? args[i + 1] : undefined;
  if (sub !== 'resolve-refund' || !id || !uuid.test(id) || !hash || !txHash.test(hash)) {
    out(rampUsage);
    return 2;
  }
  const refusal = await db.transaction().execute(async (trx) => {
    const order = await lockOrder(trx, id);
    if (order?.side !== 'sell' || order.state !== 'refund_pending') return 'the order is not a refund_pending sell';
    const deposit = await trx
      .selectFrom('deposits')
      .select(['id', 'amount_minor'])
      .where('user_id', '=', order.user_id)
      .where('coin', '=', order.coin as never)
      .where('network', '=', order.network as never)
      .where('state', '=', 'successful')
      .where((eb) => eb(eb.fn('lower', ['tx_hash']), '=', hash.toLowerCase()))
      .executeTakeFirst();
    if (!deposit) return `no credited ${order.coin} deposit of the user on ${order.network} in ${hash}`;
    const used = await trx
      .selectFrom('ramp_orders')
      .select('id')
      .where('refund_tx_hash', '=', hash.toLowerCase())
      .executeTakeFirst();
    if (used) return `${hash} already closed order ${used.id}`;
    await transitionOrder(trx, order, 'refunded', {
      reason: 'refund_deposit_matched',
      patch: { refund_tx_hash: hash.toLowerCase() },
      now: now(),
    });
    await resolveSellAlerts(trx, order.id, `refunded by deposit ${hash} (${deposit.amount_minor})`, now());
    out(`ramp order ${order.id}: refunded (deposit ${deposit.id}, ${deposit.amount_minor} ${order.coin} credited)`);
    return null;
  });
  if (refusal) {
    out(`refused: ${refusal}`);
    return 1;
  }
  return 0;
}

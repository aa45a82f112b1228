import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { OPERATOR_REFUND } from './engine.ts';
import { findOrder, type OrderRow } from './repository.ts';
import { type ExchangeState, exchangeStates, isExchangeState } from './states.ts';
import { transitionOrder } from './transition.ts';

/**
 * Operator commands for exchange orders (`npm run ops -- exchange ...`):
 *
 *   exchange list [--state <state>]          orders in a state (default: suspended), oldest change first
 *   exchange suspend <id> [--reason <text>]  risk hold (from waiting, confirming or exchanging)
 *   exchange resolve <id> --to <state> [--reason <text>]
 *       release a suspended order: waiting (no deposit seen yet), confirming (deposit seen, not yet
 *       booked), exchanging (deposit booked: the engine settles and pays out), refunded (deposit
 *       booked: the engine refunds it to the refund address), failed (stop; nothing moves).
 *
 * Every change goes through transitionOrder (the state table, and the trigger in the database) and
 * lands in exchange_order_events with the operator's reason.
 */

const LIST_LIMIT = 200;
const REASON_MAX = 200;

export interface OpsResult {
  code: number;
  lines: string[];
}

function flag(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

function describe(order: OrderRow): string {
  return [
    order.id,
    order.state.padEnd(10),
    `${order.rate_type.padEnd(5)}`,
    `${order.send_amount_minor} ${order.send_coin}/${order.send_network} -> ${order.receive_coin}/${order.receive_network}`,
    `updated ${order.updated_at.toISOString()}`,
    order.state_reason ? `(${order.state_reason})` : '',
  ]
    .join('  ')
    .trimEnd();
}

/** Why an operator may not release `order` to `to`, or null when the data allows it. */
function releaseProblem(order: OrderRow, to: ExchangeState): string | null {
  const seen = order.deposit_tx_hash !== null;
  const booked = order.deposit_confirmed_at !== null;
  switch (to) {
    case 'waiting':
      return seen ? 'a deposit was already seen: resolve to confirming' : null;
    case 'confirming':
      if (!seen) return 'no deposit seen: resolve to waiting';
      return booked ? 'the deposit is already booked: resolve to exchanging or refunded' : null;
    case 'exchanging':
    case 'refunded':
      return booked ? null : 'the deposit is not booked yet: resolve to waiting or confirming';
    case 'failed':
      // Failing a booked deposit would keep the user's money and refund nothing: refund it instead.
      return booked ? 'the deposit is booked: resolve to refunded (failed would return nothing)' : null;
    default:
      return `a suspended order cannot be resolved to ${to}`;
  }
}

export async function runExchangeOps(
  db: Kysely<Database>,
  args: readonly string[],
  now: () => Date,
): Promise<OpsResult> {
  const [sub, id] = args;
  const usage = {
    code: 2,
    lines: [
      'usage: npm run ops -- exchange list [--state <state>] | suspend <id> [--reason <text>] | resolve <id> --to <state> [--reason <text>]',
    ],
  };
  const reason = (flag(args, 'reason') ?? '').slice(0, REASON_MAX);

  if (sub === 'list') {
    const state = flag(args, 'state') ?? 'suspended';
    if (!isExchangeState(state)) return { code: 2, lines: [`unknown state ${state} (${exchangeStates.join(', ')})`] };
    const rows = await db
      .selectFrom('exchange_orders')
      .selectAll()
      .where('state', '=', state)
      .orderBy('updated_at')
      .limit(LIST_LIMIT)
      .execute();
    return { code: 0, lines: [`${rows.length} ${state} exchange order(s)`, ...rows.map(describe)] };
  }
  if ((sub !== 'suspend' && sub !== 'resolve') || !id) return usage;
  if (!/^[0-9a-f-]{36}$/i.test(id)) return { code: 2, lines: [`not an order id: ${id}`] };
  const order = await findOrder(db, id);
  if (!order) return { code: 1, lines: [`no exchange order ${id}`] };

  try {
    if (sub === 'suspend') {
      const row = await db
        .transaction()
        .execute((trx) =>
          transitionOrder(trx, id, 'suspended', { now: now(), reason: `operator: ${reason || 'suspended'}` }),
        );
      return { code: 0, lines: [describe(row)] };
    }
    const to = flag(args, 'to');
    if (!to || !isExchangeState(to)) return usage;
    if (order.state !== 'suspended') return { code: 1, lines: [`order ${id} is ${order.state}, not suspended`] };
    const problem = releaseProblem(order, to);
    if (problem) return { code: 1, lines: [`cannot resolve ${id} to ${to}: ${problem}`] };
    // A refund moves money: the engine does it (ledger legs and the payout), from exchanging.
    const target: ExchangeState = to === 'refunded' ? 'exchanging' : to;
    const why = to === 'refunded' ? OPERATOR_REFUND : `operator: ${reason || `resolved to ${to}`}`;
    const row = await db
      .transaction()
      .execute((trx) => transitionOrder(trx, id, target, { now: now(), expectFrom: 'suspended', reason: why }));
    const note = to === 'refunded' ? ['the engine refunds it to the refund address on its next tick'] : [];
    return { code: 0, lines: [describe(row), ...note] };
  } catch (err) {
    return { code: 1, lines: [err instanceof Error ? err.message : String(err)] };
  }
}

import { canonicalAddress, isValidAddress } from '@cw/shared-state/address';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { payoutMethodRefusal } from '../allowlist/policy.ts';
import { type CoinCode, coinDecimals, type NetworkCode } from '../catalogue/catalogue.ts';
import { unlockFunds } from '../ledger/operations.ts';
import { outflowRefusal } from '../withdrawals/outflow-holds.ts';
import { placeApprovedPayout } from '../withdrawals/payouts.ts';
import { findWithdrawal, transition } from '../withdrawals/repository.ts';
import type { ProviderTransaction } from './moonpay/client.ts';
import { moonPayCurrencyCode } from './moonpay/codes.ts';
import { type OrderPatch, type OrderRow, patchOrder, transitionOrder } from './repository.ts';
import { canTransition, isRampState, isStale, type RampState } from './states.ts';

type Trx = Transaction<Database>;

/** Provider states that mean the provider waits for, or has, our coins: only these place the payout. */
const PAYOUT_TARGETS: ReadonlySet<RampState> = new Set(['waiting_deposit', 'processing', 'completed']);
/**
 * Order states from which the payout may still be placed (no withdrawal yet): a status without the
 * provider's address may have moved the order on already, and the lock must not be stranded there.
 */
const PAYOUT_FROM: ReadonlySet<string> = new Set(['pending', 'waiting_deposit', 'processing']);

/** MoonPay's network codes for ours (`baseCurrency.metadata.networkCode`). */
const networkAliases: Record<string, readonly string[]> = {
  ethereum: ['ethereum'],
  bsc: ['bsc', 'binance_smart_chain', 'bnb_chain'],
};

export type SellOutcome = 'applied' | 'stale';

/**
 * One provider event for a sell, on the locked order. The payout is placed only when the event says
 * the provider waits for (or has) the coins, and only once (keyed by the order); a failure releases
 * the lock when the coins never left, cancels a payout the signer has not taken yet, and keeps an
 * order whose coins did leave out of `failed` (refund_pending) until the provider's refund.
 */
export async function applySellEvent(
  trx: Trx,
  order: OrderRow,
  tx: ProviderTransaction,
  target: RampState,
  now: Date,
): Promise<SellOutcome> {
  let current = order;
  if (
    !current.withdrawal_id &&
    PAYOUT_FROM.has(current.state) &&
    PAYOUT_TARGETS.has(target) &&
    tx.depositWalletAddress
  ) {
    current = await placeSellPayout(trx, current, tx, now);
    if (current.state === 'failed' || target === 'waiting_deposit' || current.state === target) return 'applied';
  }
  if (target === 'completed') return holdUntilTransferred(trx, current, tx, now);
  if (target === 'waiting_deposit' && !current.withdrawal_id) {
    // Waiting for coins we have not sent (no address yet): the order stays where it is (waiting_deposit
    // requires the payout, migration 0025's check), so the event naming the address can still place it.
    if (current.state !== 'pending') return 'stale';
    await patchOrder(trx, current.id, eventPatch(tx), now);
    return 'applied';
  }
  const to = target;
  const from = current.state as RampState;
  if (!isRampState(from) || isStale(from, to)) return 'stale';
  if (to === 'failed' || to === 'refunded') return failSell(trx, current, tx, to, now);
  if (!canTransition(from, to)) return 'stale';
  await transitionOrder(trx, current, to, { reason: tx.failureReason, patch: eventPatch(tx), now });
  return 'applied';
}

/**
 * The provider says "completed". Ours is completed only once our transfer to it succeeded (the
 * signer may not have sent it yet, or it may still fail): until then the order waits in processing,
 * the provider's status recorded, and `completeSettledSells` finishes it when the transfer settles.
 */
async function holdUntilTransferred(trx: Trx, order: OrderRow, tx: ProviderTransaction, now: Date) {
  const from = order.state as RampState;
  if (!isRampState(from) || isStale(from, 'completed')) return 'stale';
  const w = order.withdrawal_id ? await findWithdrawal(trx, order.withdrawal_id) : undefined;
  const patch = eventPatch(tx);
  if (w?.state === 'transfer_successful') {
    if (!canTransition(from, 'completed')) return 'stale';
    await transitionOrder(trx, order, 'completed', { patch, now });
  } else if (from === 'processing') await patchOrder(trx, order.id, patch, now);
  else if (canTransition(from, 'processing')) await transitionOrder(trx, order, 'processing', { patch, now });
  else return 'stale';
  return 'applied';
}

function eventPatch(tx: ProviderTransaction): OrderPatch {
  const patch: OrderPatch = { provider_tx_id: tx.id, provider_status: tx.status };
  if (tx.cryptoTransactionId && /^0x[0-9a-fA-F]{64}$/.test(tx.cryptoTransactionId))
    patch.tx_hash = tx.cryptoTransactionId;
  return patch;
}

/**
 * The provider failed (or refunded) the sell. No withdrawal: the lock goes back. A withdrawal the
 * signer has not taken (its row locked here, as the signer locks it before signing): cancelled, its
 * lock back. One the signer already signed: the coins left, so the order waits in refund_pending
 * for the provider's on-chain refund (an alert for operators, `alertRefundPending`).
 */
async function failSell(
  trx: Trx,
  order: OrderRow,
  tx: ProviderTransaction,
  to: 'failed' | 'refunded',
  now: Date,
): Promise<SellOutcome> {
  const from = order.state as RampState;
  const patch = eventPatch(tx);
  const reason = tx.failureReason;
  if (!order.withdrawal_id) {
    if (!canTransition(from, to)) return 'stale';
    await releaseSell(trx, order, now);
    await transitionOrder(trx, order, to, { reason, patch, now });
    return 'applied';
  }
  const w = await findWithdrawal(trx, order.withdrawal_id, { forUpdate: true });
  if (!w) throw new Error(`ramp order ${order.id}: withdrawal ${order.withdrawal_id} missing`);
  const left = w.state === 'transfer_in_progress' || w.state === 'transfer_successful';
  if (!left) {
    if (w.state === 'in_review' || w.state === 'review_approved') await cancelPayout(trx, w, order.id, now);
    // review_rejected / transfer_failed: whoever moved it there released the lock already.
    if (!canTransition(from, 'failed')) return 'stale';
    await transitionOrder(trx, order, 'failed', { reason: reason ?? 'provider_failed', patch, now });
    return 'applied';
  }
  if (to === 'refunded') {
    let at = order;
    if (!canTransition(from, 'refunded') && canTransition(from, 'refund_pending'))
      at = await transitionOrder(trx, order, 'refund_pending', { reason, patch, now });
    if (!canTransition(at.state as RampState, 'refunded')) return 'stale';
    await transitionOrder(trx, at, 'refunded', { reason, patch, now });
    return 'applied';
  }
  if (!canTransition(from, 'refund_pending')) return 'stale';
  await transitionOrder(trx, order, 'refund_pending', { reason: reason ?? 'provider_failed', patch, now });
  return 'applied';
}

/** A payout not yet signed: rejected (the signer only takes review_approved rows), its lock released. */
export async function cancelPayout(
  trx: Trx,
  w: NonNullable<Awaited<ReturnType<typeof findWithdrawal>>>,
  orderId: string,
  now: Date,
) {
  const reason = 'ramp_sell_failed';
  const moved = await transition(trx, w.id, w.state as 'review_approved', 'review_rejected', { reason }, now);
  if (!moved) throw new Error(`ramp order ${orderId}: payout ${w.id} moved while locked`);
  await unlockFunds(
    trx,
    {
      idempotencyKey: `withdrawal:${w.id}:unlock`,
      userId: w.user_id,
      asset: w.coin,
      amountMinor: BigInt(w.amount_minor),
      metadata: { withdrawalId: w.id, reason, rampOrderId: orderId },
    },
    now,
  );
}

/** Why the provider's transaction does not describe this order (currency, network, amount), or null. */
export function termsMismatch(order: OrderRow, tx: ProviderTransaction): string | null {
  const code = moonPayCurrencyCode(order.coin as CoinCode, order.network as NetworkCode);
  if (!code || tx.baseCurrencyCode?.toLowerCase() !== code) return 'currency';
  const aliases = networkAliases[order.network] ?? [order.network];
  if (tx.baseNetworkCode && !aliases.includes(tx.baseNetworkCode.toLowerCase())) return 'network';
  const amount = tx.baseCurrencyAmount;
  // Exact: amount.num / amount.den must equal crypto_amount_minor / 10^decimals.
  const scale = 10n ** BigInt(coinDecimals(order.coin as CoinCode));
  if (!amount || amount.num * scale !== BigInt(order.crypto_amount_minor) * amount.den) return 'amount';
  return null;
}

/** Our coins go to the provider's deposit address through the withdrawal pipeline and the signer. */
async function placeSellPayout(trx: Trx, order: OrderRow, tx: ProviderTransaction, now: Date): Promise<OrderRow> {
  const address = tx.depositWalletAddress ?? '';
  const mismatch = termsMismatch(order, tx);
  // The freeze, the 24 h hold and the allowlist (the payout method's hold) are read again here, in the
  // payout's transaction: any may have begun since the sell was placed (a password reset between placing
  // and paying out holds it too; the allowlist turned on while a fresh method waits refuses it).
  const refusal = !isValidAddress(order.network, address)
    ? 'provider_address_invalid'
    : mismatch !== null
      ? `provider_terms_mismatch:${mismatch}`
      : ((await outflowRefusal(trx, order.user_id, now)) ??
        (await payoutMethodRefusal(trx, order.user_id, order.payout_method_id, now)));
  if (refusal) {
    await releaseSell(trx, order, now);
    return transitionOrder(trx, order, 'failed', { reason: refusal, now });
  }
  const fee = BigInt(order.network_fee_minor);
  const withdrawalId = await placeApprovedPayout(
    trx,
    {
      userId: order.user_id,
      key: `ramp:${order.id}:payout`,
      coin: order.coin as CoinCode,
      network: order.network as NetworkCode,
      address: canonicalAddress(order.network as never, address),
      amountMinor: BigInt(order.crypto_amount_minor) + fee,
      feeMinor: fee,
      origin: 'ramp',
      ...(order.value_usd_cents === null ? {} : { valueUsdCents: BigInt(order.value_usd_cents) }),
    },
    now,
  );
  const patched = await patchOrder(
    trx,
    order.id,
    { deposit_address: address, withdrawal_id: withdrawalId, provider_tx_id: tx.id, provider_status: tx.status },
    now,
  );
  if (patched.state !== 'pending') return patched;
  return transitionOrder(trx, patched, 'waiting_deposit', { now });
}

/** The sell's lock back to the available balance (the coins never left). */
export async function releaseSell(trx: Trx, order: OrderRow, now: Date) {
  await unlockFunds(
    trx,
    {
      idempotencyKey: `ramp:${order.id}:unlock`,
      userId: order.user_id,
      asset: order.coin as CoinCode,
      amountMinor: BigInt(order.crypto_amount_minor) + BigInt(order.network_fee_minor),
    },
    now,
  );
}

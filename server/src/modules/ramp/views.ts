import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type CoinCode, coinDecimals, type NetworkCode } from '../catalogue/catalogue.ts';
import type { MoonPayClient } from './moonpay/client.ts';
import { FIAT_DECIMALS, moonPayCurrencyCode } from './moonpay/codes.ts';
import { minorToDecimal } from './moonpay/decimals.ts';
import { depositsByHash, eventsOf, type OrderRow, withdrawalsById } from './repository.ts';
import type { RampOrder } from './schemas.ts';

/** What the checkout needs besides the order: where to return, and (sell) the payout's label. */
export interface CheckoutContext {
  /** The app's origin as the browser used it (checked by the CSRF guard), e.g. https://wallet.example */
  origin: string;
  /** sell: the masked payout method, shown on the provider's page. */
  payoutLabel?: string | undefined;
  /** sell: where the provider returns coins if the payout fails (the user's own deposit address). */
  refundAddress?: string | undefined;
}

/**
 * The provider's signed widget URL for a pending order: amounts, the user's wallet (buy) or refund
 * address (sell), our order id as externalTransactionId, and the order's page as redirectURL.
 */
export function checkoutUrl(client: MoonPayClient, order: OrderRow, ctx: CheckoutContext): string {
  const code = moonPayCurrencyCode(order.coin as CoinCode, order.network as NetworkCode) ?? '';
  const redirectURL = `${ctx.origin}/buySell/order?id=${order.id}`;
  if (order.side === 'buy') {
    return client.widgetUrl('buy', {
      currencyCode: code,
      baseCurrencyCode: order.fiat.toLowerCase(),
      baseCurrencyAmount: minorToDecimal(BigInt(order.fiat_amount_minor), FIAT_DECIMALS),
      walletAddress: order.wallet_address ?? '',
      paymentMethod: order.payment_method,
      externalTransactionId: order.id,
      externalCustomerId: order.user_id,
      lockAmount: 'true',
      redirectURL,
    });
  }
  return client.widgetUrl('sell', {
    baseCurrencyCode: code,
    baseCurrencyAmount: minorToDecimal(BigInt(order.crypto_amount_minor), coinDecimals(order.coin as CoinCode)),
    quoteCurrencyCode: order.fiat.toLowerCase(),
    payoutMethod: order.payment_method,
    payoutLabel: ctx.payoutLabel ?? order.payment_method,
    refundWalletAddress: ctx.refundAddress ?? '',
    externalTransactionId: order.id,
    externalCustomerId: order.user_id,
    redirectURL,
  });
}

export async function orderViews(
  db: Kysely<Database>,
  rows: readonly OrderRow[],
  options: { sandbox: boolean; checkout: (row: OrderRow) => string | null },
): Promise<RampOrder[]> {
  const [events, deposits, transfers] = await Promise.all([
    eventsOf(
      db,
      rows.map((r) => r.id),
    ),
    depositsByHash(
      db,
      rows.filter((r) => r.side === 'buy' && r.tx_hash).map((r) => (r.tx_hash ?? '').toLowerCase()),
    ),
    withdrawalsById(
      db,
      rows.flatMap((r) => (r.withdrawal_id ? [r.withdrawal_id] : [])),
    ),
  ]);
  return rows.map((r) => {
    const deposit = r.side === 'buy' && r.tx_hash ? deposits.get(r.tx_hash.toLowerCase()) : undefined;
    const transfer = r.withdrawal_id ? transfers.get(r.withdrawal_id) : undefined;
    return {
      id: r.id,
      side: r.side,
      state: r.state as RampOrder['state'],
      reason: r.state_reason,
      coin: r.coin as RampOrder['coin'],
      network: r.network as RampOrder['network'],
      fiat: r.fiat as RampOrder['fiat'],
      method: r.payment_method as RampOrder['method'],
      payoutMethodId: r.payout_method_id,
      fiatAmountMinor: String(r.fiat_amount_minor),
      cryptoAmountMinor: String(r.crypto_amount_minor),
      feeFiatMinor: String(r.fee_fiat_minor),
      networkFeeMinor: String(r.network_fee_minor),
      walletAddress: r.wallet_address,
      depositAddress: r.deposit_address,
      providerTransactionId: r.provider_tx_id,
      txHash: r.tx_hash,
      deposit: deposit ? { state: deposit.state, amountMinor: deposit.amount_minor } : null,
      transfer: transfer ? { state: transfer.state, txHash: transfer.tx_hash } : null,
      checkoutUrl: r.state === 'pending' ? options.checkout(r) : null,
      checkoutExpiresAt: r.checkout_expires_at.toISOString(),
      createdAt: r.created_at.toISOString(),
      updatedAt: r.updated_at.toISOString(),
      events: (events.get(r.id) ?? []).map((e) => ({
        state: e.state as RampOrder['state'],
        reason: e.reason,
        at: e.at.toISOString(),
      })),
      sandbox: options.sandbox,
    };
  });
}

import type { ColumnType, Generated } from 'kysely';

/** Buy and sell through a payment provider (migration 0025); `Database` in schema.ts extends it. */
export interface RampDatabase {
  ramp_quotes: RampQuotesTable;
  ramp_orders: RampOrdersTable;
  ramp_order_events: RampOrderEventsTable;
  ramp_webhook_events: RampWebhookEventsTable;
  ramp_sell_alerts: RampSellAlertsTable;
}

type Numeric = ColumnType<string, string | bigint, string | bigint>;

export interface RampQuotesTable {
  id: Generated<string>;
  user_id: string;
  side: 'buy' | 'sell';
  coin: string;
  network: string;
  fiat: string;
  payment_method: string;
  fiat_amount_minor: Numeric;
  crypto_amount_minor: Numeric;
  fee_fiat_minor: Numeric;
  network_fee_minor: Numeric;
  payout_kinds: Generated<string[]>;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

export interface RampOrdersTable {
  id: string;
  user_id: string;
  side: 'buy' | 'sell';
  state: Generated<string>;
  state_reason: string | null;
  idempotency_key: string;
  quote_id: string;
  coin: string;
  network: string;
  fiat: string;
  payment_method: string;
  payout_method_id: string | null;
  fiat_amount_minor: Numeric;
  crypto_amount_minor: Numeric;
  fee_fiat_minor: Numeric;
  network_fee_minor: Numeric;
  wallet_address: string | null;
  deposit_address: string | null;
  provider_tx_id: string | null;
  provider_status: string | null;
  withdrawal_id: string | null;
  tx_hash: string | null;
  /** Migration 0043: the provider's on-chain refund an operator matched to a refund_pending sell. */
  refund_tx_hash: Generated<string | null>;
  /** Migration 0067: a sell's USD value when placed (cents, rounded up), in the outflow review budget. */
  value_usd_cents: Generated<string | null>;
  checkout_expires_at: Date;
  created_at: Date;
  updated_at: Date;
}

export interface RampOrderEventsTable {
  id: Generated<string>;
  order_id: string;
  from_state: string | null;
  to_state: string;
  reason: string | null;
  occurred_at: Date;
}

export interface RampWebhookEventsTable {
  event_key: string;
  order_id: string | null;
  received_at: Date;
}

/** Migration 0043: one row per (sell order, alert kind); the ramp sweep claims due rows (re-alerts). */
export interface RampSellAlertsTable {
  order_id: string;
  kind: 'refund_pending' | 'terms_mismatch' | 'completed_without_transfer';
  first_alerted_at: Date;
  last_alerted_at: Date;
  alerts: Generated<number>;
  resolved_at: Date | null;
  resolution: string | null;
}

import type { ColumnType, Generated } from 'kysely';
import type { CoinCode, NetworkCode } from '../modules/catalogue/catalogue.ts';
import type { RateType } from '../modules/exchange/pricing.ts';
import type { ExchangeState } from '../modules/exchange/states.ts';

/** Float/fixed-rate exchange orders (modules/exchange); `Database` in schema.ts extends it. */
export interface ExchangeDatabase {
  exchange_rate_locks: ExchangeRateLocksTable;
  exchange_orders: ExchangeOrdersTable;
  exchange_order_transitions: ExchangeOrderTransitionsTable;
  exchange_order_events: ExchangeOrderEventsTable;
  exchange_deposit_cursors: ExchangeDepositCursorsTable;
  exchange_extra_deposits: ExchangeExtraDepositsTable;
  exchange_native_deposits: ExchangeNativeDepositsTable;
}

/** Exchange (modules/exchange, migration 0010). NUMERIC(78,0) columns are read as decimal strings. */
export interface ExchangeRateLocksTable {
  id: Generated<string>;
  user_id: string;
  send_coin: CoinCode;
  send_network: NetworkCode;
  receive_coin: CoinCode;
  receive_network: NetworkCode;
  send_amount_minor: string;
  rate_scaled: string;
  created_at: Date;
  expires_at: Date;
}

/** `state` changes only along exchange_order_transitions (trigger); each change appends an event. */
export interface ExchangeOrdersTable {
  id: Generated<string>;
  user_id: string;
  state: Generated<ExchangeState>;
  state_reason: string | null;
  rate_type: RateType;
  send_coin: CoinCode;
  send_network: NetworkCode;
  receive_coin: CoinCode;
  receive_network: NetworkCode;
  send_amount_minor: string;
  rate_scaled: string;
  estimated_receive_minor: string;
  service_charge_minor: string;
  network_fee_minor: string;
  rate_lock_id: string | null;
  deadline_at: Date | null;
  receive_address: string;
  refund_address: string | null;
  deposit_address: string | null;
  deposit_index: number | null;
  deposit_tx_hash: string | null;
  deposit_amount_minor: string | null;
  deposit_confirmations: number | null;
  deposit_seen_at: Date | null;
  deposit_confirmed_at: Date | null;
  final_rate_scaled: string | null;
  receive_amount_minor: string | null;
  payout_address: string | null;
  payout_coin: CoinCode | null;
  payout_network: NetworkCode | null;
  payout_amount_minor: string | null;
  payout_request_id: string | null;
  payout_tx_hash: string | null;
  payout_sent_at: Date | null;
  /** The counted deposit's log index (0049; -1 native; null: recorded before, the hash's lowest counts). */
  deposit_log_index: ColumnType<number | null, number | null | undefined, number | null>;
  /** Each engine step's fair queue (migration 0048): stamped from a sequence each time that step takes the order. */
  queue_seq_observe: ColumnType<string | null, string | null | undefined, string | null>;
  queue_seq_confirm: ColumnType<string | null, string | null | undefined, string | null>;
  queue_seq_settle: ColumnType<string | null, string | null | undefined, string | null>;
  queue_seq_payouts: ColumnType<string | null, string | null | undefined, string | null>;
  queue_seq_extra: ColumnType<string | null, string | null | undefined, string | null>;
  /** A refund whose payout failed (0045): the amount went back to the user's wallet. */
  payout_failed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  payout_failed_reason: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Date;
  updated_at: Date;
}

/** Frozen after migration: the allowed state changes (copied from modules/exchange/states.ts). */
export interface ExchangeOrderTransitionsTable {
  from_state: ExchangeState;
  to_state: ExchangeState;
}

/** Append-only, written by a trigger on exchange_orders. */
export interface ExchangeOrderEventsTable {
  id: Generated<string>;
  order_id: string;
  from_state: ExchangeState | null;
  to_state: ExchangeState;
  reason: string | null;
  occurred_at: Date;
}

/** Order scanner's cursor per EVM network (modules/exchange, migration 0014). */
export interface ExchangeDepositCursorsTable {
  network: NetworkCode;
  /** bigint, read as a decimal string. */
  block_number: ColumnType<string, string | number, string | number>;
  block_hash: string;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** Native-coin transfers to order deposit addresses (migration 0014). chain_amount in wei. */
export interface ExchangeNativeDepositsTable {
  network: NetworkCode;
  tx_hash: string;
  to_address: string;
  chain_amount: string;
  block_number: ColumnType<string, string | number, string | number>;
  block_hash: string;
  tx_index: number;
  block_time: Date;
  seen_at: ColumnType<Date, Date | undefined, Date>;
}

/** Transfers to an order address besides its counted deposit, each booked once (migration 0047). */
export interface ExchangeExtraDepositsTable {
  id: Generated<string>;
  order_id: string;
  network: NetworkCode;
  coin: CoinCode;
  tx_hash: string;
  /** Where the transfer was in its block when booked (-1 for a native transfer); not part of its key. */
  log_index: number;
  /**
   * Its place (from 0) among its transaction's non-dust transfers of `coin` to the order's address, by log
   * index: with (network, tx_hash, order_id, coin) the key a reorg cannot move (migration 0072).
   */
  tx_position: number;
  amount_minor: string;
  block_number: ColumnType<string, string | number, string | number>;
  outcome: 'refund' | 'to_wallet';
  payout_request_id: string | null;
  created_at: Date;
}

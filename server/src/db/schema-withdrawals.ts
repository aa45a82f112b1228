import type { ColumnType, Generated } from 'kysely';
import type { CoinCode, NetworkCode } from '../modules/catalogue/catalogue.ts';
import type { WithdrawalState } from '../modules/withdrawals/state-machine.ts';

// Withdrawals and the signer's attempts (split from schema.ts, which re-exports these types).

/** Signer attempt states (signer/signer.ts): signed, then mined, reverted or replaced by a fee bump. */
export type SignerTransactionState = 'signed' | 'mined' | 'reverted' | 'replaced';

/** Withdrawals (modules/withdrawals, migration 0008). NUMERIC(78,0) columns read as decimal strings. */
export interface WithdrawalsTable {
  id: Generated<string>;
  user_id: string;
  idempotency_key: string;
  coin: CoinCode;
  network: NetworkCode;
  address: string;
  amount_minor: string;
  fee_minor: string;
  /** Generated: amount_minor - fee_minor. */
  arrival_minor: ColumnType<string, never, never>;
  /** Moves only along the transitions of withdrawals/state-machine.ts (a trigger enforces them too). */
  state: WithdrawalState;
  review: string | null;
  /** The operator who decided a manual review (migration 0051); null for automatic ones. */
  reviewed_by: Generated<string | null>;
  /** NUMERIC(78,0): USD cents (rounded up) when placed (migration 0067); null before it and for exchange payouts. */
  value_usd_cents: Generated<string | null>;
  /** Migration 0067: who decided the withdrawal: the user, a ramp sell's payout, or an exchange payout/refund. */
  origin: Generated<'user' | 'ramp' | 'exchange'>;
  reason: string | null;
  tx_hash: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A signed EVM transaction attempt, recorded before broadcast (signer process; states signed, mined, reverted, replaced). */
export interface SignerTransactionsTable {
  id: Generated<string>;
  withdrawal_id: string;
  network: NetworkCode;
  chain_id: ColumnType<string, string | number, string | number>;
  from_address: string;
  nonce: ColumnType<string, string | number, string | number>;
  tx_hash: string;
  raw_tx: string;
  state: SignerTransactionState;
  broadcast_count: Generated<number>;
  last_error: string | null;
  block_number: ColumnType<string | null, string | number | null, string | number | null>;
  /** 0 = first signing; k > 0 = fee-bumped replacement k with the same nonce (migration 0013). */
  attempt: Generated<number>;
  max_fee_per_gas: string | null;
  max_priority_fee_per_gas: string | null;
  /** First broadcast of this attempt: the replacement timer starts here. */
  broadcast_at: Date | null;
  /** 'cancel': a zero-value self-transfer at the withdrawal's nonce, asked for by an operator (migration 0065). */
  kind: Generated<'transfer' | 'cancel'>;
  created_at: Date;
  updated_at: Date;
}

/** An operator's request to cancel a withdrawal's dead nonce (migration 0065); the signer acts on it. */
export interface WithdrawalNonceCancelsTable {
  withdrawal_id: string;
  operator_id: string;
  operator_name: string;
  reason: string;
  requested_at: Date;
}

export interface WithdrawalsDatabase {
  withdrawals: WithdrawalsTable;
  signer_transactions: SignerTransactionsTable;
  withdrawal_nonce_cancels: WithdrawalNonceCancelsTable;
}

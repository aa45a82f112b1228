import type { ColumnType, Generated } from 'kysely';

/**
 * Tables of migrations 0037 and 0039 (the custody book's openings, the signer's deposit sweeps and their
 * replacements); `Database` extends it.
 */
export interface CustodyDatabase {
  custody_openings: CustodyOpeningsTable;
  sweep_transactions: SweepTransactionsTable;
  sweep_attempts: SweepAttemptsTable;
  order_address_custody: OrderAddressCustodyTable;
}

/** Coins booked into custody for an exchange order address (migration 0072), one row per custody key. */
export interface OrderAddressCustodyTable {
  id: Generated<string>;
  order_id: string;
  network: string;
  address: string;
  coin: string;
  /** NUMERIC(78,0), chain units. */
  chain_amount: string;
  custody_key: string;
  created_at: ColumnType<Date, Date, never>;
}

/** The block at which a network's hot wallet was read into the custody book (one row per network). */
export interface CustodyOpeningsTable {
  network: string;
  address: string;
  block_number: ColumnType<string, string, never>;
  created_at: ColumnType<Date, Date, never>;
}

export const sweepKinds = ['gas_topup', 'sweep'] as const;
export type SweepKind = (typeof sweepKinds)[number];

/** A gas top-up (hot wallet -> deposit address) or a sweep (deposit address -> hot wallet), recorded before broadcast. */
export interface SweepTransactionsTable {
  id: Generated<string>;
  kind: SweepKind;
  network: string;
  chain_id: ColumnType<string, string, never>;
  coin: string;
  deposit_address: string;
  from_address: string;
  to_address: string;
  /** NUMERIC(78,0), chain units of `coin` (wei for the native coin); the mined attempt's once settled. */
  chain_amount: string;
  nonce: ColumnType<string, string, never>;
  gas_limit: ColumnType<string, string, never>;
  gas_price_wei: string;
  tx_hash: string;
  raw_tx: string;
  state: 'signed' | 'mined' | 'reverted';
  broadcast_count: Generated<number>;
  last_error: string | null;
  block_number: string | null;
  /** Gas paid, wei, from the receipt (set when mined or reverted). */
  fee_wei: string | null;
  custody_transfer_id: string | null;
  /** When a node first took the first signing's bytes (migration 0039): the replacement timer starts there. */
  broadcast_at: Date | null;
  /** The attempt that was mined: `tx_hash` or one of its replacements' (0039). */
  mined_tx_hash: string | null;
  created_at: ColumnType<Date, Date, never>;
  updated_at: Date;
}

/** A fee-bumped replacement of a row of sweep_transactions (migration 0039): same nonce, higher gasPrice. */
export interface SweepAttemptsTable {
  id: Generated<string>;
  sweep_id: string;
  /** 1 for the first replacement (the row itself is attempt 0). */
  attempt: number;
  /** NUMERIC(78,0): what this attempt sends (a native sweep sends less when it pays more gas). */
  chain_amount: string;
  gas_price_wei: string;
  tx_hash: string;
  raw_tx: string;
  broadcast_count: Generated<number>;
  last_error: string | null;
  broadcast_at: Date | null;
  created_at: ColumnType<Date, Date, never>;
  updated_at: Date;
}

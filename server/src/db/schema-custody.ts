import type { ColumnType, Generated } from 'kysely';

/** Tables of migration 0037 (the custody book's openings and the signer's deposit sweeps); `Database` extends it. */
export interface CustodyDatabase {
  custody_openings: CustodyOpeningsTable;
  sweep_transactions: SweepTransactionsTable;
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
  /** NUMERIC(78,0), chain units of `coin` (wei for the native coin). */
  chain_amount: ColumnType<string, string, never>;
  nonce: ColumnType<string, string, never>;
  gas_limit: ColumnType<string, string, never>;
  gas_price_wei: ColumnType<string, string, never>;
  tx_hash: string;
  raw_tx: string;
  state: 'signed' | 'mined' | 'reverted';
  broadcast_count: Generated<number>;
  last_error: string | null;
  block_number: string | null;
  /** Gas paid, wei, from the receipt (set when mined or reverted). */
  fee_wei: string | null;
  custody_transfer_id: string | null;
  created_at: ColumnType<Date, Date, never>;
  updated_at: Date;
}

import type { ColumnType, Generated } from 'kysely';
import type { CoinCode, NetworkCode } from '../modules/catalogue/catalogue.ts';
import type { depositReasons, depositStates } from '../modules/deposits/schemas.ts';

/** Deposit addresses, chain cursors and deposits (modules/deposits, modules/chain); `Database` in schema.ts extends it. */
export interface DepositsDatabase {
  deposit_addresses: DepositAddressesTable;
  deposit_address_counters: DepositAddressCountersTable;
  chain_cursors: ChainCursorsTable;
  chain_blocks: ChainBlocksTable;
  deposits: DepositsTable;
  deposit_confirm_clicks: DepositConfirmClicksTable;
}

/** Chain deposits (migration 0007, modules/chain + modules/deposits). bigint columns read as strings. */
export interface DepositAddressesTable {
  id: Generated<string>;
  user_id: string;
  network: NetworkCode;
  address: string;
  derivation_index: number;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface DepositAddressCountersTable {
  network: NetworkCode;
  next_index: number;
}

export interface ChainCursorsTable {
  network: NetworkCode;
  /** bigint, read as a decimal string. */
  block_number: ColumnType<string, string | number, string | number>;
  block_hash: string;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface ChainBlocksTable {
  network: NetworkCode;
  block_number: ColumnType<string, string | number, string | number>;
  block_hash: string;
  parent_hash: string | null;
}

/** state: 'confirming' | 'successful' | 'failed'; output_index: log index, vout, or -1 for a native transfer. */
export interface DepositsTable {
  id: Generated<string>;
  user_id: string;
  network: NetworkCode;
  coin: CoinCode;
  tx_hash: string;
  output_index: number;
  from_address: string | null;
  to_address: string;
  /** NUMERIC(78,0) in the chain's unit. */
  chain_amount: string;
  /** NUMERIC(78,0) in the ledger's minor unit (what is credited). */
  amount_minor: string;
  block_number: ColumnType<string, string | number, string | number>;
  block_hash: string;
  confirmations: Generated<number>;
  required_confirmations: number;
  state: (typeof depositStates)[number];
  reason: (typeof depositReasons)[number] | null;
  credited_transfer_id: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
  completed_at: Date | null;
  /** Set when a deeper-than-confirmations reorg took the deposit's block away (migration 0036). */
  reorg_alert_id: ColumnType<string | null, never, string>;
  /** The deposit's custody posting (migration 0037); null until booked. */
  custody_transfer_id: ColumnType<string | null, never, string>;
}

export interface DepositConfirmClicksTable {
  id: Generated<string>;
  user_id: string;
  coin: CoinCode;
  network: NetworkCode;
  /** date, YYYY-MM-DD in UTC. */
  utc_day: ColumnType<Date, string, never>;
  matched_deposit_id: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
}

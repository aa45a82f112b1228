import type { ColumnType, Generated } from 'kysely';

/**
 * Tables of migration 0036 (deep reorgs: alerts and the withdrawal freezes they hold), 0059 (address watchers' unfinished history reads) and 0055 (chain
 * alerts: a node on another chain, no fork point, a re-mined transfer that differs); `Database` extends it.
 */
export interface ReorgsDatabase {
  reorg_alerts: ReorgAlertsTable;
  withdrawal_freezes: WithdrawalFreezesTable;
  chain_alerts: ChainAlertsTable;
  address_history_reads: AddressHistoryReadsTable;
}

/** An address watcher's read of one listing of an address's history (migration 0059). */
export interface AddressHistoryReadsTable {
  network: string;
  address: string;
  /** 'native', 'chain', or 'trc20:<contract>'. */
  listing: string;
  /** Where an unfinished read goes on (oldest txid read / next page's fingerprint); null when finished. */
  resume_from: string | null;
  finished: boolean;
  updated_at: Date;
}

export interface ReorgAlertsTable {
  id: Generated<string>;
  network: string;
  fork_block: ColumnType<string, string, never>;
  deposits: ColumnType<number, number, never>;
  created_at: ColumnType<Date, Date, never>;
  resolved_at: Date | null;
  resolution: string | null;
}

export interface WithdrawalFreezesTable {
  user_id: string;
  alert_id: string;
  created_at: ColumnType<Date, Date, never>;
}

export type ChainAlertKind =
  | 'fork_not_found'
  | 'chain_id_mismatch'
  | 'remined_transfer_differs'
  | 'unexplained_balance'
  | 'history_page_cap'
  /** An exchange order's booked deposit a reorg removed (migration 0066). */
  | 'exchange_deposit_reorged';

export interface ChainAlertsTable {
  id: Generated<string>;
  network: string;
  kind: ChainAlertKind;
  dedupe_key: string;
  detail: string;
  created_at: ColumnType<Date, Date, never>;
  resolved_at: Date | null;
  resolution: string | null;
}
